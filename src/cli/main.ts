#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { registerCommands } from "./commands.js";
import { reportError } from "./shared.js";

// `membank facts | head` closes the pipe early: that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// A file-size limit (ulimit -f) or quota must surface as EFBIG naming the file, not kill
// the process: Node ignores SIGXFSZ, but signal-exit (under the lock library) listens for it
// and re-raises it when it is the only listener.
process.on("SIGXFSZ", () => {});

const program = new Command();
program
  .name("membank")
  .description(
    "A memory people can trust for AI agents. membank parses the Retain sections of daily " +
      "Markdown logs into typed facts, reflects them into reviewable bank pages committed to git, " +
      "and recalls them with citations. Markdown is the truth; the index under .memory/ is derived.",
  )
  .addHelpText(
    "after",
    `
Every command takes --workspace DIR (or $MEMBANK_WORKSPACE, or the nearest folder with
membank.config.json) and --json for machine output.

Examples:
  membank init ~/clawd                      create a workspace (folders, templates, git)
  membank facts --since 7d                  facts of the last week, malformed lines on stderr
  membank run nightly                       sessions -> retain -> reflect -> commit -> index
  membank recall "what does Mara prefer for status updates?"
  membank search FJD-482 --json             OpenClaw memory_search contract
  membank mcp                               serve the memory tools to an agent over stdio
  membank doctor                            what is installed, which embedder auto picks`,
  )
  .version("0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

// No top-level await: the bundle (scripts/bundle.mjs) is CommonJS, for V8's code cache.
async function main(): Promise<void> {
  await registerCommands(program);
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
}

void main();
