import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";
import { hasFts5, indexFile, loadVec } from "./db.js";
import { staleInWorkspace } from "./freshness.js";
import { nativeError } from "./native.js";
import { SCHEMA_VERSION } from "./schema.js";

export interface IndexStatus {
  sqlite: { version: string; fts5: boolean };
  sqliteVec: { loaded: boolean; version?: string; error?: string };
  index: {
    file: string;
    present: boolean;
    bytes?: number;
    /** Why the file cannot be used (it is rebuilt by the next sync). */
    problem?: string;
    schemaVersion?: number;
    fingerprint?: string;
    embedder?: string;
    syncedAt?: string;
    files?: number;
    chunks?: number;
    facts?: number;
    vectors?: number;
    /** Memory files added, changed (size or mtime) or removed since the last sync. */
    stale?: number;
    fresh?: boolean;
  };
}

/**
 * What `membank doctor` reports about SQLite and the index, read-only: the index file is
 * opened read-only and never repaired here (the next sync does that).
 */
export async function indexStatus(ws: Workspace): Promise<IndexStatus> {
  const probe = new Database(":memory:");
  const version = (probe.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
  const vec = loadVec(probe);
  probe.close();
  const file = indexFile(ws);
  const status: IndexStatus = {
    sqlite: { version, fts5: hasFts5() },
    sqliteVec: vec,
    index: { file, present: existsSync(file) },
  };
  if (!status.index.present) return status;
  status.index.bytes = statSync(file).size;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(`quick_check: ${String(check)}`);
    const meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    status.index.schemaVersion = Number(meta.get("schema_version"));
    if (status.index.schemaVersion !== SCHEMA_VERSION) {
      status.index.problem = `schema version ${meta.get("schema_version")}, this membank uses ${SCHEMA_VERSION}`;
    }
    status.index.fingerprint = meta.get("fingerprint");
    status.index.embedder = meta.get("embedder");
    status.index.syncedAt = meta.get("synced_at");
    const counts = db
      .prepare(
        "SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM chunks) AS chunks, " +
          "(SELECT count(*) FROM facts) AS facts, (SELECT count(*) FROM chunk_vectors) AS vectors",
      )
      .get() as { files: number; chunks: number; facts: number; vectors: number };
    Object.assign(status.index, counts);
    const stale = staleInWorkspace(db, ws);
    status.index.stale = stale;
    status.index.fresh = stale === 0 && status.index.problem === undefined;
  } catch (error) {
    status.index.problem = (error as Error).message;
    status.index.fresh = false;
  } finally {
    db?.close();
  }
  return status;
}

let checked: MembankError | null | undefined;

/**
 * Load the SQLite binding once (opening an in-memory database), so a command can say at
 * its start, in one line, that better-sqlite3 was built for another Node. Returns the
 * problem; other load errors are returned as they are.
 */
export function sqliteBindingProblem(): MembankError | undefined {
  if (checked === undefined) {
    try {
      new Database(":memory:").close();
      checked = null;
    } catch (error) {
      checked =
        nativeError(error) ??
        new MembankError(`better-sqlite3 cannot be loaded: ${(error as Error).message}`, {
          code: "ESQLITE",
          cause: error,
        });
    }
  }
  return checked ?? undefined;
}
