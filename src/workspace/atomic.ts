import { mkdir } from "node:fs/promises";
import path from "node:path";
import writeFileAtomicLib from "write-file-atomic";

/**
 * Write a file so that a crash at any moment leaves either the old or the new content:
 * write-file-atomic writes a temp file beside it, fsyncs, then renames over it.
 */
export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomicLib(file, content, { fsync: true });
}
