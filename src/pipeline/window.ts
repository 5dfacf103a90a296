import { isDailyLog, logDate } from "../markdown/log-path.js";
import { workspaceDay } from "../workspace/clock.js";
import { lookAgainForGone, type MemoryFile, type MemoryListing, memoryListing } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { changedAgainst, readFileManifest } from "./manifest.js";
import { lastCompletedRunStart } from "./record.js";

/** Two seconds of slack for coarse file-system clocks. */
const MTIME_SLACK_MS = 2000;

export interface ChangedWindowOptions {
  /** The pipeline whose last completed run and file manifest count ("nightly"). */
  pipeline: string;
  /** This run's record id (not a completed run). */
  runId: string;
  now: Date;
  /** Read everything (`--full`). */
  full?: boolean;
}

export interface IncrementalWindow {
  /** Oldest day whose log changed since the last completed run (undefined: read everything). */
  since?: string;
  /** The daily logs as listed now: the baseline the next run compares with once this one completes. */
  logs: MemoryFile[];
  /** Every memory file as listed now (the one scan of the run: retain reads from it, the index syncs with it). */
  listing: MemoryListing;
}

/**
 * The incremental window: the oldest date among daily logs modified since the last completed
 * run of the pipeline started (a log edited by hand years later is picked up too). Undefined
 * -- a full read -- on the first run or with `full`. Reflect keeps a snapshot of older facts,
 * so an incremental run gives the same bank as a full one.
 */
export async function changedWindow(ws: Workspace, opts: ChangedWindowOptions): Promise<IncrementalWindow> {
  let listing = memoryListing(ws);
  // What the mtime test cannot see: logs restored with old mtimes, new old-dated copies, deleted logs.
  const seen = await readFileManifest(ws, opts.pipeline);
  let logs = listing.files.filter((f) => isDailyLog(f.path));
  let diff = seen && changedAgainst(seen, logs);
  // A log the last run read, missing: an editor saving it by rename this very moment? Looked for again.
  if (seen && diff && diff.gone.length > 0) {
    listing = await lookAgainForGone(ws, listing, diff.gone);
    logs = listing.files.filter((f) => isDailyLog(f.path));
    diff = changedAgainst(seen, logs);
  }
  if (opts.full) return { logs, listing };
  const last = await lastCompletedRunStart(ws, opts.pipeline, opts.runId);
  if (last === undefined) return { logs, listing };
  const changedPaths: string[] = diff ? [...diff.changed, ...diff.gone] : [];
  for (const f of logs) {
    if (f.mtimeMs < last - MTIME_SLACK_MS) continue;
    // A log the manifest holds with this very mtime is unchanged when the clock is fine-grained
    // (sub-second mtimes): an edit after the listing moves it. Only a whole-second mtime (FAT,
    // some network mounts) can hide an edit in the same tick. Without this, logs copied or
    // cloned just before a first run all looked changed to the second, a full re-read.
    const known = seen?.get(f.path);
    if (known && known.mtimeMs === f.mtimeMs && known.size === f.size && f.mtimeMs % 1000 !== 0) continue;
    changedPaths.push(f.path);
  }
  let oldest: string | undefined;
  for (const p of changedPaths) {
    const date = logDate(p);
    if (date !== undefined && (oldest === undefined || date < oldest)) oldest = date;
  }
  // Nothing changed: a window that starts today reads (almost) nothing.
  return { since: oldest ?? workspaceDay(ws, opts.now), logs, listing };
}
