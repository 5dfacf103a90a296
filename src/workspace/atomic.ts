import { randomBytes } from "node:crypto";
import { mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** Called with the temp file's path just before it is created (membank records it, see owned.ts). */
  onTemp?: (tmp: string) => void;
  /**
   * false: no fsyncs. Still atomic against a kill or a crash of membank (old or whole new
   * content, the rename is); only a power loss may lose the write. For progress notes whose
   * loss costs nothing (a run record between steps); ~16 ms of wall per write on a busy disk.
   */
  durable?: boolean;
  /**
   * writeFilesAtomic: called once every temp file is written, just before the first rename; a
   * throw there changes no file (the temp files are removed). The last moment to check that
   * the files still hold what the new content was made from (owned.ts).
   */
  beforeRename?: () => Promise<void>;
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
  await writeFilesAtomic([{ file, content }], opts);
}

/** Temp files written at once while a batch is prepared (each holds a file handle). */
const PARALLEL = 16;

/**
 * writeFileAtomic for many files, each atomic on its own (old or whole new content), with
 * the fsyncs overlapped: every temp file is written and fsynced (up to PARALLEL at once),
 * then all are renamed, then each folder is fsynced once. A nightly writes ~70 pages; one
 * after the other that was 140 fsyncs in a row, seconds on a busy disk. A failure before
 * the renames changes no file; a failure during them leaves the files renamed so far (each
 * whole), as a crash between two writeFileAtomic calls would.
 */
export async function writeFilesAtomic(
  files: readonly { file: string; content: string | Buffer }[],
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const prepared: ({ file: string; tmp: string; target: string } | undefined)[] = files.map(() => undefined);
  const temps = new Set<string>();
  let current = "";
  try {
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < files.length) {
        const i = next++;
        const { file, content } = files[i]!;
        try {
          prepared[i] = { file, ...(await writeTemp(file, content, opts, temps)) };
        } catch (error) {
          failed = true;
          throw namingFile(error, file);
        }
      }
    };
    // Settled, not raced: every worker has stopped before the temp files are cleaned up.
    const done = await Promise.allSettled(Array.from({ length: Math.min(PARALLEL, files.length) }, worker));
    const failure = done.find((d) => d.status === "rejected");
    if (failure) throw failure.reason;
    await opts.beforeRename?.();
    const dirs = new Set<string>();
    for (const p of prepared) {
      current = p!.file;
      await rename(p!.tmp, p!.target);
      temps.delete(p!.tmp);
      dirs.add(path.dirname(p!.target));
    }
    if (opts.durable !== false) for (const dir of dirs) await syncDir(dir);
  } catch (error) {
    for (const tmp of temps) await rm(tmp, { force: true }).catch(() => undefined);
    throw current === "" ? error : namingFile(error, current);
  }
}

/** A fully written, fsynced temp file beside `file`'s target (a link is followed). */
async function writeTemp(
  file: string,
  content: string | Buffer,
  opts: AtomicWriteOptions,
  temps: Set<string>,
): Promise<{ tmp: string; target: string }> {
  await mkdir(path.dirname(file), { recursive: true });
  const target = await realpath(file).catch(() => file);
  // An existing file keeps its exact mode: open() masks it with the umask, and cron's or a
  // hardened shell's `umask 077` would take the group's and others' read of a page away.
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const tmp = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  // Said before it exists: a kill between the open and a later record would leave a temp
  // file nobody knows about (with several opens in flight, several of them).
  opts.onTemp?.(tmp);
  const fh = await open(tmp, "wx", mode ?? 0o666);
  temps.add(tmp);
  try {
    if (mode !== undefined) await fh.chmod(mode);
    // FileHandle.writeFile loops until every byte is written, or throws (ENOSPC, EFBIG).
    await fh.writeFile(content);
    if (opts.durable !== false) await fh.sync();
  } finally {
    await fh.close();
  }
  return { tmp, target };
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
