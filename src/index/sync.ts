import type { Embedder } from "../embed/types.js";
import { errorCode, MembankError } from "../workspace/errors.js";
import { evictedPaths, type SkippedFile, scanMemoryFiles } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { type BuildLock, tryBuildLock, waitForBuild } from "./buildlock.js";
import {
  BUSY_TIMEOUT_MS,
  type IndexDb,
  indexFile,
  indexIoError,
  inStateDir,
  isDamage,
  type OpenOptions,
  removeIndexFile,
} from "./db.js";
import { sameEmbedder } from "./embedpass.js";
import { acquireIndex, forgetIndex, releaseIndex } from "./handles.js";
import { readMeta, writeMeta } from "./schema.js";
import { isBusy } from "./swap.js";
import {
  type Counts,
  contentFingerprint,
  type FillJob,
  fill,
  NO_EMBEDDER,
  rebuild,
  type SyncOptions,
} from "./sync-fill.js";
import { clearSyncing, crashedBefore } from "./sync-marker.js";

export { isBusy } from "./swap.js";
export {
  contentFingerprint,
  embedderFingerprint,
  type SyncOptions,
  type SyncPhase,
} from "./sync-fill.js";

export interface SyncReport {
  /** Absolute path of the index file. */
  index: string;
  /** True when the index was built from scratch; `reason` says why. */
  rebuilt: boolean;
  reason?: string;
  scanned: number;
  changed: number;
  removed: number;
  /** Totals in the index after the sync. */
  chunks: number;
  facts: number;
  /** Chunks embedded by this sync. */
  embedded: number;
  /** Retain lines in changed files that did not parse (see `membank facts` for details). */
  diagnostics: number;
  provider: string;
  model?: string;
  fallback?: string;
  /** Things the user should know (sqlite-vec missing, a provider failure, a replaced corrupt file). */
  warnings: string[];
  /** Set when a reader's sync skipped writing because another process was writing the index. */
  busy?: string;
  ms: number;
}

function rebuildReason(idx: IndexDb, ws: Workspace, embedder: Embedder | null, full: boolean): string | undefined {
  if (full) return "full rebuild requested";
  const stored = readMeta(idx.db, "fingerprint");
  if (stored === undefined) return "new index";
  if (stored !== contentFingerprint(ws, idx.fts)) return "schema or chunk parameters changed";
  if (embedder) {
    const storedEmb = readMeta(idx.db, "embedder");
    const hasVectors = idx.db.prepare("SELECT 1 FROM chunk_vectors LIMIT 1").get() !== undefined;
    if (storedEmb !== undefined ? !sameEmbedder(storedEmb, embedder) : hasVectors) {
      return "embedding provider, model or dims changed";
    }
  }
  return undefined;
}

/**
 * How many chunks a sync with this embedder would embed: those without a vector, or
 * every chunk when the index would be rebuilt first (no index yet, another model's
 * vectors, new chunking). Read-only: lets a caller answer from BM25 now and embed later.
 */
export function pendingVectors(ws: Workspace, embedder: Embedder): number {
  const idx = acquireIndex(indexFile(ws));
  const all = idx.db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number };
  if (rebuildReason(idx, ws, embedder, false) !== undefined) return Math.max(1, all.n);
  const missing = idx.db
    .prepare("SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id)")
    .get() as { n: number };
  return missing.n;
}

/**
 * Is this a SQLite error that means the file is damaged (rebuild it) rather than a bug?
 * A full disk or a read-only folder is not damage: rebuilding would delete a good index.
 */
export function isCorruption(error: unknown): boolean {
  return isDamage(error);
}

/** How long a reader's sync waits for another writer's transaction before answering without it. */
const READER_BUSY_MS = 200;
/** How long a reader waits for another process's first build of the index. */
const READER_BUILD_WAIT_MS = 60_000;
/** How long a writer (index, nightly, watch) waits for another process's build. */
const WRITER_BUILD_WAIT_MS = 10 * 60_000;

const NOTHING: Counts = { scanned: 0, changed: 0, removed: 0, diagnostics: 0, embedded: 0 };

/** An incremental sync; a reader's waits on another writer's transaction are short. */
async function incremental(job: FillJob): Promise<Counts & { fallback?: string }> {
  const { idx, opts } = job;
  if (!opts.reader) return fill(job);
  idx.db.pragma(`busy_timeout = ${READER_BUSY_MS}`);
  try {
    return await fill(job);
  } finally {
    if (idx.db.open) idx.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** The build lock, waiting for another holder (a damaged file found by two processes at once). */
async function takeBuildLock(file: string): Promise<BuildLock> {
  for (;;) {
    const got = tryBuildLock(file);
    if (!("heldBy" in got)) return got;
    if (!(await waitForBuild(file, WRITER_BUILD_WAIT_MS)))
      throw new MembankError(`the index ${file} is being built by pid ${got.heldBy}; try again when it is done`, {
        code: "EBUSY",
      });
  }
}

/**
 * Bring the workspace's index up to date: incremental by file (size+mtime, then hash),
 * deleted files removed, full atomic rebuild when the fingerprint changed or the file
 * is unusable. Chunks without a vector are embedded when an embedder is given.
 */
export async function syncIndex(ws: Workspace, opts: SyncOptions = {}): Promise<SyncReport> {
  const file = indexFile(ws);
  try {
    try {
      return await syncAt(file, ws, opts);
    } catch (error) {
      // Another process renamed a rebuilt index over the file this handle had open: the
      // old file is gone, so open the new one and sync that.
      if (errorCode(error) !== "SQLITE_READONLY_DBMOVED") throw error;
      forgetIndex(file);
      return await syncAt(file, ws, opts);
    }
  } catch (error) {
    // A full disk or a read-only folder: one line naming the file, not a stack.
    throw indexIoError(error, file);
  }
}

async function syncAt(file: string, ws: Workspace, opts: SyncOptions): Promise<SyncReport> {
  const started = performance.now();
  const choice = opts.embedder ?? NO_EMBEDDER;
  const warnings: string[] = [];
  const openOpts: OpenOptions = { fts: opts.fts, vec: opts.vec, owned: inStateDir(ws, file) };
  const skipped: SkippedFile[] = opts.listing ? [...opts.listing.skipped] : [];
  const files = opts.listing?.files ?? scanMemoryFiles(ws, { skipped });
  // A log evicted to the cloud is not deleted: the index keeps what it read there before.
  const keep = evictedPaths(skipped);
  for (const s of skipped)
    warnings.push(
      keep.has(s.path)
        ? `${s.path} ${s.reason}; the index keeps what it read there before`
        : `${s.path}: not indexed: ${s.reason}`,
    );
  const job = { ws, files, choice, opts, warnings, keep };

  const crashed = crashedBefore(file);
  let idx = acquireIndex(file, opts.check || crashed ? { ...openOpts, check: true } : openOpts);
  // Checked (and replaced if damaged): the dead sync's marker has done its job.
  if (crashed) clearSyncing(file);
  if (idx.replaced) warnings.push(`index ${file} was unusable (${idx.replaced}) and was rebuilt`);
  if (choice.embedder && !idx.vec.loaded && idx.vec.error !== "disabled") {
    warnings.push(`sqlite-vec did not load (${idx.vec.error}); vector search uses an in-process cosine scan`);
  }
  let reason = rebuildReason(idx, ws, choice.embedder, opts.full ?? false);
  let counts: Counts & { fallback?: string } = NOTHING;
  let busy: string | undefined;
  // A rebuild happens once: under the build lock. Whoever finds it held waits for the
  // other build and uses it (a reader with a complete previous index answers from that).
  let lock: BuildLock | undefined;
  let skip = false;
  while (reason !== undefined && lock === undefined) {
    const got = tryBuildLock(file);
    if (!("heldBy" in got)) {
      // Another process may have finished the same build between our look and the lock.
      idx = acquireIndex(file, openOpts);
      reason = rebuildReason(idx, ws, choice.embedder, opts.full ?? false);
      if (reason === undefined) got.release();
      else lock = got;
      break;
    }
    const previous = readMeta(idx.db, "fingerprint") !== undefined;
    if (opts.reader && previous) {
      busy = `the index is being rebuilt by pid ${got.heldBy} (${reason}); answered from the previous index`;
      reason = undefined;
      skip = true;
      break;
    }
    const waited = await waitForBuild(file, opts.reader ? READER_BUILD_WAIT_MS : WRITER_BUILD_WAIT_MS);
    if (!waited) {
      throw new MembankError(
        `the index ${file} is being built by pid ${got.heldBy} and did not finish in time; try again when it is done`,
        { code: "EBUSY" },
      );
    }
    if (opts.reader) busy = `waited for pid ${got.heldBy} to build the index`;
    idx = acquireIndex(file, openOpts);
    // The other build may have done exactly what was needed (a --full run still rebuilds).
    reason = rebuildReason(idx, ws, choice.embedder, opts.full ?? false);
  }
  try {
    if (lock !== undefined) {
      counts = await rebuild(file, job);
    } else if (!skip) {
      try {
        counts = await incremental({ ...job, idx });
      } catch (error) {
        if (opts.reader && isBusy(error)) {
          busy = "another process is writing the index; answered from its last committed state";
        } else if (isCorruption(error)) {
          reason = `index file damaged (${(error as Error).message})`;
          warnings.push(`index ${file} was damaged (${(error as Error).message}) and was rebuilt`);
          lock = await takeBuildLock(file);
          releaseIndex(file);
          removeIndexFile(file);
          counts = await rebuild(file, job);
        } else {
          throw error;
        }
      }
    }
  } finally {
    lock?.release();
  }
  idx = acquireIndex(file, openOpts);
  // Only a sync that changed something writes: a no-change sync (every search does one) stays read-only.
  if (reason !== undefined || counts.changed > 0 || counts.removed > 0 || counts.embedded > 0) {
    try {
      writeMeta(idx.db, "synced_at", new Date().toISOString());
    } catch (error) {
      // A bookkeeping stamp: a reader does not wait for another writer to set it.
      if (!(opts.reader && isBusy(error))) throw error;
    }
  }
  const totals = idx.db
    .prepare("SELECT (SELECT count(*) FROM chunks) AS chunks, (SELECT count(*) FROM facts) AS facts")
    .get() as { chunks: number; facts: number };
  const fallback = [choice.fallback, counts.fallback].filter(Boolean).join("; ") || undefined;
  return {
    index: file,
    rebuilt: reason !== undefined,
    ...(reason !== undefined ? { reason } : {}),
    scanned: counts.scanned,
    changed: counts.changed,
    removed: counts.removed,
    chunks: totals.chunks,
    facts: totals.facts,
    embedded: counts.embedded,
    diagnostics: counts.diagnostics,
    provider: choice.provider,
    ...(choice.model !== undefined ? { model: choice.model } : {}),
    ...(fallback !== undefined ? { fallback } : {}),
    warnings,
    ...(busy !== undefined ? { busy } : {}),
    ms: Math.round(performance.now() - started),
  };
}
