/**
 * Telling a log saved as Windows-1252 ("ANSI", an old Windows editor's default) from one that
 * is damaged or in another encoding, and reading it. Used by text-file.ts, the one home of how
 * a memory file's bytes become text.
 */

/**
 * Windows-1252's characters for 0x80-0x9F (its other bytes are Latin-1's): Node's
 * TextDecoder("windows-1252") reads those as C1 controls, as Latin-1 does.
 */
const WINDOWS_1252_HIGH =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";

export function decodeWindows1252(buf: Uint8Array): string {
  const latin1 = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1");
  return latin1.replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** Bytes Windows-1252 has no character for: text saved in it never holds them (Shift-JIS's lead bytes 0x81 and 0x8D...). */
const NOT_WINDOWS_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
/** More bytes over 0x7F in a row than Western text writes (öß, é’ are two): Shift-JIS, GBK or Big5, not Windows-1252. */
const WINDOWS_1252_RUN = 3;

/** Does the byte at `i` have a UTF-8 lead byte's shape (110xxxxx, 1110xxxx, 11110xxx) and its continuation bytes, valid or not (an overlong, a surrogate)? */
function utf8Shaped(buf: Uint8Array, i: number): boolean {
  const b = buf[i]!;
  const n = b >= 0xf0 ? (b <= 0xf7 ? 4 : 0) : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
  if (n === 0 || i + n > buf.length) return false;
  for (let k = 1; k < n; k++) if (buf[i + k]! < 0x80 || buf[i + k]! > 0xbf) return false;
  return true;
}

/**
 * Is this file, which is not UTF-8, Windows-1252 text? Every byte over 0x7F stands alone: none
 * is part of a UTF-8 character, valid or broken (a valid one makes the file UTF-8 with stray
 * bytes; an overlong or a surrogate is damaged UTF-8), none is one Windows-1252 leaves
 * undefined, no run of them is longer than a Western word holds, and no byte is zero (UTF-16
 * or UTF-32 without a mark). Anything else (Shift-JIS, a UTF-8 log with a Latin-1 line pasted
 * in) is not guessed at: it reads as UTF-8 with its bad lines marked.
 */
export function isWindows1252(buf: Uint8Array): boolean {
  let run = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (b === 0) return false;
    if (b < 0x80) {
      run = 0;
      continue;
    }
    if (NOT_WINDOWS_1252.has(b) || ++run > WINDOWS_1252_RUN || utf8Shaped(buf, i)) return false;
  }
  return true;
}
