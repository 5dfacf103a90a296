import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import type { Workspace } from "../workspace/workspace.js";
import { migrate, readMeta, SCHEMA_VERSION } from "./schema.js";

const require = createRequire(import.meta.url);

export interface VecStatus {
  /** sqlite-vec is loaded in this connection: vector search uses vec0. */
  loaded: boolean;
  version?: string;
  /** Why it did not load (the JS cosine fallback is used instead). */
  error?: string;
}

/** An open index: the better-sqlite3 handle plus what this connection can do. */
export interface IndexDb {
  readonly db: Database.Database;
  readonly file: string;
  /** FTS5 tables exist and are used (false: vector-only search). */
  readonly fts: boolean;
  readonly vec: VecStatus;
  /** Set when the file was unusable (corrupt, truncated, foreign) and was replaced by an empty index. */
  readonly replaced?: string;
  close(): void;
}

export interface OpenOptions {
  /** Use FTS5 (default: when the SQLite build has it). `false` gives the vector-only path. */
  fts?: boolean;
  /** Load sqlite-vec (default true). `false` forces the in-process cosine fallback. */
  vec?: boolean;
  /** Run PRAGMA quick_check (slower on big files; sync runs it on --full and after errors). */
  check?: boolean;
  /** Build mode for a temp file nobody else reads: no journal, no fsync. */
  build?: boolean;
}

/** Absolute path of the workspace's index file (config `index.path`). */
export function indexFile(ws: Workspace): string {
  return path.resolve(ws.root, ws.config.index.path);
}

let ftsAvailable: boolean | undefined;
/** Does this SQLite build have FTS5 (with the trigram tokenizer)? Checked once per process. */
export function hasFts5(): boolean {
  if (ftsAvailable === undefined) {
    const probe = new Database(":memory:");
    try {
      probe.exec("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='trigram')");
      ftsAvailable = true;
    } catch {
      ftsAvailable = false;
    } finally {
      probe.close();
    }
  }
  return ftsAvailable;
}

let vecLoadError: string | undefined;
/** Load sqlite-vec into a connection; the error (if any) is remembered so it is reported once. */
export function loadVec(db: Database.Database): VecStatus {
  if (vecLoadError !== undefined) return { loaded: false, error: vecLoadError };
  try {
    const sqliteVec = require("sqlite-vec") as { load(db: Database.Database): void };
    sqliteVec.load(db);
    const row = db.prepare("SELECT vec_version() AS v").get() as { v: string };
    return { loaded: true, version: row.v };
  } catch (error) {
    vecLoadError = (error as Error).message;
    return { loaded: false, error: vecLoadError };
  }
}

/** Remove an index file and its WAL side files. */
export function removeIndexFile(file: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
}

class Handle implements IndexDb {
  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly fts: boolean,
    readonly vec: VecStatus,
    readonly replaced?: string,
  ) {}
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Open (creating if needed) and migrate one index file, or say why it is unusable.
 * Checks: SQLite can read it, it is not shorter than its header says (truncation), it
 * is ours (a meta table with a known schema version, or empty), optionally quick_check.
 */
function tryOpen(file: string, opts: OpenOptions): { handle?: Handle; problem?: string } {
  const existed = existsSync(file);
  const size = existed ? statSync(file).size : 0;
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma("busy_timeout = 5000");
    if (opts.build) {
      db.pragma("journal_mode = OFF");
      db.pragma("synchronous = OFF");
    } else {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    if (existed && size > 0) {
      // Pages still in a WAL file legitimately extend past the main file; check only without one.
      const walSize = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
      const pageSize = db.pragma("page_size", { simple: true }) as number;
      const pages = db.pragma("page_count", { simple: true }) as number;
      if (walSize === 0 && pages * pageSize > size)
        throw new Error(`truncated: ${size} bytes, header says ${pages * pageSize}`);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      if (tables.length > 0 && !tables.some((t) => t.name === "meta")) throw new Error("not a membank index");
      if (tables.length > 0 && readMeta(db, "schema_version") === undefined) throw new Error("missing meta");
    }
    if (opts.check) {
      const result = db.pragma("quick_check", { simple: true });
      if (result !== "ok") throw new Error(`quick_check: ${String(result)}`);
    }
    const fts = (opts.fts ?? true) && hasFts5();
    if (!migrate(db, fts)) throw new Error(`schema version newer than ${SCHEMA_VERSION}`);
    // A file built with FTS keeps its tables; one built without cannot search them.
    const fileFts = readMeta(db, "fts") === "1" && fts;
    const vec: VecStatus = opts.vec === false ? { loaded: false, error: "disabled" } : loadVec(db);
    return { handle: new Handle(db, file, fileFts, vec) };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    return { problem: (error as Error).message };
  }
}

/**
 * Open an index file. A corrupt, truncated or foreign file is never crashed on: it is
 * removed and an empty index is created in its place (`replaced` says why); the next
 * sync fills it.
 */
export function openIndexFile(file: string, opts: OpenOptions = {}): IndexDb {
  mkdirSync(path.dirname(file), { recursive: true });
  const first = tryOpen(file, opts);
  if (first.handle) return first.handle;
  removeIndexFile(file);
  const second = tryOpen(file, opts);
  if (!second.handle) throw new Error(`Cannot create index ${file}: ${second.problem}`);
  const h = second.handle;
  return new Handle(h.db, h.file, h.fts, h.vec, first.problem);
}

/** Open the workspace's index (migrations applied). Close it when done. */
export function openIndex(ws: Workspace, opts: OpenOptions = {}): IndexDb {
  return openIndexFile(indexFile(ws), opts);
}
