import type { Command } from "commander";
import { registerDoctor } from "./commands/doctor.js";
import { registerFacts } from "./commands/facts.js";
import { registerGet } from "./commands/get.js";
import { registerIndex } from "./commands/index.js";
import { registerInit } from "./commands/init.js";
import { registerMcp } from "./commands/mcp.js";
import { registerMergeDriver } from "./commands/merge-driver.js";
import { registerModels } from "./commands/models.js";
import { registerOpenClaw } from "./commands/openclaw.js";
import { registerRecall } from "./commands/recall.js";
import { registerReflect } from "./commands/reflect.js";
import { registerRun } from "./commands/run.js";
import { registerSchedule } from "./commands/schedule.js";
import { registerSearch } from "./commands/search.js";
import { registerServe } from "./commands/serve.js";
import { registerWatch } from "./commands/watch.js";

/**
 * Every subcommand, in help order. Each command module imports its heavy library code
 * lazily inside its action so `membank --help` starts fast.
 */
export function registerCommands(program: Command): void {
  registerInit(program);
  registerFacts(program);
  registerIndex(program);
  registerSearch(program);
  registerGet(program);
  registerRecall(program);
  registerReflect(program);
  registerRun(program);
  registerSchedule(program);
  registerModels(program);
  registerWatch(program);
  registerMcp(program);
  registerServe(program);
  registerOpenClaw(program);
  registerDoctor(program);
  registerMergeDriver(program);
}
