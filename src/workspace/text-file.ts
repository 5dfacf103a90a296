import { readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";

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
  /** Set when the file is a Git LFS pointer (git-lfs not installed, or not pulled): the text is elsewhere. */
  lfsPointer?: true;
  /** Set when some bytes are not UTF-8: the first one, and every line that has one (1-based). */
  invalid?: { line: number; byte: number; lines: number[]; utf16?: "FF 0xFE" | "FE 0xFF" };
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
    const b = buf[i]!;
    if (b === 0x0a || b === 0x0d) {
      line++;
      i += b === 0x0d && buf[i + 1] === 0x0a ? 2 : 1;
      continue;
    }
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
  if (buf.length < 1024 && LFS_POINTER.test(Buffer.from(buf).toString("latin1"))) return { text: "", lfsPointer: true };
  try {
    return { text: strict.decode(buf) };
  } catch {
    const invalid = invalidBytes(buf);
    const bom =
      buf[0] === 0xff && buf[1] === 0xfe ? "FF 0xFE" : buf[0] === 0xfe && buf[1] === 0xff ? "FE 0xFF" : undefined;
    if (invalid && bom) invalid.utf16 = bom;
    return invalid ? { text: lenient.decode(buf), invalid } : { text: lenient.decode(buf) };
  }
}

/** Read a memory file (see MemoryText); a file over the limit is not read at all. */
export async function readMemoryText(file: string): Promise<MemoryText> {
  const { size } = await stat(file);
  if (size > MAX_MEMORY_FILE_BYTES) return { text: "", tooLarge: size };
  return decodeMemoryText(await readFile(file));
}

/** `readMemoryText`, synchronously (the index applies files inside one transaction). */
export function readMemoryTextSync(file: string): MemoryText {
  const { size } = statSync(file);
  if (size > MAX_MEMORY_FILE_BYTES) return { text: "", tooLarge: size };
  return decodeMemoryText(readFileSync(file));
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
  if (m.invalid?.utf16) {
    // Notepad's "Unicode": every character is two bytes, so nothing of it reads as text.
    return [
      {
        line: 1,
        reason: `saved as UTF-16 (it starts with the byte order mark 0x${m.invalid.utf16}): nothing in it is read; save the file as UTF-8`,
      },
    ];
  }
  if (m.invalid) {
    const hex = m.invalid.byte.toString(16).toUpperCase().padStart(2, "0");
    return [
      {
        line: m.invalid.line,
        reason: `not valid UTF-8 (byte 0x${hex}, ${m.invalid.lines.length} line(s) in all): read with the bad bytes as U+FFFD, facts on those lines skipped; save the file as UTF-8`,
      },
    ];
  }
  return [];
}
