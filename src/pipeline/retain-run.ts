import { type ExtractPastReport, extractFromPastLogs } from "../llm/past-logs.js";
import type { LlmServices } from "../llm/types.js";
import { assertNoLostLogs } from "../reflect/checkout.js";
import { lostNow } from "../reflect/load.js";
import { parseMemo, type SectionParser } from "../retain/memo.js";
import { noRetainNote } from "../retain/no-retain.js";
import { type LogInput, readFacts } from "../retain/read.js";
import type { LogsRead } from "../retain/types.js";
import { workspaceDay } from "../workspace/clock.js";
import type { Workspace } from "../workspace/workspace.js";
import { readFileManifest } from "./manifest.js";
import { changedWindow, type IncrementalWindow } from "./window.js";

export interface RetainRunOptions {
  llm: LlmServices;
  now: Date;
  /** The pipeline and run whose last completed run sets the window (see changedWindow). */
  pipeline: string;
  runId: string;
  full?: boolean;
  /** A progress line at most every 10 s while the LLM extracts facts. */
  log?: (line: string) => void;
}

export interface RetainRun {
  /** With an LLM: the past logs that got an extracted Retain section first. */
  extracted?: ExtractPastReport;
  window: IncrementalWindow;
  /** The facts of the window's logs (with the texts read, for reflect). */
  read: LogsRead & { logs: LogInput[] };
  /** The parses behind `read`, for the index to reuse (each changed log parsed once). */
  parse: SectionParser;
  /** Logs with no Retain section give no facts: which, or what to do (never skipped silently). */
  noRetainNote?: string;
}

/**
 * A run's retain step: with an LLM, past logs without a Retain section get an extracted one
 * (append-only, only when the file did not change meanwhile), so their facts count tonight;
 * then the logs changed since the last completed run are read and parsed once.
 */
export async function retainForRun(ws: Workspace, opts: RetainRunOptions): Promise<RetainRun> {
  const { llm } = opts;
  let extracted: ExtractPastReport | undefined;
  if (llm.extractFacts) {
    let lastReport = Date.now();
    extracted = await extractFromPastLogs(ws, llm, {
      before: workspaceDay(ws, opts.now),
      onProgress: (done, total) => {
        if (Date.now() - lastReport < 10_000) return;
        lastReport = Date.now();
        opts.log?.(`extracting facts with ${llm.provider}: ${done}/${total} logs`);
      },
    });
  }
  const window = await changedWindow(ws, {
    pipeline: opts.pipeline,
    runId: opts.runId,
    now: opts.now,
    ...(opts.full ? { full: true } : {}),
  });
  const parse = parseMemo();
  const read = await readFacts(ws, {
    ...(window.since === undefined ? {} : { since: window.since }),
    parse,
    files: window.listing.files,
    skipped: window.listing.skipped,
  });
  // A log that could not be read is left out of the baseline, so the next run reads it
  // again: once its permissions are fixed (its mtime unchanged), its facts still come in.
  const unread = new Set(read.logs.filter((l) => l.unread).map((l) => l.path));
  if (unread.size > 0) {
    window.logs = window.logs.filter((f) => !unread.has(f.path));
    await refuseLostLogs(ws, opts.pipeline, read.logs);
  }
  const note = noRetainNote(read.noRetain, read.files, { llm: llm.extractFacts !== undefined });
  return {
    ...(extracted ? { extracted } : {}),
    window,
    read,
    parse,
    ...(note === undefined ? {} : { noRetainNote: note }),
  };
}

/** The lost-log refusal of reflect (checkout.ts), with the logs the nightly's last run read as "seen". */
async function refuseLostLogs(ws: Workspace, pipeline: string, logs: readonly LogInput[]): Promise<void> {
  const seen = await readFileManifest(ws, pipeline);
  assertNoLostLogs(lostNow(logs), seen);
}
