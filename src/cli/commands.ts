import type { Command } from "commander";
import { registerInit } from "./commands/init.js";
import { registerModels } from "./commands/models.js";
import { registerRun } from "./commands/run.js";
import { registerSchedule } from "./commands/schedule.js";

/**
 * Every subcommand, in help order. Each command module imports its heavy library code
 * lazily inside its action so `membank --help` starts fast.
 */
export function registerCommands(program: Command): void {
  registerInit(program);
  registerRun(program);
  registerSchedule(program);
  registerModels(program);
  void program;
}
