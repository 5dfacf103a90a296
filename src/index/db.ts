import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import { describeIoError, errorCode, MembankError } from "../workspace/errors.js";
import { isInside, isMemoryPath } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
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
  /**
   * The file lies in membank's own `.memory/`: a file there that is not a SQLite database
   * at all is a broken index and may be replaced. Elsewhere only a membank index is.
   */
  owned?: boolean;
}

/** Realpath of `p`, also when its tail does not exist yet (the deepest existing folder is resolved). */
function realish(p: string): string {
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...tail);
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      tail.unshift(path.basename(cur));
      cur = parent;
    }
  }
}

/** Is `file` inside the workspace's `.memory/` (after symlinks)? */
export function inStateDir(ws: Workspace, file: string): boolean {
  const dir = realish(stateDir(ws));
  const real = realish(file);
  return real !== dir && isInside(dir, real);
}

function configError(ws: Workspace, file: string, why: string): MembankError {
  const where = ws.configPath ?? "the config";
  return new MembankError(
    `index.path in ${where}: ${file} ${why}. membank never overwrites it; set index.path to a file inside .memory/ (the default is .memory/index.sqlite) or to a new file.`,
    { code: "ECONFIG" },
  );
}

/**
 * Absolute path of the workspace's index file (config `index.path`), checked so that the
 * index can never replace a user's file: inside `.memory/` any path is membank's (a file
 * there that is not an index is replaced, except another program's SQLite database);
 * elsewhere the path must not exist yet or must already hold a membank index.
 */
export function indexFile(ws: Workspace): string {
  const file = path.resolve(ws.root, ws.config.index.path);
  if (inStateDir(ws, file)) {
    // Other files in .memory/ are membank's state (journals, models): never a broken index to replace.
    if (!/\.(sqlite3?|db)$/i.test(file))
      throw configError(
        ws,
        file,
        "is not named like an index (.sqlite, .sqlite3 or .db); other files in .memory/ are membank's state",
      );
    return file;
  }
  if (realish(file) === realish(stateDir(ws))) throw configError(ws, file, "is membank's .memory/ folder itself");
  const rel = path.relative(ws.root, file).split(path.sep).join("/");
  if (!rel.startsWith("..") && !path.isAbsolute(rel) && isMemoryPath(rel))
    throw configError(ws, file, "is a memory file path (the index would index itself)");
  const state = inspectIndexFile(file);
  if (state.kind === "missing" || state.kind === "ours") return file;
  if (state.kind === "unknown")
    throw configError(ws, file, `exists and cannot be checked to be a membank index (${state.detail})`);
  if (state.kind === "empty") throw configError(ws, file, "is an existing empty file, not a membank index");
  throw configError(ws, file, `is ${state.detail}`);
}

/** What is at an index path, found without writing to it. */
export type IndexFileState =
  | { kind: "missing" }
  /** Zero bytes, or a SQLite database without tables. */
  | { kind: "empty" }
  /** A membank index (possibly damaged). */
  | { kind: "ours" }
  /** Another program's SQLite database. */
  | { kind: "foreign"; detail: string }
  /** Not a SQLite database at all, or one too damaged to read its table list. */
  | { kind: "garbage"; detail: string }
  /** A folder, socket, ... */
  | { kind: "not-a-file"; detail: string }
  /** Could not be looked at (permissions, a read-only folder): `detail` is the user message. */
  | { kind: "unknown"; detail: string };

const SQLITE_MAGIC = "SQLite format 3\0";
const OUR_TABLES = ["meta", "files", "chunks"];

/** Look at an index path read-only: is it missing, ours, another program's, or garbage? */
export function inspectIndexFile(file: string): IndexFileState {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return { kind: "not-a-file", detail: "a folder, not a file" };
    if (!st.isFile()) return { kind: "not-a-file", detail: "not a regular file" };
    size = st.size;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { kind: "missing" };
    return { kind: "unknown", detail: ioMessage(error, file) };
  }
  if (size === 0) return { kind: "empty" };
  const head = Buffer.alloc(16);
  try {
    const fd = openSync(file, "r");
    try {
      readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { kind: "unknown", detail: ioMessage(error, file) };
  }
  if (head.toString("latin1") !== SQLITE_MAGIC) return { kind: "garbage", detail: "not a SQLite database" };
  // Even a read-only SQLite connection creates side files (with the file's mode): look only at what we may write.
  const readOnly = notWritable(file);
  if (readOnly !== undefined) return { kind: "unknown", detail: readOnly };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    if (tables.length === 0) return { kind: "empty" };
    if (!OUR_TABLES.every((t) => tables.includes(t))) {
      const shown = tables.slice(0, 5).join(", ") + (tables.length > 5 ? ", ..." : "");
      return { kind: "foreign", detail: `another program's SQLite database (tables: ${shown})` };
    }
    try {
      if (readMeta(db, "schema_version") === undefined)
        return { kind: "foreign", detail: "a SQLite database without membank's schema version" };
    } catch (error) {
      if (!isDamage(error)) throw error;
    }
    return { kind: "ours" };
  } catch (error) {
    if (isDamage(error)) return { kind: "garbage", detail: `a damaged SQLite file (${(error as Error).message})` };
    return { kind: "unknown", detail: ioMessage(error, file) };
  } finally {
    db?.close();
  }
}

/** SQLite errors that mean the bytes are damaged (replace the file), not that the disk or permissions failed. */
export function isDamage(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && /^SQLITE_(CORRUPT|NOTADB|IOERR_SHORT_READ)/.test(code);
}

/** A user message for an I/O failure on an index file: names it, says what to do, and that nothing was deleted. */
export function ioMessage(error: unknown, file: string): string {
  const what = describeIoError(error, file) ?? `cannot use the index ${file}: ${(error as Error).message}`;
  return `${what} (the index is derived data; nothing was deleted)`;
}

/** Wrap an I/O failure on the index file as a MembankError; other errors pass through. */
export function indexIoError(error: unknown, file: string): unknown {
  if (error instanceof MembankError || describeIoError(error) === undefined || isDamage(error)) return error;
  return new MembankError(ioMessage(error, file), { code: errorCode(error) ?? "EIO", cause: error });
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
 * `damaged` says whether the bytes are bad (replaceable) rather than the disk or access.
 */
function tryOpen(file: string, opts: OpenOptions): { handle?: Handle; problem?: string; error?: unknown } {
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
    const vec: VecStatus = opts.vec === false ? { loaded: false, error: "disabled" } : loadVec(db);
    return { handle: new Handle(db, file, fileFts, vec) };
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

/**
 * Fail early on a read-only index file: SQLite would open it read-only and create its
 * -shm side file read-only too, which keeps failing after the user fixes the file's mode.
 */
export function assertWritable(file: string): void {
  const problem = notWritable(file);
  if (problem !== undefined) throw new MembankError(problem, { code: "EACCES" });
}

/** Why the file (or its WAL side files) cannot be written by this user, if so. */
function notWritable(file: string): string | undefined {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      accessSync(f, constants.W_OK);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT") continue;
      return code === "EACCES" || code === "EPERM" || code === "EROFS"
        ? `${f} is read-only for this user (${code}): make it writable (chmod u+w, or check its owner) and run again (the index is derived data; nothing was deleted)`
        : ioMessage(error, f);
    }
  }
  return undefined;
}

/** Create the index's folder, or say in one line why it cannot be (a file in the way, permissions). */
function ensureFolder(file: string): void {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
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
  return new Handle(h.db, h.file, h.fts, h.vec, first.problem);
}

/** Open the workspace's index (migrations applied). Close it when done. */
export function openIndex(ws: Workspace, opts: OpenOptions = {}): IndexDb {
  const file = indexFile(ws);
  return openIndexFile(file, { owned: inStateDir(ws, file), ...opts });
}
