import { randomBytes } from "node:crypto";
import { mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** Called with the temp file's path as soon as it exists (membank records it, see owned.ts). */
  onTemp?: (tmp: string) => void;
}

/**
 * Write a file so that a crash or a full disk at any moment leaves either the old or the
 * whole new content: a temp file beside it is written in full, fsynced, then renamed over
 * it, and the folder is fsynced. (write-file-atomic, used before, ignores short writes: with
 * the disk full or a file-size limit it renamed a truncated temp file over a good page.)
 * A link is followed, so the file it points at is replaced, not the link.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Buffer,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  let tmp: string | undefined;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const target = await realpath(file).catch(() => file);
    const mode = await stat(target).then(
      (s) => s.mode & 0o7777,
      () => 0o666,
    );
    tmp = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    const fh = await open(tmp, "wx", mode);
    opts.onTemp?.(tmp);
    try {
      // FileHandle.writeFile loops until every byte is written, or throws (ENOSPC, EFBIG).
      await fh.writeFile(content);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
    tmp = undefined;
    await syncDir(path.dirname(target));
  } catch (error) {
    if (tmp !== undefined) await rm(tmp, { force: true }).catch(() => undefined);
    throw namingFile(error, file);
  }
}

/** Make a rename durable; some file systems refuse fsync on folders, which is fine. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort
  }
}

/**
 * A write's error names the file it was for: fs.write's ENOSPC/EFBIG carry no path, and
 * "no space left while writing a file" tells a user nothing.
 */
export function namingFile(error: unknown, file: string): unknown {
  if (error && typeof error === "object" && typeof (error as { path?: unknown }).path !== "string")
    (error as { path?: string }).path = file;
  return error;
}
