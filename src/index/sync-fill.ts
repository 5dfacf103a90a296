/**
 * The writing half of an index sync: fill an open index from the memory files (incremental
 * by file, or a bulk load into a fresh file) and the full rebuild into a temp file that is
 * swapped in. sync.ts decides which one runs (fingerprints, locks, damage, readers).
 */
import path from "node:path";
import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { PAGE_NAME_RULES } from "../markdown/pages.js";
import { USER_PROFILE_RULES } from "../markdown/user-profile.js";
import { MembankError } from "../workspace/errors.js";
import type { MemoryFile, MemoryListing } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import {
  applyFiles,
  dailyLogsMayHaveChanged,
  type KnownFiles,
  knownFiles,
  needsReading,
  type RetainParser,
  readRecentFiles,
} from "./apply.js";
import { type IndexDb, openIndexFile, removeIndexFile } from "./db.js";
import { createCachedEmbedder } from "./embedding-cache.js";
import { embedChunks } from "./embedpass.js";
import { forgetIndex } from "./handles.js";
import { beginBulkLoad, endBulkLoad, SCHEMA_VERSION, writeMeta } from "./schema.js";
import { carryEmbeddingCache, removeStaleBuilds, swapIn } from "./swap.js";
import { markSyncing } from "./sync-marker.js";
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
  /**
   * The memory files as the caller listed them (memoryListing, brought up to date with
   * relistMemoryFiles); default a new scan. The nightly lists once for all its steps.
   */
  listing?: MemoryListing;
}

/** What the chunks depend on: when it changes, every chunk is rebuilt. */
export function contentFingerprint(ws: Workspace, fts: boolean): string {
  const { chunkTokens, chunkOverlap } = ws.config.index;
  return JSON.stringify({
    schema: SCHEMA_VERSION,
    chunkTokens,
    chunkOverlap,
    fts,
    profile: USER_PROFILE_RULES,
    pageNames: PAGE_NAME_RULES,
  });
}

/** What the vectors depend on. `dims` may be 0 for a remote provider that has not answered yet. */
export function embedderFingerprint(e: Embedder, dims = e.dims): string {
  return JSON.stringify({ provider: e.id, model: e.model, dims });
}

export const NO_EMBEDDER: EmbedderChoice = { embedder: null, provider: "none" };

export interface Counts {
  scanned: number;
  changed: number;
  removed: number;
  diagnostics: number;
  embedded: number;
}

/** Will this sync write? (An embedder may fill vectors; a file is new, gone, or its size/mtime changed.) */
function mayWrite(known: KnownFiles, files: MemoryFile[], choice: EmbedderChoice, keep?: ReadonlySet<string>): boolean {
  let kept = 0;
  for (const p of keep ?? []) if (known.has(p)) kept++;
  if (choice.embedder || known.size !== files.length + kept) return true;
  return files.some((f) => needsReading(known.get(f.path), f));
}

/** One fill of an open index: what to index, with what, and where warnings go. */
export interface FillJob {
  idx: IndexDb;
  ws: Workspace;
  files: MemoryFile[];
  choice: EmbedderChoice;
  opts: SyncOptions;
  /** Appended to. */
  warnings: string[];
  /** A fresh file being built (rebuild): FTS tables filled once at the end, no sync marker. */
  bulk?: boolean;
  /** Unlisted paths whose rows stay (evicted to the cloud, not deleted). */
  keep?: ReadonlySet<string>;
}

/** Bring the file-derived tables in line with `files`, then embed what lacks a vector. */
export async function fill(job: FillJob): Promise<Counts & { fallback?: string }> {
  const { idx, ws, files, choice, opts, warnings } = job;
  const bulk = job.bulk ?? false;
  const known = knownFiles(idx);
  const done = !bulk && mayWrite(known, files, choice, job.keep) ? markSyncing(idx.file) : undefined;
  try {
    // The Retain parser pulls in remark; load it only when a daily log needs parsing.
    const parseRetain = dailyLogsMayHaveChanged(known, files)
      ? (opts.parseRetain ?? (await import("../retain/index.js")).parseRetain)
      : undefined;
    const readAhead = await readRecentFiles(known, files);
    const load = bulk ? beginBulkLoad(idx.db, { fts: idx.fts }) : undefined;
    const applied = applyFiles(idx, files, {
      known,
      readAhead,
      fresh: bulk,
      ...(job.keep ? { keep: job.keep } : {}),
      parseRetain,
      chunk: { tokens: ws.config.index.chunkTokens, overlap: ws.config.index.chunkOverlap },
      defaultConfidence: ws.config.retain.defaultConfidence,
      onProgress: opts.onProgress ? (d, t) => opts.onProgress!(d, t, "files") : undefined,
    });
    if (load) endBulkLoad(idx.db, load);
    warnings.push(...applied.skipped.map((s) => `not indexed: ${s}`));
    const { embedded, fallback } = choice.embedder
      ? await embedMissingChunks(job, choice.embedder)
      : { embedded: 0, fallback: undefined };
    return { ...applied, embedded, ...(fallback !== undefined ? { fallback } : {}) };
  } finally {
    done?.();
  }
}

async function embedMissingChunks(job: FillJob, embedder: Embedder): Promise<{ embedded: number; fallback?: string }> {
  const { idx, ws, choice, opts, warnings } = job;
  const batchSize = ws.config.embedding.batchSize;
  let embedded = 0;
  let fallback: string | undefined;
  // The embedding cache lives in the index file, keyed by content: unchanged text is never embedded twice.
  const cached = createCachedEmbedder(embedder, idx.db, { batchSize });
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
  writeMeta(idx.db, "embedder", embedderFingerprint(embedder, storedDims(idx) ?? embedder.dims));
  return fallback === undefined ? { embedded } : { embedded, fallback };
}

/**
 * Build the whole index into a temp file beside the real one and rename it over the
 * old file, so a concurrent search sees the old index or the new one, never half of one.
 */
export async function rebuild(
  file: string,
  job: Omit<FillJob, "idx" | "bulk">,
): Promise<Counts & { fallback?: string }> {
  const { ws, choice, opts } = job;
  const tmp = `${file}.build-${process.pid}`;
  removeStaleBuilds(file);
  removeIndexFile(tmp);
  const fresh = openIndexFile(tmp, { build: true, fts: opts.fts, vec: opts.vec, owned: true });
  let counts: Counts & { fallback?: string };
  try {
    writeMeta(fresh.db, "fingerprint", contentFingerprint(ws, fresh.fts));
    writeMeta(fresh.db, "built_at", new Date().toISOString());
    if (choice.embedder) carryEmbeddingCache(fresh, file);
    counts = await fill({ ...job, idx: fresh, bulk: true });
    // Readers open it in WAL mode: switching later would need an exclusive lock.
    fresh.db.pragma("journal_mode = WAL");
    fresh.close();
  } catch (error) {
    fresh.close();
    removeIndexFile(tmp);
    throw error;
  }
  // The cached handle stays open through the swap: another call of this process (the MCP
  // server answers several at once) may be reading through it, and the backup API lets
  // it see the new index. Retired afterwards, so the next call opens the file afresh.
  await swapIn(tmp, file);
  forgetIndex(file);
  // recall's line store was a second file before schema 7; its tables are in the index now.
  removeIndexFile(path.join(stateDir(ws), "recall-lines.sqlite"));
  return counts;
}
