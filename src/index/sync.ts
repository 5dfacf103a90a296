import path from "node:path";
import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { errorCode, MembankError } from "../workspace/errors.js";
import { type MemoryFile, type SkippedFile, scanMemoryFiles } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import {
  applyFiles,
  dailyLogsMayHaveChanged,
  type KnownFiles,
  knownFiles,
  needsReading,
  type RetainParser,
} from "./apply.js";
import { type BuildLock, tryBuildLock, waitForBuild } from "./buildlock.js";
import {
  BUSY_TIMEOUT_MS,
  type IndexDb,
  indexFile,
  indexIoError,
  inStateDir,
  isDamage,
  type OpenOptions,
  openIndexFile,
  removeIndexFile,
} from "./db.js";
import { createCachedEmbedder } from "./embedding-cache.js";
import { embedChunks, sameEmbedder } from "./embedpass.js";
import { acquireIndex, forgetIndex, releaseIndex } from "./handles.js";
import { beginBulkLoad, endBulkLoad, readMeta, SCHEMA_VERSION, writeMeta } from "./schema.js";
import { carryEmbeddingCache, isBusy, removeStaleBuilds, swapIn } from "./swap.js";
import { clearSyncing, crashedBefore, markSyncing } from "./sync-marker.js";
import { storedDims } from "./vectors.js";

export { isBusy } from "./swap.js";

export type SyncPhase = "files" | "embed";

export interface SyncOptions {
  /** Rebuild from scratch (into a new file, swapped in atomically). */
  full?: boolean;
  /** The embedder to fill vectors with; without one the index is BM25 only (existing vectors are kept). */
  embedder?: EmbedderChoice;
  onProgress?: (done: number, total: number, phase: SyncPhase) => void;
  /** Test/diagnostic switches: disable FTS5 (vector-only) or sqlite-vec (JS cosine fallback). */
  fts?: boolean;
  vec?: boolean;
  /**
   * Run PRAGMA quick_check on the existing file first (`membank index --full` does). It also
   * runs, without this, when a sync of an earlier process died midway (its marker is left).
   */
  check?: boolean;
  /**
   * A read path's sync (search, recall, get): never wait long on another writer. When
   * another process is writing or rebuilding the index, answer from its last committed
   * state and say so in `busy`, instead of waiting (or failing with "database is locked").
   */
  reader?: boolean;
  /** The Retain parser for changed logs (default parseRetain); the nightly hands its retain step's parseMemo. */
  parseRetain?: RetainParser;
}

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

const NO_EMBEDDER: EmbedderChoice = { embedder: null, provider: "none" };

/** What the chunks depend on: when it changes, every chunk is rebuilt. */
export function contentFingerprint(ws: Workspace, fts: boolean): string {
  const { chunkTokens, chunkOverlap } = ws.config.index;
  return JSON.stringify({ schema: SCHEMA_VERSION, chunkTokens, chunkOverlap, fts });
}

/** What the vectors depend on. `dims` may be 0 for a remote provider that has not answered yet. */
export function embedderFingerprint(e: Embedder, dims = e.dims): string {
  return JSON.stringify({ provider: e.id, model: e.model, dims });
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

interface Counts {
  scanned: number;
  changed: number;
  removed: number;
  diagnostics: number;
  embedded: number;
}

/** Will this sync write? (An embedder may fill vectors; a file is new, gone, or its size/mtime changed.) */
function mayWrite(known: KnownFiles, files: MemoryFile[], choice: EmbedderChoice): boolean {
  if (choice.embedder || known.size !== files.length) return true;
  return files.some((f) => needsReading(known.get(f.path), f));
}

async function fill(
  idx: IndexDb,
  ws: Workspace,
  files: MemoryFile[],
  choice: EmbedderChoice,
  opts: SyncOptions,
  warnings: string[],
  bulk = false,
): Promise<Counts & { fallback?: string }> {
  const known = knownFiles(idx);
  const done = !bulk && mayWrite(known, files, choice) ? markSyncing(idx.file) : undefined;
  try {
    return await fillKnown(idx, ws, files, choice, opts, warnings, bulk, known);
  } finally {
    done?.();
  }
}

async function fillKnown(
  idx: IndexDb,
  ws: Workspace,
  files: MemoryFile[],
  choice: EmbedderChoice,
  opts: SyncOptions,
  warnings: string[],
  bulk: boolean,
  known: KnownFiles,
): Promise<Counts & { fallback?: string }> {
  // The Retain parser pulls in remark; load it only when a daily log needs parsing.
  const parseRetain = dailyLogsMayHaveChanged(known, files)
    ? (opts.parseRetain ?? (await import("../retain/index.js")).parseRetain)
    : undefined;
  if (bulk && idx.fts) beginBulkLoad(idx.db);
  const applied = applyFiles(idx, files, {
    known,
    parseRetain,
    chunk: { tokens: ws.config.index.chunkTokens, overlap: ws.config.index.chunkOverlap },
    defaultConfidence: ws.config.retain.defaultConfidence,
    onProgress: opts.onProgress ? (d, t) => opts.onProgress!(d, t, "files") : undefined,
  });
  if (bulk && idx.fts) endBulkLoad(idx.db);
  warnings.push(...applied.skipped.map((s) => `not indexed: ${s}`));
  let embedded = 0;
  let fallback: string | undefined;
  if (choice.embedder) {
    const batchSize = ws.config.embedding.batchSize;
    // The embedding cache lives in the index file, keyed by content: unchanged text is never embedded twice.
    const cached = createCachedEmbedder(choice.embedder, idx.db, { batchSize });
    try {
      embedded = await embedChunks(
        idx,
        cached,
        batchSize,
        opts.onProgress ? (d, t) => opts.onProgress!(d, t, "embed") : undefined,
      );
    } catch (error) {
      const message = `embedding with ${choice.provider} failed: ${(error as Error).message}`;
      if (ws.config.embedding.fallback === "error") throw new MembankError(message, { code: "EEMBED", cause: error });
      fallback = `${message}; chunks without vectors are found by BM25 only until the next sync`;
      warnings.push(fallback);
    }
    writeMeta(idx.db, "embedder", embedderFingerprint(choice.embedder, storedDims(idx) ?? choice.embedder.dims));
  }
  return { ...applied, embedded, fallback };
}

/**
 * Build the whole index into a temp file beside the real one and rename it over the
 * old file, so a concurrent search sees the old index or the new one, never half of one.
 */
async function rebuild(
  file: string,
  ws: Workspace,
  files: MemoryFile[],
  choice: EmbedderChoice,
  opts: SyncOptions,
  warnings: string[],
): Promise<Counts & { fallback?: string }> {
  const tmp = `${file}.build-${process.pid}`;
  removeStaleBuilds(file);
  removeIndexFile(tmp);
  const fresh = openIndexFile(tmp, { build: true, fts: opts.fts, vec: opts.vec, owned: true });
  let counts: Counts & { fallback?: string };
  try {
    writeMeta(fresh.db, "fingerprint", contentFingerprint(ws, fresh.fts));
    writeMeta(fresh.db, "built_at", new Date().toISOString());
    if (choice.embedder) carryEmbeddingCache(fresh, file);
    counts = await fill(fresh, ws, files, choice, opts, warnings, true);
    // Readers open it in WAL mode: switching later would need an exclusive lock.
    fresh.db.pragma("journal_mode = WAL");
    fresh.close();
  } catch (error) {
    fresh.close();
    removeIndexFile(tmp);
    throw error;
  }
  releaseIndex(file);
  await swapIn(tmp, file);
  // recall's line store was a second file before schema 7; its tables are in the index now.
  removeIndexFile(path.join(stateDir(ws), "recall-lines.sqlite"));
  return counts;
}

const NOTHING: Counts = { scanned: 0, changed: 0, removed: 0, diagnostics: 0, embedded: 0 };

/** An incremental sync; a reader's waits on another writer's transaction are short. */
async function incremental(
  idx: IndexDb,
  ws: Workspace,
  files: MemoryFile[],
  choice: EmbedderChoice,
  opts: SyncOptions,
  warnings: string[],
): Promise<Counts & { fallback?: string }> {
  if (!opts.reader) return fill(idx, ws, files, choice, opts, warnings);
  idx.db.pragma(`busy_timeout = ${READER_BUSY_MS}`);
  try {
    return await fill(idx, ws, files, choice, opts, warnings);
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
  const skipped: SkippedFile[] = [];
  const files = scanMemoryFiles(ws, { skipped });
  for (const s of skipped) warnings.push(`${s.path}: not indexed: ${s.reason}`);

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
      counts = await rebuild(file, ws, files, choice, opts, warnings);
    } else if (!skip) {
      try {
        counts = await incremental(idx, ws, files, choice, opts, warnings);
      } catch (error) {
        if (opts.reader && isBusy(error)) {
          busy = "another process is writing the index; answered from its last committed state";
        } else if (isCorruption(error)) {
          reason = `index file damaged (${(error as Error).message})`;
          warnings.push(`index ${file} was damaged (${(error as Error).message}) and was rebuilt`);
          lock = await takeBuildLock(file);
          releaseIndex(file);
          removeIndexFile(file);
          counts = await rebuild(file, ws, files, choice, opts, warnings);
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
