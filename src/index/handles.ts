import { statSync } from "node:fs";
import { type IndexDb, type OpenOptions, openIndexFile } from "./db.js";

/**
 * One open connection per index file and process, reused across sync/search calls so a
 * search does not pay for opening SQLite and loading sqlite-vec every time. A handle is
 * reopened when the file was replaced (another process swapped in a rebuilt index: a
 * new inode) or removed.
 *
 * One process answers several calls at once (the MCP server, `serve`): a call may hold a
 * handle across an await while another call reopens the file. So a handle is never closed
 * under its holders when it is replaced: it is retired, still usable, and closed a while
 * later (or by closeIndexes). Only a damaged file's handle is closed at once.
 */
interface Entry {
  idx: IndexDb;
  ino: number;
  key: string;
}

const cache = new Map<string, Entry>();
/** Replaced handles a call may still be reading through, closed after RETIRE_MS. */
const retired = new Set<IndexDb>();
/** Far longer than any one query holds a handle; short enough not to pile up connections. */
const RETIRE_MS = 30_000;

/** Stop serving a handle from the cache, leaving it open for whoever holds it now. */
function retire(idx: IndexDb): void {
  retired.add(idx);
  const timer = setTimeout(() => {
    retired.delete(idx);
    idx.close();
  }, RETIRE_MS);
  // A retired handle never keeps the process alive.
  timer.unref();
}

function optionsKey(opts: OpenOptions): string {
  return `${opts.fts ?? "auto"}|${opts.vec ?? "auto"}`;
}

function inode(file: string): number | undefined {
  try {
    return statSync(file).ino;
  } catch {
    return undefined;
  }
}

export function acquireIndex(file: string, opts: OpenOptions = {}): IndexDb {
  const key = optionsKey(opts);
  const entry = cache.get(file);
  if (entry && entry.key === key && entry.idx.db.open && !opts.check && inode(file) === entry.ino) return entry.idx;
  // Reopened (a check, other options, a swapped-in file): the old handle may be mid-query.
  if (entry) retire(entry.idx);
  cache.delete(file);
  const idx = openIndexFile(file, opts);
  cache.set(file, { idx, ino: inode(file) ?? -1, key });
  return idx;
}

/** Close the cached handle of one file (before replacing or deleting it). */
export function releaseIndex(file: string): void {
  const entry = cache.get(file);
  if (!entry) return;
  cache.delete(file);
  try {
    // Fold the WAL back into the file so no -wal outlives this connection.
    entry.idx.db.pragma("wal_checkpoint(TRUNCATE)");
  } catch {
    // A broken file is about to be replaced anyway.
  }
  entry.idx.close();
}

/**
 * Drop the cached handle of a file that was replaced under it, without a checkpoint: its
 * WAL belongs to the old file, and nothing of it must reach the new one. (SQLite neither
 * checkpoints nor deletes the WAL when it closes a connection to a moved file.)
 */
export function forgetIndex(file: string): void {
  const entry = cache.get(file);
  if (!entry) return;
  cache.delete(file);
  retire(entry.idx);
}

/** Close every cached and retired index handle (tests, and long-running processes on shutdown). */
export function closeIndexes(): void {
  for (const file of [...cache.keys()]) releaseIndex(file);
  for (const idx of retired) idx.close();
  retired.clear();
}
