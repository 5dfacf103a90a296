import { statSync } from "node:fs";
import { type IndexDb, type OpenOptions, openIndexFile } from "./db.js";

/**
 * One open connection per index file and process, reused across sync/search calls so a
 * search does not pay for opening SQLite and loading sqlite-vec every time. A handle is
 * reopened when the file was replaced (another process swapped in a rebuilt index: a
 * new inode) or removed.
 *
 * Take the handle right before querying and do not keep it across an await of syncIndex:
 * a rebuild (fingerprint change, damaged file) closes the old handle before swapping files.
 */
interface Entry {
  idx: IndexDb;
  ino: number;
  key: string;
}

const cache = new Map<string, Entry>();

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
  entry?.idx.close();
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
 * WAL belongs to the old file, and nothing of it must reach the new one.
 */
export function forgetIndex(file: string): void {
  const entry = cache.get(file);
  if (!entry) return;
  cache.delete(file);
  entry.idx.close();
}

/** Close every cached index handle (tests, and long-running processes on shutdown). */
export function closeIndexes(): void {
  for (const file of [...cache.keys()]) releaseIndex(file);
}
