import { accessSync, closeSync, constants, openSync, readSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describeIoError, errorCode, MembankError } from "../workspace/errors.js";
import { isInside, isMemoryPath } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { readMeta } from "./schema.js";

/**
 * Where the index lives and what is there: the `index.path` rule (never a user's file),
 * a read-only look at an existing file (ours, another program's, garbage), and the
 * one-line messages for disk and permission failures on it.
 */

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

/** membank's other SQLite files in `.memory/` (recall's line store, the LLM answer cache). */
const OTHER_STORES = ["recall-lines.sqlite", "llm-cache.sqlite"];

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
    if (path.dirname(realish(file)) === realish(stateDir(ws)) && OTHER_STORES.includes(path.basename(file)))
      throw configError(ws, file, "is another of membank's own stores");
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
