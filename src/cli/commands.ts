import type { Command } from "commander";

type Register = (program: Command) => void;

/**
 * Every subcommand, in help order, with the module that registers it. Each command module
 * imports its heavy library code lazily inside its action so `membank --help` starts fast.
 */
const COMMANDS: readonly (readonly [string, () => Promise<Register>])[] = [
  ["init", async () => (await import("./commands/init.js")).registerInit],
  ["facts", async () => (await import("./commands/facts.js")).registerFacts],
  ["index", async () => (await import("./commands/index.js")).registerIndex],
  ["search", async () => (await import("./commands/search.js")).registerSearch],
  ["get", async () => (await import("./commands/get.js")).registerGet],
  ["recall", async () => (await import("./commands/recall.js")).registerRecall],
  ["reflect", async () => (await import("./commands/reflect.js")).registerReflect],
  ["run", async () => (await import("./commands/run.js")).registerRun],
  ["schedule", async () => (await import("./commands/schedule.js")).registerSchedule],
  ["models", async () => (await import("./commands/models.js")).registerModels],
  ["watch", async () => (await import("./commands/watch.js")).registerWatch],
  ["mcp", async () => (await import("./commands/mcp.js")).registerMcp],
  ["serve", async () => (await import("./commands/serve.js")).registerServe],
  ["openclaw", async () => (await import("./commands/openclaw.js")).registerOpenClaw],
  ["doctor", async () => (await import("./commands/doctor.js")).registerDoctor],
  ["merge-driver", async () => (await import("./commands/merge-driver.js")).registerMergeDriver],
];

/**
 * Register the subcommands a run needs: when the first argument names one (`membank recall
 * ...`), only that one, so a command does not load the other fifteen modules (its help and
 * its errors are the same either way); none for `--version`; otherwise (`--help`, `help`,
 * a typo) all of them.
 */
export async function registerCommands(
  program: Command,
  args: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const named = COMMANDS.find(([name]) => name === args[0]);
  // `--version` is answered by the program before any command is looked at.
  const version = args[0] === "--version" || args[0] === "-V";
  const wanted = named ? [named] : version ? [] : COMMANDS;
  const registers = await Promise.all(wanted.map(([, load]) => load()));
  for (const register of registers) register(program);
}
