import type { Command } from "commander";
import { displaySafe } from "../../markdown/display.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

/** Exit codes of `membank run` and `membank schedule --once` (documented in --help). */
export const RUN_EXIT = { done: 0, failed: 1, usage: 2, nothing: 3, locked: 4, gitBusy: 5 } as const;

export const RUN_EXIT_HELP = `
Exit codes:
  0  done: the run wrote, committed or indexed something
  3  nothing to do: no new sessions, facts or changes
  4  busy: another run holds the workspace lock (.memory/lock); the message names its pid
  1  failed: a step failed (its message and the run record under .memory/runs/ say which)
  2  bad usage (unknown pipeline, bad flag)
  5  git is busy: mid-merge, rebase, cherry-pick, revert or bisect, or a detached HEAD;
     nothing was written or committed; finish or abort that, and the next run catches up`;

export interface RunFlags {
  workspace?: string;
  sessions?: string;
  json?: boolean;
  wait?: string;
  full?: boolean;
  acceptDeletedLogs?: boolean;
}

/**
 * Run a pipeline once in this process (shared by `run` and `schedule --once`): progress lines
 * on stdout (stderr with --json), the summary or the JSON run record at the end, and an exit
 * code from RUN_EXIT. SIGTERM/SIGINT let the current step finish and skip the rest.
 */
export async function runOnce(name: string, flags: RunFlags): Promise<number> {
  const ws = await loadWorkspace(flags);
  const { executePipeline } = await import("../../pipeline/runner.js");
  const { cliPipeline } = await import("../pipelines.js");
  const out = flags.json ? process.stderr : process.stdout;
  const abort = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (abort.signal.aborted) process.exit(130); // second signal: stop now (every write is atomic)
    out.write(`membank: ${sig}: finishing the current step, then stopping\n`);
    abort.abort(sig);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    const waitSeconds = flags.wait === undefined ? 0 : Number(flags.wait);
    const record = await executePipeline(ws, cliPipeline(name), {
      ...(flags.sessions !== undefined ? { sessionsDir: flags.sessions } : {}),
      signal: abort.signal,
      ...(flags.full ? { full: true } : {}),
      ...(flags.acceptDeletedLogs ? { acceptDeletedLogs: true } : {}),
      lockWaitMs: Number.isFinite(waitSeconds) && waitSeconds > 0 ? waitSeconds * 1000 : 0,
      log: (line) => out.write(`${line}\n`),
      purpose: `run ${name}`,
    });
    if (flags.json) printJson(record);
    else for (const line of record.summary ?? [`run: ${record.status}`]) process.stdout.write(displaySafe(`${line}\n`));
    if (record.status === "blocked") {
      if (!flags.json && record.error) process.stderr.write(`membank: ${displaySafe(record.error.message)}\n`);
      return RUN_EXIT.gitBusy;
    }
    if (record.status === "failed" || record.status === "aborted") {
      if (!flags.json && record.error) process.stderr.write(`membank: ${record.error.message}\n`);
      return RUN_EXIT.failed;
    }
    return record.status === "nothing" ? RUN_EXIT.nothing : RUN_EXIT.done;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
}

export function registerRun(program: Command): void {
  const cmd = program
    .command("run")
    .description(
      "Run a pipeline now: `nightly` = ingest sessions -> retain -> reflect -> commit -> index. " +
        "Takes the workspace lock; writes a run record to .memory/runs/<time>.json.",
    )
    .argument("<pipeline>", "pipeline name (nightly)")
    .option(
      "--sessions <dir>",
      "session transcripts folder (*.jsonl or <agent>/sessions/*.jsonl); default config sessions.dir",
    )
    .option("--full", "read every log, not only those changed since the last completed run")
    .option(
      "--accept-deleted-logs",
      "many daily logs gone since the last run were deleted on purpose: take their facts out of the bank " +
        "(without it the run refuses, as a sync half done looks the same)",
    )
    .option("--wait <seconds>", "wait this long for another run's lock before giving up (default 0)")
    .option("--json", "print the run record as JSON (progress goes to stderr)")
    .addHelpText("after", RUN_EXIT_HELP);
  workspaceOption(cmd);
  cmd.action(async (name: string, flags: RunFlags) => {
    process.exitCode = await runOnce(name, flags);
  });
}
