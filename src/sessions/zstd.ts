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

/**
 * Decompressed content from byte `offset` on, a piece at a time: an archive of any size is read
 * in bounded memory (the compressed bytes plus one piece). Throws like unzstd on corrupt data.
 */
export function* zstdChunks(bytes: Uint8Array, offset = 0, inputPiece = 64 * 1024): Generator<Buffer> {
  const out: Uint8Array[] = [];
  const stream = new Decompress((chunk) => {
    out.push(chunk);
  });
  let skip = offset;
  for (let pos = 0; pos < bytes.length || pos === 0; pos += inputPiece) {
    const end = Math.min(bytes.length, pos + inputPiece);
    try {
      stream.push(bytes.subarray(pos, end), end >= bytes.length);
    } catch (error) {
      throw new Error(`not valid zstd data (${(error as Error).message})`);
    }
    for (const c of out.splice(0)) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      yield Buffer.from(c.buffer, c.byteOffset + skip, c.length - skip);
      skip = 0;
    }
    if (end >= bytes.length) break;
  }
}
