/**
 * What membank wrote into the user's folders (memory/, bank/), and nothing else.
 *
 * Every write of a workspace file goes through `writeOwnedFiles`, which first appends to
 * `.memory/pending-writes.jsonl` (fsynced, before the file changes) the path, a hash of
 * what the file held before (`base`) and a hash of what membank writes (`sha`). The
 * commit (src/reflect/git.ts) commits a path only when the file still holds membank's
 * bytes and every byte that differs from HEAD was written by membank: its oldest pending
 * `base` is HEAD's content, each later `base` is the previous `sha`. So a user's draft, an
 * uncommitted edit of an old log, or text a person added to a bank page is never committed
 * in membank's name, however a run ended.
 *
 * The temp files of those writes are recorded too (`.memory/temp-files.jsonl`, with the
 * writer's pid): after a crash only those exact files are removed, never files that merely
 * look like temp files.
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { writeFilesAtomic } from "./atomic.js";
import { MembankError, withPath } from "./errors.js";
import { isMemoryPath, isReadOnlyFile } from "./files.js";
import { processAlive } from "./pid.js";
import { decodeMemoryText } from "./text-file.js";
import { stateDir, type Workspace } from "./workspace.js";

export interface PendingWrite {
  /** Workspace-relative, `/` separators. */
  path: string;
  /** Content hash before membank's write; null: the file did not exist. */
  base: string | null;
  /** Content hash of what membank wrote. */
  sha: string;
}

/** Recorded after a commit was made and before the user's index was brought in line with it. */
export interface PendingSync {
  sync: string[];
  commit: string;
}

export type JournalLine = PendingWrite | PendingSync;

const pendingFile = (ws: Workspace) => path.join(stateDir(ws), "pending-writes.jsonl");
const tempFile = (ws: Workspace) => path.join(stateDir(ws), "temp-files.jsonl");

/**
 * Hash of a file's text with CRLF read as LF: a checkout with core.autocrlf holds CRLF
 * where HEAD's blob holds LF, and that is the same content.
 */
export function contentHash(content: string | Buffer): string {
  // Bytes that are valid UTF-8 with no CR are hashed as they are: the same digest as their
  // text's, without decoding and re-encoding (the commit step hashes ~30 pages of up to 1 MB).
  if (typeof content !== "string" && !content.includes(13) && isUtf8(content)) {
    return createHash("sha256").update(content).digest("hex").slice(0, 32);
  }
  const text = typeof content === "string" ? content : content.toString("utf8");
  return createHash("sha256").update(text.replace(/\r\n/g, "\n")).digest("hex").slice(0, 32);
}

/** The hash of a workspace file's content now, or null when there is no such file. */
export async function fileHash(ws: Workspace, rel: string): Promise<string | null> {
  try {
    return contentHash(await readFile(path.join(ws.root, rel)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The hash of a file membank is about to replace, or null when there is none. Throws when the
 * file holds bytes that are not UTF-8 (a page edited in a Latin-1 or UTF-16 editor): membank
 * reads it as text and writes text back, so the person's own characters would become U+FFFD.
 */
async function replaceableHash(ws: Workspace, rel: string): Promise<string | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(ws.root, rel));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw withPath(error, path.join(ws.root, rel));
  }
  if (!isUtf8(bytes)) {
    const m = decodeMemoryText(bytes);
    const bad = m.invalid;
    const what = m.utf16
      ? "saved as UTF-16, not UTF-8"
      : m.windows1252
        ? 'saved as Windows-1252 ("ANSI"), not UTF-8'
        : `not valid UTF-8 (byte 0x${(bad?.byte ?? 0).toString(16).toUpperCase().padStart(2, "0")})`;
    throw new MembankError(
      `${rel}:${bad?.line ?? 1}: ${what}; membank would turn your characters there into U+FFFD, so it wrote nothing: save the file as UTF-8 and run again`,
      { code: "ENOTUTF8" },
    );
  }
  return contentHash(bytes);
}

async function appendDurably(file: string, text: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const fh = await open(file, "a");
  try {
    await fh.write(text);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

export interface OwnedWrite {
  /** Workspace-relative path. */
  path: string;
  content: string;
  /**
   * The text the caller read the file as and made `content` from. A file that holds other
   * text by the time of the write was saved meanwhile (the person's editor, an agent): then
   * nothing at all is written (ECHANGED), so their words are not replaced by a stale render.
   */
  expect?: string | undefined;
}

/** The first file of `files` whose bytes now (`hashes`, in the same order) are not what its caller read. */
function savedMeanwhile(files: readonly OwnedWrite[], hashes: readonly (string | null)[]): string | undefined {
  return files.find((f, i) => f.expect !== undefined && hashes[i] !== contentHash(f.expect))?.path;
}

function changedError(rel: string): MembankError {
  return new MembankError(
    `${rel} changed while membank was working on it (saved by you or an agent during this run): membank wrote nothing, so your text is kept; the next run updates the file around it`,
    { code: "ECHANGED" },
  );
}

/**
 * Write workspace files atomically (temp file + fsync + rename), recording them as
 * membank's when `record` is true (default: when commits are on, reflect.git.commit): a
 * later commit takes them. The journal entries are durable before any file changes.
 */
export async function writeOwnedFiles(
  ws: Workspace,
  files: readonly OwnedWrite[],
  opts: { record?: boolean } = {},
): Promise<void> {
  if (files.length === 0) return;
  // A rename replaces a file whatever its mode: a file its user made read-only is refused here,
  // before anything is written (reflect and the session digests leave such files out first).
  const frozen = files.find((f) => isReadOnlyFile(path.join(ws.root, f.path)));
  if (frozen !== undefined) {
    throw new MembankError(
      `${frozen.path} is read-only, so membank wrote nothing: to hand it back to membank: chmod u+w ${frozen.path}`,
      { code: "EREADONLY" },
    );
  }
  const bases: (string | null)[] = [];
  for (const f of files) bases.push(await replaceableHash(ws, f.path));
  const early = savedMeanwhile(files, bases);
  if (early !== undefined) throw changedError(early);
  const tempLog = tempFile(ws);
  const abs = files.map((f) => ({ file: path.join(ws.root, f.path), content: f.content }));
  for (const f of abs) mkdirSync(path.dirname(f.file), { recursive: true });
  await writeFilesAtomic(abs, {
    beforeRename: async () => {
      // Checked again once the temp files are written (the fsyncs of many pages take a while).
      if (files.some((f) => f.expect !== undefined)) {
        const now = await Promise.all(files.map((f) => (f.expect === undefined ? null : replaceableHash(ws, f.path))));
        const late = savedMeanwhile(files, now);
        if (late !== undefined) throw changedError(late);
      }
      // Recorded before any file is replaced: a run killed after a rename still commits it.
      if (opts.record ?? ws.config.reflect.git.commit) {
        const lines = files.map((f, i) =>
          JSON.stringify({ path: f.path, base: bases[i]!, sha: contentHash(f.content) }),
        );
        await appendDurably(pendingFile(ws), `${lines.join("\n")}\n`);
      }
    },
    onTemp: (tmp) => {
      // Not fsynced: a lost record only leaves a temp file behind, it never removes one.
      mkdirSync(path.dirname(tempLog), { recursive: true });
      appendFileSync(tempLog, `${JSON.stringify({ tmp: path.relative(ws.root, tmp), pid: process.pid })}\n`);
    },
  });
}

/** Write one workspace file; see writeOwnedFiles. */
export function writeOwnedFile(
  ws: Workspace,
  rel: string,
  content: string,
  opts: { record?: boolean } = {},
): Promise<void> {
  return writeOwnedFiles(ws, [{ path: rel, content }], opts);
}

async function readLines(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A line cut short by a crash: it was never followed by a write.
    }
  }
  return out;
}

/** The pending journal, oldest first. */
export async function readPendingWrites(ws: Workspace): Promise<JournalLine[]> {
  return (await readLines(pendingFile(ws))).filter(
    (l): l is JournalLine =>
      typeof l === "object" &&
      l !== null &&
      // Only memory files: a tampered journal must never make membank commit anything else.
      ((typeof (l as PendingWrite).path === "string" &&
        typeof (l as PendingWrite).sha === "string" &&
        isMemoryPath((l as PendingWrite).path) &&
        !(l as PendingWrite).path.split("/").includes("..")) ||
        (Array.isArray((l as PendingSync).sync) && (l as PendingSync).sync.every((p) => typeof p === "string"))),
  );
}

/** Replace the pending journal (empty: remove it). */
export async function replacePendingWrites(ws: Workspace, lines: readonly JournalLine[]): Promise<void> {
  await rewriteDurably(
    pendingFile(ws),
    lines.map((l) => JSON.stringify(l)),
  );
}

/** Replace a journal's lines: a whole new file renamed over the old one. */
async function rewriteDurably(file: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) {
    await rm(file, { force: true });
    return;
  }
  const tmp = `${file}.next`;
  await rm(tmp, { force: true });
  await appendDurably(tmp, `${lines.join("\n")}\n`);
  await rename(tmp, file);
}

/** Append lines to the pending journal (durable). */
export async function appendPendingWrites(ws: Workspace, lines: readonly JournalLine[]): Promise<void> {
  if (lines.length === 0) return;
  await appendDurably(pendingFile(ws), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

/**
 * Remove the temp files that membank's own interrupted writes left (recorded in
 * .memory/temp-files.jsonl by a process that is gone), and nothing else. Returns them.
 */
export async function removeRecordedTempFiles(ws: Workspace): Promise<string[]> {
  const file = tempFile(ws);
  const records = (await readLines(file)).filter(
    (r): r is { tmp: string; pid: number } =>
      typeof r === "object" && r !== null && typeof (r as { tmp: unknown }).tmp === "string",
  );
  if (records.length === 0) return [];
  const removed: string[] = [];
  const keep: string[] = [];
  for (const r of records) {
    const abs = path.resolve(ws.root, r.tmp);
    let present = true;
    try {
      await stat(abs);
    } catch {
      present = false;
    }
    if (!present) continue;
    if (processAlive(r.pid)) {
      keep.push(JSON.stringify(r));
      continue;
    }
    await rm(abs, { force: true });
    removed.push(r.tmp.split(path.sep).join("/"));
  }
  await rewriteDurably(file, keep);
  return removed.sort();
}
