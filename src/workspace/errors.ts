import path from "node:path";

/**
 * An error a user can act on: the message names the file (and line) or the missing
 * thing. The CLI prints `message` without a stack and exits with `exitCode`.
 */
export class MembankError extends Error {
  readonly exitCode: number;
  readonly code: string;

  constructor(message: string, options: { code?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MembankError";
    this.code = options.code ?? "EMEMBANK";
    this.exitCode = options.exitCode ?? 1;
  }
}

/** The error, naming `file` when it names none (Node's EISDIR for a folder read as a file carries no path). */
export function withPath(error: unknown, file: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (typeof e === "object" && e !== null && typeof e.code === "string" && e.path === undefined) e.path = file;
  return error;
}

/** The errno/SQLite code of an error, if it carries one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * One line for a failed file operation a user can fix (disk full, read-only, a folder
 * where a file belongs, ...): what happened to which path and what to do. Undefined
 * for errors that are not about the file system (those are bugs, shown with a stack).
 * The path is the error's own (Node fs errors carry one), else `file` (SQLite errors do not).
 */
export function describeIoError(error: unknown, file?: string): string | undefined {
  const code = errorCode(error);
  if (code === undefined) return undefined;
  const own = (error as { path?: unknown }).path;
  const where = typeof own === "string" ? own : file;
  const target = typeof where === "string" ? where : "a file";
  const dir = typeof where === "string" ? path.dirname(where) : "its folder";
  if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL")
    return `no space left on the disk while writing ${target} (${code}): free some space (or raise the quota) and run again`;
  if (code === "EFBIG")
    return `${target} hit the file size limit (${code}): raise the limit (ulimit -f) or free space, and run again`;
  if (code === "EROFS")
    return `${target} is on a read-only file system (${code}): remount it writable or point membank elsewhere`;
  if (code === "EACCES" || code === "EPERM")
    return `permission denied for ${target} (${code}): check the owner and permissions of it and of ${dir}`;
  if (code === "SQLITE_READONLY_DIRECTORY")
    return `cannot write beside ${target}: ${dir} is read-only (${code}); make it writable (chmod u+w) and run again`;
  if (code === "SQLITE_READONLY_DBMOVED")
    return `${target} was replaced by another process while in use (${code}): run again`;
  if (code.startsWith("SQLITE_READONLY"))
    return `${target} is read-only (${code}): make it and ${dir} writable (chmod u+w) and run again`;
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_PERM")
    return `cannot open ${target} (${code}): check that it and ${dir} exist, are writable and are not folders`;
  if (code === "EISDIR" || code === "ERR_FS_EISDIR")
    return `${target} is a folder where membank expects a file (${code}): move it away and run again`;
  if (code === "EEXIST" && (error as { syscall?: unknown }).syscall === "mkdir")
    return `cannot create the folder ${target}: a file of that name is in the way (${code}); move it away and run again`;
  if (code === "ENOTDIR")
    return `a part of ${target} is a file where a folder is needed (${code}): move that file away or use another path`;
  if (code === "EMFILE" || code === "ENFILE")
    return `too many open files while opening ${target} (${code}): raise the limit (ulimit -n) and run again`;
  if (code === "SQLITE_IOERR_WRITE" || code === "SQLITE_IOERR_FSYNC" || code === "SQLITE_IOERR_TRUNCATE")
    return `cannot write ${target} (${code}): the disk may be full or a file size limit reached; free space and run again`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return `${target} stayed locked by another process past the wait (${code}): run again in a moment`;
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB")
    return `${target} is damaged (${code}): run membank index --full to rebuild it (it is derived data)`;
  if (code.startsWith("SQLITE_IOERR"))
    return `the disk failed reading or writing ${target} (${code}): check free space and the disk, then run again`;
  return undefined;
}
