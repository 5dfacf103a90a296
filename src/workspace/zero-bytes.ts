/**
 * Zero bytes in a memory file: a long run is what a crash leaves where a block of text never
 * reached the disk (the words there are gone); a stray few amid the text are no one's words
 * and too short to be a lost block, so the text around them is read without them.
 */

/** Zero bytes (at the end of a file, or in a run inside it) that make them a crash's leftover, not a stray few. */
export const ZERO_TAIL_MIN = 16;

type ZeroRuns = { line: number; bytes: number; lines: number[] };

/** The length of the line break at `i` (2 for \r\n, 1 for \n or \r, else 0): lines as splitLines counts them. */
export function lineBreakAt(buf: Uint8Array, i: number): number {
  const b = buf[i];
  if (b === 0x0a) return 1;
  return b === 0x0d ? (buf[i + 1] === 0x0a ? 2 : 1) : 0;
}

/**
 * The runs of zero bytes of a file, by line as splitLines counts them: those of ZERO_TAIL_MIN or
 * more (see MemoryText.zeroedRun), the shorter ones when they are a stray few (fewer than
 * ZERO_TAIL_MIN in all: strayZeros), and the bytes without those.
 */
export function zeroRuns(buf: Uint8Array): { long?: ZeroRuns | undefined; short?: ZeroRuns; kept: Uint8Array } {
  let line = 1;
  const found: { long?: ZeroRuns; short?: ZeroRuns } = {};
  const kept: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < buf.length; ) {
    const br = lineBreakAt(buf, i);
    if (br > 0) {
      line++;
      i += br;
      continue;
    }
    const b = buf[i]!;
    if (b !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < buf.length && buf[end] === 0) end++;
    const kind = end - i >= ZERO_TAIL_MIN ? "long" : "short";
    const runs = found[kind] ?? { line, bytes: 0, lines: [] };
    found[kind] = runs;
    if (kind === "short") {
      runs.bytes += end - i;
      kept.push(buf.subarray(from, i));
      from = end;
    } else if (runs.lines.length === 0) runs.bytes = end - i;
    if (runs.lines[runs.lines.length - 1] !== line) runs.lines.push(line);
    i = end;
  }
  kept.push(buf.subarray(from));
  // Zeros all through the file (UTF-32, UTF-16 without its mark, a binary file) are no stray few: kept, as before.
  if (found.short === undefined || found.short.bytes >= ZERO_TAIL_MIN || utf32Mark(buf))
    return { long: found.long, kept: buf };
  return { ...found, kept: Buffer.concat(kept) };
}

/** UTF-32's little-endian byte order mark (FF FE 00 00): its zeros are the encoding's. */
const utf32Mark = (buf: Uint8Array) => buf[0] === 0xff && buf[1] === 0xfe && buf[2] === 0 && buf[3] === 0;
