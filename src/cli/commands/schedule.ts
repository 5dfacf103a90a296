import type { Command } from "commander";
import { MembankError } from "../../workspace/errors.js";
import { NIGHTLY_CRON } from "../../workspace/schedule-default.js";
import { loadWorkspace, workspaceOption } from "../shared.js";
import { RUN_EXIT_HELP, runOnce } from "./run.js";

interface ScheduleFlags {
  workspace?: string;
  cron?: string;
  tz?: string;
  once?: boolean;
  sessions?: string;
  json?: boolean;
  pipeline?: string;
  full?: boolean;
  wait?: string;
}

export function registerSchedule(program: Command): void {
  const cmd = program
    .command("schedule")
    .description(
      "Run the nightly pipeline on a cron schedule in this long-lived process (never two runs at once, " +
        "also across processes via .memory/lock). --once runs it now and exits (for system cron or a " +
        "systemd timer). SIGTERM lets the current step finish, skips the rest and exits.",
    )
    .option("--cron <expr>", `cron expression (default config schedule.cron, "${NIGHTLY_CRON}")`)
    .option("--tz <zone>", "IANA time zone of the cron expression (default config schedule.tz, else the machine's)")
    .option("--once", "run the pipeline once now and exit")
    .option("--sessions <dir>", "session transcripts folder; default config sessions.dir")
    .option("--full", "with --once: read every log, not only those changed since the last completed run")
    .option("--wait <seconds>", "wait this long for another run's lock (default: 0 with --once, 60 for scheduled runs)")
    .option("--pipeline <name>", "pipeline to run", "nightly")
    .option("--json", "with --once: print the run record as JSON; otherwise one JSON line per run")
    .addHelpText(
      "after",
      `${RUN_EXIT_HELP}\n  (a long-lived scheduler exits 0 on SIGTERM, 2 on a bad cron expression)`,
    );
  workspaceOption(cmd);
  cmd.action(async (flags: ScheduleFlags) => {
    const name = flags.pipeline ?? "nightly";
    if (flags.once) {
      process.exitCode = await runOnce(name, flags);
      return;
    }
    const ws = await loadWorkspace(flags);
    const { startScheduler } = await import("../../pipeline/scheduler.js");
    const { cliPipeline } = await import("../pipelines.js");
    const expr = flags.cron ?? ws.config.schedule.cron;
    const tz = flags.tz ?? ws.config.schedule.tz;
    const stamp = () => new Date().toISOString();
    const log = (line: string) => process.stdout.write(`${stamp()} ${line}\n`);
    const scheduler = startScheduler(ws, cliPipeline(name), {
      cron: expr,
      ...(tz ? { tz } : {}),
      ...(flags.sessions !== undefined ? { sessionsDir: flags.sessions } : {}),
      purpose: `schedule ${name}`,
      // A manual run holding the lock at the scheduled minute delays tonight's run; it does not skip it.
      lockWaitMs: (flags.wait === undefined ? 60 : Math.max(0, Number(flags.wait) || 0)) * 1000,
      log,
      onRun: (record, error) => {
        if (error) {
          // A held lock is a skipped night, not a reason to stop scheduling.
          log(`run not started: ${error instanceof MembankError ? error.message : String(error)}`);
          return;
        }
        if (!record) return;
        if (flags.json) process.stdout.write(`${JSON.stringify(record)}\n`);
        else for (const line of record.summary ?? [`run: ${record.status}`]) log(line);
      },
    });
    log(`membank schedule: ${name} on "${expr}"${tz ? ` (${tz})` : ""} for ${ws.root}; SIGTERM to stop`);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (sig: NodeJS.Signals) => {
        if (stopping) process.exit(130);
        stopping = true;
        log(`${sig}: ${scheduler.busy ? "finishing the current step, then stopping" : "stopping"}`);
        void scheduler.stop(sig).then(resolve);
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    });
    process.exitCode = 0;
  });
}
