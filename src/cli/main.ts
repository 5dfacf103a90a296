#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { registerCommands } from "./commands.js";
import { reportError } from "./shared.js";

const program = new Command();
program
  .name("membank")
  .description(
    "A memory people can trust for AI agents.\n" +
      "Parses the Retain sections of daily Markdown logs into typed facts, reflects them into\n" +
      "reviewable bank pages committed to git, and recalls them with citations.\n" +
      "Markdown is the truth; the index under .memory/ is derived and rebuildable.",
  )
  .version("0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed the message (or help/version).
    process.exitCode = error.exitCode;
  } else {
    process.exitCode = reportError(error);
  }
}
