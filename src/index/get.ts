import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { MembankError } from "../workspace/errors.js";
import { isMemoryPath, MEMORY_FILES_TEXT, memoryFileRefusal } from "../workspace/files.js";
import { decodeText } from "../workspace/text-file.js";
import type { Workspace } from "../workspace/workspace.js";

/** Largest number of lines one read returns. */
export const MAX_GET_LINES = 2000;
/** Largest text one read returns (UTF-8 bytes). */
export const MAX_GET_BYTES = 256 * 1024;
/** Files larger than this are not read at all. */
export const MAX_GET_FILE_BYTES = 16 * 1024 * 1024;

export interface GetOptions {
  /** First line, 1-based (default 1). */
  from?: number;
  /** Number of lines (default: to the end of the file). */
  lines?: number;
}

export interface GetResult {
  path: string;
  text: string;
}

function refuse(message: string): MembankError {
  return new MembankError(message, { code: "EPATH", exitCode: 2 });
}

/**
 * Validate a requested memory path without touching the disk: relative, `/`-separated,
 * no `.`/`..`/empty/hidden (`.drafts`) segments, a `.md` memory file (isMemoryPath).
 * Returns the normalised relative path. Pure.
 */
export function checkMemoryPath(requested: string): string {
  const p = requested.trim();
  if (p === "") throw refuse("memory_get: path is empty");
  if (p.includes("\0")) throw refuse("memory_get: path contains a NUL byte");
  if (path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[a-zA-Z]:/.test(p)) {
    throw refuse(`memory_get: ${JSON.stringify(p)} is absolute; give a path relative to the workspace`);
  }
  if (p.includes("\\")) throw refuse(`memory_get: ${JSON.stringify(p)}: use / as the separator`);
  const segments = p.split("/");
  if (segments.some((s) => s === "..")) throw refuse(`memory_get: ${JSON.stringify(p)} leaves the workspace (..)`);
  if (segments.some((s) => s === "" || s === ".")) throw refuse(`memory_get: ${JSON.stringify(p)} is not a plain path`);
  const hidden = memoryFileRefusal(p);
  if (hidden !== undefined) throw refuse(`memory_get: ${p} ${hidden} (the index skips it too)`);
  if (!p.toLowerCase().endsWith(".md")) throw refuse(`memory_get: ${JSON.stringify(p)} is not a Markdown (.md) file`);
  if (!isMemoryPath(p)) {
    throw refuse(`memory_get: ${JSON.stringify(p)} is not a memory file (${MEMORY_FILES_TEXT}, DREAMS.md)`);
  }
  return p;
}

/**
 * `memory_get`: lines of one memory file. Refuses anything outside the memory files,
 * symlinks anywhere on the path (so a linked folder cannot expose outside files), files
 * that are not regular files, files with more than one hard link (the index skips them:
 * memoryFileRefusal), and reads over MAX_GET_LINES lines or MAX_GET_BYTES bytes.
 */
export async function getMemoryLines(ws: Workspace, requested: string, opts: GetOptions = {}): Promise<GetResult> {
  const rel = checkMemoryPath(requested);
  const from = opts.from ?? 1;
  if (!Number.isInteger(from) || from < 1) throw refuse(`memory_get: from must be an integer >= 1, got ${from}`);
  if (opts.lines !== undefined && (!Number.isInteger(opts.lines) || opts.lines < 1)) {
    throw refuse(`memory_get: lines must be an integer >= 1, got ${opts.lines}`);
  }
  if (opts.lines !== undefined && opts.lines > MAX_GET_LINES) {
    throw refuse(`memory_get: at most ${MAX_GET_LINES} lines per read (asked for ${opts.lines})`);
  }

  // Walk from the workspace root so a symlinked folder on the way is caught too.
  let current = ws.root;
  const segments = rel.split("/");
  for (let i = 0; i < segments.length; i++) {
    current = path.join(current, segments[i]!);
    const shown = segments.slice(0, i + 1).join("/");
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(current);
    } catch {
      throw new MembankError(`memory_get: ${shown} does not exist in ${ws.root}`, { code: "ENOTFOUND", exitCode: 2 });
    }
    if (info.isSymbolicLink()) throw refuse(`memory_get: ${shown} is a symbolic link; membank reads only real files`);
    const last = i === segments.length - 1;
    if (!last && !info.isDirectory()) throw refuse(`memory_get: ${shown} is not a folder`);
    if (last && !info.isFile()) throw refuse(`memory_get: ${rel} is not a regular file`);
    const linked = last ? memoryFileRefusal(rel, info) : undefined;
    if (linked !== undefined) throw refuse(`memory_get: ${rel} ${linked} (the index skips it too)`);
    if (last && info.size > MAX_GET_FILE_BYTES) {
      throw refuse(`memory_get: ${rel} is ${info.size} bytes, over the ${MAX_GET_FILE_BYTES}-byte limit`);
    }
  }

  const all = decodeText(await readFile(current))
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  const start = from - 1;
  const end = opts.lines === undefined ? all.length : Math.min(all.length, start + opts.lines);
  const count = Math.max(0, end - start);
  if (count > MAX_GET_LINES) {
    throw refuse(
      `memory_get: ${rel} has ${all.length} lines; read at most ${MAX_GET_LINES} at a time (use from/lines)`,
    );
  }
  const text = all.slice(start, end).join("\n");
  if (Buffer.byteLength(text, "utf8") > MAX_GET_BYTES) {
    throw refuse(`memory_get: that read of ${rel} is over ${MAX_GET_BYTES} bytes; ask for fewer lines (from/lines)`);
  }
  return { path: rel, text };
}
