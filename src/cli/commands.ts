import type { Command } from "commander";

/**
 * Every subcommand, in help order. Each command module imports its heavy library code
 * lazily inside its action so `membank --help` starts fast.
 */
export function registerCommands(program: Command): void {
  void program;
}
