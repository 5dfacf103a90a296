import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { errorCode } from "../workspace/errors.js";
import { processAlive } from "../workspace/pid.js";
import { type IndexDb, removeIndexFile } from "./db.js";
import { ensureEmbeddingCache } from "./embedding-cache.js";

/** A full build's temp file beside the index: cleaning up dead ones, seeding it, putting it in place. */

/** SQLite's "another connection holds the lock" (after busy_timeout ran out). */
export function isBusy(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** Remove temp builds left by processes that died mid-build (a live process's build is left alone). */
export function removeStaleBuilds(file: string): void {
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
    if (!processAlive(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

/** Copy the old file's embedding cache into a new build, so a rebuild does not re-embed unchanged text. */
export function carryEmbeddingCache(fresh: IndexDb, oldFile: string): void {
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Put a finished build in place of the live index. Copied in with SQLite's backup API,
 * as one write transaction on the live file: a reader (another process, holding the file
 * open) sees the previous complete index until the commit and the new one after, and no
 * connection is left on a file renamed away (whose close could delete the new file's
 * WAL by name). Renamed only when that copy is impossible (no live file to write into
 * cleanly, e.g. a different page size).
 */
export async function swapIn(tmp: string, file: string): Promise<void> {
  const src = new Database(tmp, { readonly: true, fileMustExist: true });
  let copied = false;
  try {
    for (let attempt = 0; !copied; attempt++) {
      try {
        // All pages in one step: one transaction on the live file.
        await src.backup(file, { progress: () => 0x7fffffff });
        copied = true;
      } catch (error) {
        if (!isBusy(error)) break;
        if (attempt >= 100) throw error;
        await sleep(50); // another writer's transaction: it is short
      }
    }
  } finally {
    src.close();
  }
  if (copied) {
    removeIndexFile(tmp);
    return;
  }
  renameSync(tmp, file);
  // WAL side files of the old file must not be replayed into the new one.
  for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
}
