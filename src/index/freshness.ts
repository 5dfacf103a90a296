import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import { evictedPaths, type MemoryFile, type SkippedFile, scanMemoryFiles } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { needsReading } from "./apply.js";
import { indexFile, inStateDir } from "./db.js";
import { acquireIndex } from "./handles.js";
import { readMeta } from "./schema.js";
import { contentFingerprint, type SyncOptions, syncIndex } from "./sync.js";
import { crashedBefore } from "./sync-marker.js";

/** What a query's sync tells its answer (a provider or busy note), as syncIndex reports it. */
export interface ReaderSync {
  fallback?: string;
  busy?: string;
}

/**
 * Does the index hold every memory file exactly as it is on disk (the same paths, sizes
 * and mtimes: what syncIndex compares first), with the current chunking, after no dead
 * sync? Then a sync would read nothing and write nothing. Still a stat per file: an
 * edit in place changes neither a folder's mtime nor anything but the file's own stat.
 */
export function indexIsCurrent(ws: Workspace, opts: { fts?: boolean; vec?: boolean } = {}): boolean {
  const file = indexFile(ws);
  // A missing file is built and a dead sync's marker checked by syncIndex, not here.
  if (!existsSync(file) || crashedBefore(file)) return false;
  const idx = acquireIndex(file, { fts: opts.fts, vec: opts.vec, owned: inStateDir(ws, file) });
  if (idx.replaced !== undefined) return false;
  if (readMeta(idx.db, "fingerprint") !== contentFingerprint(ws, idx.fts)) return false;
  return staleInWorkspace(idx.db, ws) === 0;
}

/** staleFiles over the workspace's listing now (a log evicted to the cloud is not stale). */
export function staleInWorkspace(db: Database.Database, ws: Workspace): number {
  const skipped: SkippedFile[] = [];
  const files = scanMemoryFiles(ws, { skipped });
  return staleFiles(db, files, evictedPaths(skipped));
}

/**
 * Memory files added, changed (size or mtime) or removed since the index last read them:
 * the listing against the index's files table (what a sync would look at first).
 */
export function staleFiles(db: Database.Database, files: readonly MemoryFile[], keep?: ReadonlySet<string>): number {
  const rows = db.prepare("SELECT path, size, mtime_ms FROM files").raw().all() as [string, number, number][];
  const known = new Map<string, { size: number; mtime_ms: number }>();
  for (const [path, size, mtime_ms] of rows) known.set(path, { size, mtime_ms });
  let stale = 0;
  for (const f of files) {
    if (needsReading(known.get(f.path), f)) stale++;
    known.delete(f.path);
  }
  // Evicted to the cloud, not deleted: a sync would keep their rows (apply.ts).
  for (const p of keep ?? []) known.delete(p);
  return stale + known.size;
}

/**
 * The sync a query (recall, search) runs first: none when the index is current (a stat per
 * file and one read of the files table, instead of syncIndex's write transaction), else
 * syncIndex as a reader, which re-reads what changed. Never embeds.
 */
export async function syncForQuery(
  ws: Workspace,
  opts: Pick<SyncOptions, "fts" | "vec" | "onProgress"> = {},
): Promise<ReaderSync> {
  if (indexIsCurrent(ws, opts)) return {};
  const report = await syncIndex(ws, {
    ...(opts.fts !== undefined ? { fts: opts.fts } : {}),
    ...(opts.vec !== undefined ? { vec: opts.vec } : {}),
    ...(opts.onProgress !== undefined ? { onProgress: opts.onProgress } : {}),
    reader: true,
  });
  return {
    ...(report.fallback !== undefined ? { fallback: report.fallback } : {}),
    ...(report.busy !== undefined ? { busy: report.busy } : {}),
  };
}
