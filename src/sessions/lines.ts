import { createReadStream } from "node:fs";
import { LINE_MAX_BYTES } from "./limits.js";

/** A complete line of a file: its text (undefined when over the limit) and its size in bytes, newline excluded. */
export interface FileLine {
  text: string | undefined;
  bytes: number;
}

/**
 * The complete lines of a file from byte `offset`, read as a stream: memory stays at one
 * read buffer plus one line, whatever the file's size. A last line without a newline may
 * still be being written, so it is not yielded. Byte sizes are exact (the ingestion state
 * resumes at a byte offset), which is why this splits Buffers itself rather than using
 * node:readline (strings, and CR/LF folded away). A line longer than `maxLine` is not
 * buffered: it is yielded with `text` undefined once its newline is found.
 */
export function fileLines(file: string, offset: number, maxLine = LINE_MAX_BYTES): AsyncGenerator<FileLine> {
  return chunkLines(
    createReadStream(file, { start: offset, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>,
    maxLine,
  );
}

/** The complete lines of a stream of chunks (see fileLines): also used for decompressed archives. */
export async function* chunkLines(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  maxLine = LINE_MAX_BYTES,
): AsyncGenerator<FileLine> {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;
  for await (const chunk of chunks) {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      const end = nl < 0 ? chunk.length : nl;
      const size = end - pos;
      if (!overflow && pendingBytes + size > maxLine) {
        overflow = true;
        pending.length = 0;
      }
      if (!overflow && size > 0) pending.push(chunk.subarray(pos, end));
      pendingBytes += size;
      if (nl < 0) break;
      const text = overflow
        ? undefined
        : pending.length === 1
          ? (pending[0] as Buffer).toString("utf8")
          : Buffer.concat(pending, pendingBytes).toString("utf8");
      yield { text, bytes: pendingBytes };
      pending.length = 0;
      pendingBytes = 0;
      overflow = false;
      pos = nl + 1;
    }
  }
}
