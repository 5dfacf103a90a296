import { Decompress } from "fzstd";

/**
 * Largest decompressed archive read into memory: OpenClaw's own bound for a cold archive
 * (MAX_COLD_ARCHIVE_BYTES in openclaw@2026.9.6). A bigger one is reported, not read.
 */
export const ZSTD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Decompress zstd frames (OpenClaw writes them with node:zlib; fzstd is pure JS, so this works
 * on Node 20 too). Throws a one-line reason on corrupt data or output over `max` bytes.
 */
export function unzstd(bytes: Uint8Array, max = ZSTD_MAX_BYTES): Buffer {
  const parts: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > max) throw new Error(`decompresses to over ${Math.ceil(max / 1048576)} MB`);
    parts.push(chunk);
  });
  try {
    stream.push(bytes, true);
  } catch (error) {
    const msg = (error as Error).message;
    throw new Error(msg.startsWith("decompresses") ? msg : `not valid zstd data (${msg})`);
  }
  return Buffer.concat(parts, total);
}
