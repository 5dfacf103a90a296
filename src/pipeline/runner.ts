import { performance } from "node:perf_hooks";
import { describeIoError, MembankError } from "../workspace/errors.js";
import { GIT_BUSY, withRepoMemo } from "../workspace/git.js";
import { acquireWorkspaceLock } from "../workspace/lock.js";
import { removeRecordedTempFiles } from "../workspace/owned.js";
import type { Workspace } from "../workspace/workspace.js";
import { holdYoungGeneration, releaseGarbage } from "./memory.js";
import { markInterruptedRuns, pruneRunRecords, runId, writeRunRecord } from "./record.js";
import type { PipelineDefinition, RunOptions, RunRecord, StepContext, StepRecord } from "./types.js";

/** A step's failure in words a user can act on (a full disk names the file it was writing). */
function errorMessage(error: unknown): string {
  if (error instanceof MembankError) return error.message;
  const io = describeIoError(error);
  if (io !== undefined) return io;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Run a pipeline under the workspace lock: each step in order, timed; the first failure stops
 * the run (later steps never see half-done input) and is recorded with its message; SIGTERM
 * (via `signal`) lets the current step finish and skips the rest. The run record in
 * `.memory/runs/` is rewritten atomically after every step, so even a killed run leaves a
 * record of how far it got. Throws only when the lock is held (MembankError, exit code 4).
 * The steps share one lookup of the workspace's repository (withRepoMemo).
 */
export function executePipeline<S>(
  ws: Workspace,
  def: PipelineDefinition<S>,
  options: RunOptions = {},
): Promise<RunRecord> {
  return withRepoMemo(() => runLocked(ws, def, options));
}

async function runLocked<S>(ws: Workspace, def: PipelineDefinition<S>, options: RunOptions): Promise<RunRecord> {
  const log = options.log ?? (() => {});
  const lock = await acquireWorkspaceLock(ws, {
    waitMs: options.lockWaitMs ?? 0,
    purpose: options.purpose ?? `run ${def.name}`,
    onStaleRecovered: (owner) =>
      log(`recovered a stale workspace lock left by pid ${owner?.pid ?? "?"} (${owner?.purpose ?? "unknown"})`),
  });
  const start = new Date();
  const t0 = performance.now();
  const record: RunRecord = {
    version: 1,
    id: runId(start),
    pipeline: def.name,
    workspace: ws.root,
    pid: process.pid,
    startedAt: start.toISOString(),
    status: "running",
    steps: def.steps.map((s): StepRecord => ({ name: s.name, status: "pending" })),
    written: [],
  };
  let state: S | undefined;
  const releaseYoung = holdYoungGeneration();
  try {
    const leftovers = await removeRecordedTempFiles(ws);
    if (leftovers.length > 0)
      log(`removed ${leftovers.length} temp file(s) left by an interrupted write: ${leftovers.join(", ")}`);
    const interrupted = await markInterruptedRuns(ws, record.id);
    if (interrupted > 0) log(`marked ${interrupted} earlier run(s) that never finished as interrupted`);
    await writeRunRecord(ws, record);
    state = def.createState(ws, options);
    const signal = options.signal ?? new AbortController().signal;
    const ctx: StepContext<S> = {
      ws,
      state,
      options,
      signal,
      log,
      now: options.now ?? start,
      runId: record.id,
      get written() {
        return record.written;
      },
    };
    let changed = false;
    if (def.preflight) {
      try {
        await def.preflight(ctx);
      } catch (error) {
        record.status = (error as MembankError).code === GIT_BUSY ? "blocked" : "failed";
        record.error = { step: "preflight", message: errorMessage(error) };
        log(`not started: ${record.error.message}`);
      }
    }
    for (const [i, step] of def.steps.entries()) {
      if (record.status !== "running") break;
      const rec = record.steps[i] as StepRecord;
      if (signal.aborted) {
        record.status = "aborted";
        record.error = {
          step: step.name,
          message: `stopped before step "${step.name}" (${String(signal.reason ?? "aborted")})`,
        };
        break;
      }
      if (lock.compromised) {
        record.status = "failed";
        record.error = {
          step: step.name,
          message: "the workspace lock was lost (removed or not refreshed in time); stopping",
        };
        break;
      }
      // The last step's garbage goes before this step allocates (peak RSS: one step's, not two).
      if (i > 0) releaseGarbage();
      rec.status = "running";
      rec.startedAt = new Date().toISOString();
      // Not fsynced: a kill still leaves this note (how far the run got); only a power loss
      // can take it, and then the run's first record says it started (two fsyncs a step).
      await writeRunRecord(ws, record, { durable: false });
      log(`[${i + 1}/${def.steps.length}] ${step.name}: ${step.description}`);
      const s0 = performance.now();
      try {
        const outcome = (await step.run(ctx)) ?? {};
        rec.durationMs = Math.round(performance.now() - s0);
        rec.status = "ok";
        if (outcome.counts) rec.counts = outcome.counts;
        if (outcome.notes?.length) rec.notes = outcome.notes;
        const written = [...new Set(outcome.written ?? [])].sort();
        if (written.length) rec.written = written;
        record.written = [...new Set([...record.written, ...written])].sort();
        if (outcome.commit) record.commit = outcome.commit;
        if (outcome.changed || written.length > 0 || outcome.commit) changed = true;
        const counts = Object.entries(outcome.counts ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(" ");
        log(`[${i + 1}/${def.steps.length}] ${step.name} ok in ${rec.durationMs} ms${counts ? ` (${counts})` : ""}`);
        for (const note of rec.notes ?? []) log(`    ${note}`);
      } catch (error) {
        rec.durationMs = Math.round(performance.now() - s0);
        rec.status = "failed";
        rec.error = errorMessage(error);
        // A busy repository (merge, rebase...) is not a failure of membank's: its own exit code.
        record.status = (error as MembankError).code === GIT_BUSY ? "blocked" : "failed";
        record.error = { step: step.name, message: `step "${step.name}" failed: ${rec.error}` };
        log(`[${i + 1}/${def.steps.length}] ${step.name} FAILED after ${rec.durationMs} ms: ${rec.error}`);
        break;
      }
    }
    for (const s of record.steps) if (s.status === "pending") s.status = "skipped";
    if (record.status === "running") record.status = changed ? "done" : "nothing";
    record.finishedAt = new Date().toISOString();
    record.durationMs = Math.round(performance.now() - t0);
    if (def.summarize) record.summary = def.summarize(state, record);
    await writeRunRecord(ws, record);
    await pruneRunRecords(ws);
    return record;
  } finally {
    releaseYoung();
    if (state !== undefined && def.dispose) await def.dispose(state).catch(() => undefined);
    await lock.release();
  }
}
