import { existsSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import { describeIoError, errorCode, MembankError } from "../workspace/errors.js";
import { ensureStateDirOf, type Workspace } from "../workspace/workspace.js";
import { indexFile, indexIoError, inStateDir, inspectIndexFile, isDamage } from "./location.js";
import { migrate, readMeta, SCHEMA_VERSION } from "./schema.js";

export {
  type IndexFileState,
  indexFile,
  indexIoError,
  inStateDir,
  inspectIndexFile,
  ioMessage,
  isDamage,
} from "./location.js";

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
  /**
   * The file lies in membank's own `.memory/`: a file there that is not a SQLite database
   * at all is a broken index and may be replaced. Elsewhere only a membank index is.
   */
  owned?: boolean;
}

/** Every connection waits this long for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

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

const VEC_DISABLED: VecStatus = { loaded: false, error: "disabled" };

class Handle implements IndexDb {
  #vec: VecStatus | undefined;
  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly fts: boolean,
    private readonly wantVec: boolean,
    readonly replaced?: string,
  ) {}
  /**
   * sqlite-vec is loaded at the first look (only vector reads and writes look): a BM25
   * query never pays for loading the extension (~8 ms CPU, more wall on a cold disk).
   */
  get vec(): VecStatus {
    this.#vec ??= this.wantVec ? loadVec(this.db) : VEC_DISABLED;
    return this.#vec;
  }
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Open (creating if needed) and migrate one index file, or say why it is unusable.
 * Checks: SQLite can read it, it is not shorter than its header says (truncation), it
 * is ours (a meta table with a known schema version, or empty), optionally quick_check.
 * `damaged` says whether the bytes are bad (replaceable) rather than the disk or access.
 */
function tryOpen(file: string, opts: OpenOptions): { handle?: Handle; problem?: string; error?: unknown } {
  const existed = existsSync(file);
  const size = existed ? statSync(file).size : 0;
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
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
        throw new Damaged(`truncated: ${size} bytes, header says ${pages * pageSize}`);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      if (tables.length > 0 && !tables.some((t) => t.name === "meta")) throw new Damaged("not a membank index");
      if (tables.length > 0 && readMeta(db, "schema_version") === undefined) throw new Damaged("missing meta");
    }
    if (opts.check) {
      const result = db.pragma("quick_check", { simple: true });
      if (result !== "ok") throw new Damaged(`quick_check: ${String(result)}`);
    }
    const fts = (opts.fts ?? true) && hasFts5();
    if (!migrate(db, fts)) throw new Damaged(`schema version newer than ${SCHEMA_VERSION}`);
    // A file built with FTS keeps its tables; one built without cannot search them.
    const fileFts = readMeta(db, "fts") === "1" && fts;
    return { handle: new Handle(db, file, fileFts, opts.vec !== false) };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    return { problem: (error as Error).message, error };
  }
}

/** A reason the bytes of an index file are unusable (as opposed to an I/O or access failure). */
class Damaged extends Error {}

function isDamaged(error: unknown): boolean {
  return error instanceof Damaged || isDamage(error);
}

/** Create the index's folder, or say in one line why it cannot be (a file in the way, permissions). */
function ensureFolder(file: string): void {
  const dir = path.dirname(file);
  try {
    ensureStateDirOf(file);
  } catch (error) {
    const code = errorCode(error);
    const why =
      code === "EEXIST" || code === "ENOTDIR"
        ? `cannot create the index folder ${dir}: a file is in the way (${code}); move it away or set index.path`
        : (describeIoError(error, dir) ?? `cannot create the index folder ${dir}: ${(error as Error).message}`);
    throw new MembankError(why, { code: code ?? "EIO", cause: error });
  }
}

/**
 * Open an index file. A damaged membank index (corrupt, truncated, newer schema) is
 * never crashed on: it is removed and an empty index is created in its place (`replaced`
 * says why); the next sync fills it. A file that is not provably ours is never replaced:
 * another program's SQLite database, a folder, or (outside `.memory/`, see `owned`) any
 * non-index file is an error naming the path. So is a disk or permission failure, and
 * then nothing is deleted.
 */
export function openIndexFile(file: string, opts: OpenOptions = {}): IndexDb {
  ensureFolder(file);
  const state = inspectIndexFile(file);
  const refuse = (why: string) =>
    new MembankError(
      `${file} ${why}: membank will not overwrite it. Move it away (the index is rebuilt from the Markdown) or set index.path to another file.`,
      { code: "EINDEX" },
    );
  if (state.kind === "unknown") throw new MembankError(state.detail, { code: "EINDEX" });
  if (state.kind === "not-a-file" || state.kind === "foreign") throw refuse(`is ${state.detail}`);
  if (!opts.owned && state.kind === "garbage") throw refuse(`is ${state.detail}, not a membank index`);
  if (!opts.owned && state.kind === "empty" && statSync(file).size === 0)
    throw refuse("is an existing empty file, not a membank index");
  const first = tryOpen(file, opts);
  if (first.handle) return first.handle;
  if (!isDamaged(first.error)) throw indexIoError(first.error, file);
  removeIndexFile(file);
  const second = tryOpen(file, opts);
  if (!second.handle) {
    const error = indexIoError(second.error, file);
    if (error instanceof MembankError) throw error;
    throw new MembankError(`cannot create the index ${file}: ${second.problem}`, { code: "EINDEX", cause: error });
  }
  const h = second.handle;
  return new Handle(h.db, h.file, h.fts, opts.vec !== false, first.problem);
}

/** Open the workspace's index (migrations applied). Close it when done. */
export function openIndex(ws: Workspace, opts: OpenOptions = {}): IndexDb {
  const file = indexFile(ws);
  return openIndexFile(file, { owned: inStateDir(ws, file), ...opts });
}
