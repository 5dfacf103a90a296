import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { createCachedEmbedder, ensureEmbeddingCache } from "../embed/cache.js";
import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { MembankError } from "../workspace/errors.js";
import { type MemoryFile, type SkippedFile, scanMemoryFiles } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { applyFiles, dailyLogsMayHaveChanged, knownFiles } from "./apply.js";
import {
  type IndexDb,
  indexFile,
  indexIoError,
  inStateDir,
  isDamage,
  type OpenOptions,
  openIndexFile,
  removeIndexFile,
} from "./db.js";
import { embedMissing } from "./embedpass.js";
import { acquireIndex, releaseIndex } from "./handles.js";
import { beginBulkLoad, endBulkLoad, readMeta, SCHEMA_VERSION, writeMeta } from "./schema.js";
import { storedDims } from "./vectors.js";

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
  /** Run PRAGMA quick_check on the existing file first (`membank index` does; searches do not). */
  check?: boolean;
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

function sameEmbedder(stored: string, e: Embedder): boolean {
  try {
    const s = JSON.parse(stored) as { provider?: string; model?: string; dims?: number };
    return s.provider === e.id && s.model === e.model && (e.dims === 0 || s.dims === e.dims);
  } catch {
    return false;
  }
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

interface Counts {
  scanned: number;
  changed: number;
  removed: number;
  diagnostics: number;
  embedded: number;
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
  // The Retain parser pulls in remark; load it only when a daily log needs parsing.
  const known = knownFiles(idx);
  const parseRetain = dailyLogsMayHaveChanged(known, files)
    ? (await import("../retain/index.js")).parseRetain
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
      embedded = await embedMissing(
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

/** Remove temp builds left by processes that died mid-build (a live process's build is left alone). */
function removeStaleBuilds(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.build-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (!Number.isInteger(pid)) continue;
    let alive = pid === process.pid;
    if (!alive) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (error) {
        alive = (error as NodeJS.ErrnoException).code === "EPERM";
      }
    }
    if (!alive) rmSync(path.join(dir, name), { force: true });
  }
}

/** Copy the old file's embedding cache into a new build, so a rebuild does not re-embed unchanged text. */
function carryEmbeddingCache(fresh: IndexDb, oldFile: string): void {
  if (!existsSync(oldFile)) return;
  ensureEmbeddingCache(fresh.db);
  try {
    fresh.db.prepare("ATTACH DATABASE ? AS old").run(oldFile);
    try {
      const has = fresh.db
        .prepare("SELECT 1 FROM old.sqlite_master WHERE type = 'table' AND name = 'embedding_cache'")
        .get();
      if (has) fresh.db.exec("INSERT OR IGNORE INTO main.embedding_cache SELECT * FROM old.embedding_cache");
    } finally {
      fresh.db.exec("DETACH DATABASE old");
    }
  } catch {
    // A damaged old file has no cache worth keeping.
  }
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
    fresh.close();
  } catch (error) {
    fresh.close();
    removeIndexFile(tmp);
    throw error;
  }
  releaseIndex(file);
  renameSync(tmp, file);
  // WAL side files of the old file must not be replayed into the new one.
  for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
  return counts;
}

/**
 * Bring the workspace's index up to date: incremental by file (size+mtime, then hash),
 * deleted files removed, full atomic rebuild when the fingerprint changed or the file
 * is unusable. Chunks without a vector are embedded when an embedder is given.
 */
export async function syncIndex(ws: Workspace, opts: SyncOptions = {}): Promise<SyncReport> {
  const file = indexFile(ws);
  try {
    return await syncAt(file, ws, opts);
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

  let idx = acquireIndex(file, opts.check ? { ...openOpts, check: true } : openOpts);
  if (idx.replaced) warnings.push(`index ${file} was unusable (${idx.replaced}) and was rebuilt`);
  if (choice.embedder && !idx.vec.loaded && idx.vec.error !== "disabled") {
    warnings.push(`sqlite-vec did not load (${idx.vec.error}); vector search uses an in-process cosine scan`);
  }
  let reason = rebuildReason(idx, ws, choice.embedder, opts.full ?? false);
  let counts: Counts & { fallback?: string };
  if (reason === undefined) {
    try {
      counts = await fill(idx, ws, files, choice, opts, warnings);
    } catch (error) {
      if (!isCorruption(error)) throw error;
      reason = `index file damaged (${(error as Error).message})`;
      warnings.push(`index ${file} was damaged (${(error as Error).message}) and was rebuilt`);
      releaseIndex(file);
      removeIndexFile(file);
      counts = await rebuild(file, ws, files, choice, opts, warnings);
    }
  } else {
    counts = await rebuild(file, ws, files, choice, opts, warnings);
  }
  idx = acquireIndex(file, openOpts);
  // Only a sync that changed something writes: a no-change sync (every search does one) stays read-only.
  if (reason !== undefined || counts.changed > 0 || counts.removed > 0 || counts.embedded > 0) {
    writeMeta(idx.db, "synced_at", new Date().toISOString());
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
    ms: Math.round(performance.now() - started),
  };
}
