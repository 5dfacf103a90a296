import cron, { type ScheduledTask } from "node-cron";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";
import { executePipeline } from "./runner.js";
import type { PipelineDefinition, RunOptions, RunRecord } from "./types.js";

export interface SchedulerOptions extends Omit<RunOptions, "signal"> {
  /** Cron expression (5 fields, or 6 with seconds). */
  cron: string;
  /** IANA time zone of the cron expression; default the machine's. */
  tz?: string;
  /** After each run (record), or when a run could not start (error: e.g. the lock is held). */
  onRun?: (record: RunRecord | undefined, error?: unknown) => void;
}

export interface Scheduler {
  /** Runs started so far (including ones that could not take the lock). */
  readonly started: number;
  /** Is a run going on now? */
  readonly busy: boolean;
  /** Stop scheduling; abort the current run between steps and wait for it to end. */
  stop(reason?: string): Promise<void>;
  /** Resolves when the current run (if any) ends. */
  idle(): Promise<void>;
}

/**
 * Run a pipeline on a cron schedule in this process. A tick that comes while the previous run
 * is still going is skipped (never two runs at once here; across processes the workspace lock
 * does the same). stop() lets the current step finish, skips the rest, and resolves after.
 */
export function startScheduler<S>(ws: Workspace, def: PipelineDefinition<S>, opts: SchedulerOptions): Scheduler {
  if (!cron.validate(opts.cron)) {
    throw new MembankError(
      `Invalid cron expression ${JSON.stringify(opts.cron)} (e.g. "0 3 * * *": 03:00 every day).`,
      {
        code: "ECRON",
        exitCode: 2,
      },
    );
  }
  if (opts.tz) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: opts.tz });
    } catch {
      throw new MembankError(`Unknown time zone ${JSON.stringify(opts.tz)} (use an IANA name like Europe/Berlin).`, {
        code: "ECRON",
        exitCode: 2,
      });
    }
  }
  const abort = new AbortController();
  let current: Promise<void> | undefined;
  let started = 0;
  let stopped = false;
  const tick = () => {
    if (current || stopped) {
      opts.log?.("previous run still going: this tick is skipped");
      return;
    }
    started++;
    const { cron: _c, tz: _t, onRun, ...runOpts } = opts;
    current = executePipeline(ws, def, { ...runOpts, signal: abort.signal })
      .then(
        (record) => onRun?.(record),
        (error) => onRun?.(undefined, error),
      )
      .finally(() => {
        current = undefined;
      });
  };
  const task: ScheduledTask = cron.schedule(opts.cron, tick, {
    ...(opts.tz ? { timezone: opts.tz } : {}),
    name: `membank-${def.name}`,
    noOverlap: true,
  });
  return {
    get started() {
      return started;
    },
    get busy() {
      return current !== undefined;
    },
    async idle() {
      await current;
    },
    async stop(reason = "stopped") {
      stopped = true;
      await task.stop();
      await task.destroy();
      abort.abort(reason);
      await current;
    },
  };
}
