import { readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { decodeWindows1252, isWindows1252 } from "./windows-1252.js";
import { lineBreakAt, ZERO_TAIL_MIN, zeroRuns } from "./zero-bytes.js";

/**
 * The one home of how a memory file's bytes become text, for retain and the index: a
 * size limit (a 2 GB log must not crash a run, nor be re-read by every search) and a
 * UTF-8 check (Latin-1 bytes would silently become U+FFFD).
 */
export const MAX_MEMORY_FILE_BYTES = 16 * 1024 * 1024;

export interface MemoryText {
  /** The text, bad bytes read as U+FFFD; "" when the file was too large to read. */
  text: string;
  /** Set when the file is over MAX_MEMORY_FILE_BYTES: its size; nothing was read. */
  tooLarge?: number;
  /**
   * Set when the file is nothing but zero bytes (its size): what a crash or power loss leaves
   * of a file being written on ext4/XFS. Nothing was read: the words are gone from the disk.
   */
  zeroed?: number;
  /**
   * Set when the file ends in a run of zero bytes (its length, at least ZERO_TAIL_MIN): what a
   * crash or power loss leaves of a file being appended to (its size was saved, its last blocks
   * were not). The text is what comes before them; the words of that tail are gone from the disk.
   */
  zeroedTail?: number;
  /**
   * Set when a run of zero bytes (at least ZERO_TAIL_MIN) sits inside the text: a block of the
   * file that never reached the disk (a crash while it was rewritten). The first run's line and
   * length, and every line a run touches: the words there are gone, facts there are not read.
   */
  zeroedRun?: { line: number; bytes: number; lines: number[] };
  /**
   * Set when the file holds a few zero bytes (runs shorter than ZERO_TAIL_MIN) amid its text: a
   * byte no one types (a tool's stray write, a sync's merge), too short to be a lost block of the
   * disk, so the words around it are the person's. The text is read without them (a fact on
   * their line is read as written, not skipped); their first line, count, and every such line.
   */
  strayZeros?: { line: number; bytes: number; lines: number[] };
  /** Set when the file is a Git LFS pointer (git-lfs not installed, or not pulled): the text is elsewhere. */
  lfsPointer?: true;
  /**
   * Set when the file is UTF-16 with a byte order mark (Notepad's "Unicode"): the text was read
   * from it, but anything that writes text into the file must leave it alone (appending UTF-8
   * bytes would garble it). Check the bytes with isUtf8 before writing, as every writer does.
   */
  utf16?: "le" | "be";
  /**
   * Set when the file is not UTF-8 but reads as Windows-1252 ("ANSI", an old Windows editor's
   * default; see isWindows1252): the text was read as that, and, as for UTF-16, nothing may
   * write text into the file (isUtf8 says no, so no writer does).
   */
  windows1252?: true;
  /** Set when some bytes are not UTF-8 (or, in a UTF-16 file, not UTF-16): the first one, and every line that has one (1-based). */
  invalid?: { line: number; byte: number; lines: number[] };
}

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");
/** Length of a valid UTF-8 sequence at `i`, or 0 when the byte there starts none (RFC 3629). */
function sequenceLength(buf: Uint8Array, i: number): number {
  const b = buf[i]!;
  if (b < 0x80) return 1;
  const [n, lo, hi] =
    b >= 0xc2 && b <= 0xdf
      ? [2, 0x80, 0xbf]
      : b === 0xe0
        ? [3, 0xa0, 0xbf]
        : b === 0xed
          ? [3, 0x80, 0x9f]
          : b >= 0xe1 && b <= 0xef
            ? [3, 0x80, 0xbf]
            : b === 0xf0
              ? [4, 0x90, 0xbf]
              : b === 0xf4
                ? [4, 0x80, 0x8f]
                : b >= 0xf1 && b <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : [0, 0, 0];
  if (n === 0 || i + n > buf.length) return 0;
  if (buf[i + 1]! < lo || buf[i + 1]! > hi) return 0;
  for (let k = 2; k < n; k++) if (buf[i + k]! < 0x80 || buf[i + k]! > 0xbf) return 0;
  return n;
}

/** Lines (split like splitLines: \r\n, \r, \n) that hold bytes that are not UTF-8. */
function invalidBytes(buf: Uint8Array): MemoryText["invalid"] {
  let line = 1;
  let first: { line: number; byte: number } | undefined;
  const lines: number[] = [];
  for (let i = 0; i < buf.length; ) {
    const br = lineBreakAt(buf, i);
    if (br > 0) {
      line++;
      i += br;
      continue;
    }
    const b = buf[i]!;
    const n = sequenceLength(buf, i);
    if (n > 0) {
      i += n;
      continue;
    }
    first ??= { line, byte: b };
    if (lines[lines.length - 1] !== line) lines.push(line);
    i++;
  }
  return first && { ...first, lines };
}

/** A Git LFS pointer file (the LFS spec): its first line, then an oid line. */
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\r?\noid sha256:[0-9a-f]{64}\r?\n/;

/** Decode a memory file's bytes (see MemoryText). */
export function decodeMemoryText(buf: Uint8Array): MemoryText {
  // No text starts with a zero byte: only then is the whole file looked at.
  if (buf[0] === 0 && buf.every((b) => b === 0)) return { text: "", zeroed: buf.length };
  if (buf[buf.length - 1] === 0) {
    let start = buf.length;
    while (start > 0 && buf[start - 1] === 0) start--;
    if (buf.length - start >= ZERO_TAIL_MIN)
      return { ...decodeMemoryText(buf.subarray(0, start)), zeroedTail: buf.length - start };
  }
  if (buf.length < 1024 && LFS_POINTER.test(Buffer.from(buf).toString("latin1"))) return { text: "", lfsPointer: true };
  const utf16 = utf16Bom(buf);
  if (utf16 !== undefined) return decodeUtf16(buf, utf16);
  if (buf.indexOf(0) < 0) return decodeUtf8(buf);
  // A long run's zeros stay in the text: a line holding one is never a fact (retain's
  // control-character rule). A stray few are read around (see MemoryText.strayZeros).
  const { long: zeroedRun, short: strayZeros, kept } = zeroRuns(buf);
  const m = decodeUtf8(kept);
  return {
    ...m,
    ...(zeroedRun === undefined ? {} : { zeroedRun }),
    ...(strayZeros === undefined ? {} : { strayZeros }),
  };
}

/** A file without a byte order mark: UTF-8, else Windows-1252 when it is that (isWindows1252), else UTF-8 with its bad lines marked. */
function decodeUtf8(buf: Uint8Array): MemoryText {
  try {
    return { text: strict.decode(buf) };
  } catch {
    if (isWindows1252(buf)) return { text: decodeWindows1252(buf), windows1252: true };
    const invalid = invalidBytes(buf);
    return invalid ? { text: lenient.decode(buf), invalid } : { text: lenient.decode(buf) };
  }
}

/** The byte order of a UTF-16 file by its byte order mark (not UTF-32's FF FE 00 00), or undefined. */
function utf16Bom(buf: Uint8Array): "le" | "be" | undefined {
  if (buf[0] === 0xff && buf[1] === 0xfe && !(buf[2] === 0 && buf[3] === 0)) return "le";
  if (buf[0] === 0xfe && buf[1] === 0xff) return "be";
  return undefined;
}

/**
 * A UTF-16 file's text (the mark dropped, as for UTF-8's). A lone surrogate or an odd last byte
 * (a file cut mid-character) reads as U+FFFD, and its line is marked invalid like a bad UTF-8 byte.
 */
function decodeUtf16(buf: Uint8Array, order: "le" | "be"): MemoryText {
  try {
    return { text: new TextDecoder(`utf-16${order}`, { fatal: true }).decode(buf), utf16: order };
  } catch {
    const text = decodeText(buf);
    // Lines as splitLines counts them; a U+FFFD the person wrote is rare enough to be marked too.
    const lines = text.split(/\r\n|\r|\n/).flatMap((l, i) => (l.includes("\uFFFD") ? [i + 1] : []));
    if (lines.length === 0) return { text, utf16: order };
    return { text, utf16: order, invalid: { line: lines[0]!, byte: firstBadUnit(buf, order), lines } };
  }
}

/** The first byte of the first code unit that is not UTF-16 (an unpaired surrogate's high byte, or a lone last byte). */
function firstBadUnit(buf: Uint8Array, order: "le" | "be"): number {
  const unit = (i: number) => (order === "le" ? buf[i]! | (buf[i + 1]! << 8) : (buf[i]! << 8) | buf[i + 1]!);
  for (let i = 2; i + 1 < buf.length; i += 2) {
    const u = unit(i);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 3 < buf.length ? unit(i + 2) : -1;
      if (next >= 0xdc00 && next <= 0xdfff) i += 2;
      else return u >> 8;
    } else if (u >= 0xdc00 && u <= 0xdfff) return u >> 8;
  }
  return buf[buf.length - 1]!;
}

/**
 * The text of a file's bytes, as everything that reads a memory file sees it: UTF-16 by its byte
 * order mark, else UTF-8, else Windows-1252 when it is that (isWindows1252), else UTF-8 with
 * bad bytes as U+FFFD; a mark is dropped.
 */
export function decodeText(buf: Uint8Array): string {
  const utf16 = utf16Bom(buf);
  return utf16 === undefined ? decodeUtf8(buf).text : new TextDecoder(`utf-16${utf16}`).decode(buf);
}

/** How many times a file that changes while it is read is read again before its unfinished last line is left out. */
const READ_TRIES = 5;
/**
 * A last line without its line break, in a file written less than this long ago, may be an
 * append half-way done (an agent writing a line in two pieces): it is given this long to be
 * finished before it is read as it is.
 */
export const SETTLE_MS = 500;

type FileStamp = { size: number; mtimeMs: number; ino: number };
const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** A read of `bytes` between two stats of the file: its text, "changed" (read again), or how long to wait for a last line to be finished (never without `now`). */
function judgeRead(before: FileStamp, bytes: Buffer, after: FileStamp, now?: number): MemoryText | "changed" | number {
  if (!sameStamp(before, after) || bytes.length !== after.size) return "changed";
  const m = decodeMemoryText(bytes);
  if (now === undefined || m.text === "" || /[\r\n]$/.test(m.text)) return m;
  // mtimeMs has a fraction and Date.now() none: a write in this very millisecond looks a little
  // in the future. A clock set a second or more apart (a synced file) is no reason to wait.
  const age = now - after.mtimeMs;
  return age > -1000 && age < SETTLE_MS ? Math.min(SETTLE_MS, SETTLE_MS - age) : m;
}

/** `bytes` (a file still changing after READ_TRIES reads) up to its last line break: a half-written line waits for the next run. */
function completeLines(bytes: Buffer): MemoryText {
  const m = decodeMemoryText(bytes);
  const end = Math.max(m.text.lastIndexOf("\n"), m.text.lastIndexOf("\r")) + 1;
  return { ...m, text: m.text.slice(0, end) };
}

/**
 * Read a memory file (see MemoryText); a file over the limit is not read at all. The read is
 * one state of the file: when it changed while read (an agent appending), it is read again,
 * so no line is ever cut half-way (see SETTLE_MS for a last line still being written).
 */
export async function readMemoryText(file: string): Promise<MemoryText> {
  let bytes = Buffer.alloc(0);
  for (let i = 0; i < READ_TRIES; i++) {
    try {
      const before = await stat(file);
      if (before.size > MAX_MEMORY_FILE_BYTES) return { text: "", tooLarge: before.size };
      bytes = await readFile(file);
      const after = await stat(file);
      const judged = judgeRead(before, bytes, after, fileWaits.now());
      if (judged === "changed") continue;
      if (typeof judged !== "number") return judged;
      await sleep(judged);
      if (sameStamp(after, await stat(file))) return decodeMemoryText(bytes);
    } catch (error) {
      // Gone for a moment: an editor saving by rename (vim, many others) moves the file away
      // and writes it anew. Gone for good after READ_TRIES waits: the caller says so.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || i === READ_TRIES - 1) throw error;
      await sleep(GONE_WAIT_MS);
    }
  }
  return completeLines(bytes);
}

/** How long a file gone while it is read is waited for, each of READ_TRIES times. */
export const GONE_WAIT_MS = 100;

/**
 * Every wait on a file that is being written (a last line still being written, a file moved
 * away for a moment by an editor's save): a timer, and the clock a file's age is judged by.
 * A test finishes the write here instead of racing a writer, and fixes "now" so a loaded
 * machine's slow start does not make a file written "just now" look settled.
 */
export const fileWaits = {
  wait: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
  now: (): number => Date.now(),
};
const sleep = (ms: number) => fileWaits.wait(ms);

/**
 * `readMemoryText`, synchronously (the index applies files inside one transaction): read again
 * when the file changed while read, but never waited on. The index reads the files written
 * less than SETTLE_MS ago with readMemoryText before its transaction (index/apply.ts
 * readRecentFiles), so only older ones, whose last line is not waited for anyway, come here.
 */
export function readMemoryTextSync(file: string): MemoryText {
  let bytes = Buffer.alloc(0);
  for (let i = 0; i < READ_TRIES; i++) {
    const before = statSync(file);
    if (before.size > MAX_MEMORY_FILE_BYTES) return { text: "", tooLarge: before.size };
    bytes = readFileSync(file);
    const judged = judgeRead(before, bytes, statSync(file));
    if (judged !== "changed") return judged as MemoryText;
  }
  return completeLines(bytes);
}

/** What is wrong with a memory file, as `line: reason` diagnostics (none for a clean file). */
export function memoryTextProblems(m: MemoryText): { line: number; reason: string }[] {
  if (m.tooLarge !== undefined) {
    return [
      {
        line: 1,
        reason: `file is ${m.tooLarge} bytes, over the ${MAX_MEMORY_FILE_BYTES}-byte (16 MiB) limit: not read; split it into smaller files`,
      },
    ];
  }
  if (m.zeroed !== undefined) {
    return [
      {
        line: 1,
        reason:
          `holds only zero bytes (${m.zeroed} of them; what a crash or power loss leaves of a file being written): ` +
          "nothing in it is read; restore it from git (git checkout -- <file>) or a backup",
      },
    ];
  }
  if (m.lfsPointer) {
    return [
      {
        line: 1,
        reason:
          "is a Git LFS pointer, not the file's text (git-lfs is not installed here, or the file was not pulled): " +
          "nothing in it is read; install git-lfs and run git lfs pull",
      },
    ];
  }
  const tail =
    m.zeroedTail === undefined
      ? []
      : [
          {
            line: m.text.split(/\r\n|\r|\n/).length,
            reason:
              `ends in ${m.zeroedTail} zero bytes (what a crash or power loss leaves of a file being appended to): ` +
              "what was written there is gone from the disk, the rest is read; restore the file from git or a backup if you can, else cut the zero bytes off",
          },
        ];
  if (m.zeroedRun !== undefined) {
    tail.unshift({
      line: m.zeroedRun.line,
      reason:
        `holds ${m.zeroedRun.bytes} zero bytes where text was (what a crash or power loss leaves of a file being rewritten; ` +
        `${m.zeroedRun.lines.length} line(s) in all): what was written there is gone from the disk, facts there are not read; ` +
        "restore the file from git (git checkout -- <file>) or a backup",
    });
  }
  if (m.strayZeros !== undefined) {
    const { line, bytes, lines } = m.strayZeros;
    tail.push({
      line,
      reason:
        `holds ${bytes === 1 ? "a zero byte" : `${bytes} zero bytes`} amid its text (${lines.length} line(s) in all; ` +
        "no one types one: a tool's or a sync's stray write): read without them; remove them in your editor",
    });
  }
  if (m.windows1252) {
    return [
      {
        line: 1,
        reason:
          'saved as Windows-1252 ("ANSI"), not UTF-8: read as Windows-1252, and membank writes nothing into it; ' +
          "save it as UTF-8 in your editor, or: iconv -f WINDOWS-1252 -t UTF-8 <file> > <file>.new && mv <file>.new <file>",
      },
      ...tail,
    ];
  }
  if (m.invalid) {
    const hex = m.invalid.byte.toString(16).toUpperCase().padStart(2, "0");
    return [
      {
        line: m.invalid.line,
        reason: `not valid ${m.utf16 ? "UTF-16" : "UTF-8"} (byte 0x${hex}, ${m.invalid.lines.length} line(s) in all): read with the bad bytes as U+FFFD, facts on those lines skipped; save the file as UTF-8`,
      },
      ...tail,
    ];
  }
  return tail;
}
