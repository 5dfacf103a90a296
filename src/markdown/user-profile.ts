import { FenceTracker } from "./scan.js";

/**
 * What of a user profile (`USER.md`) is the user's, for the index. OpenClaw 2026.9 seeds
 * every workspace with a template USER.md: an example directive in a code fence, and a
 * placeholder directive (`- Prefer ...`) under a placeholder date (`YYYY-MM-DD`). Its
 * format puts each directive under a metadata comment, `<!-- observed: 2026-03-01 |
 * status: active -->`, and keeps a changed preference as `status: superseded`. None of
 * these is the user's current preference, so recall must not answer with them; the file
 * itself is left as written (`get` still reads every line). A free-form profile ("Name:
 * Sam", "- Likes short answers") has none of them and is indexed whole. Pure.
 */

/** A placeholder date: `YYYY-MM-DD` and its kin (`yyyy-mm-dd`, `YY-M-D`). */
const PLACEHOLDER_DATE = /\bY{2,4}-M{1,2}-D{1,2}\b/i;
/**
 * A line that says nothing but a word or a label and an ellipsis: `- Prefer ...`, `Name: …`,
 * `- **Timezone:** ...` (and not `- Reading: Dune...`, which says something).
 */
const PLACEHOLDER_LINE =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:[\p{L}'’-]+|[\p{L}\p{N}'’ -]{1,30}:)(?:\*\*)?:?(?:\*\*)?\s+(?:\.{3}|…)\s*$/u;
/** A one-line metadata comment of key: value pairs split by `|`. */
const METADATA = /^\s{0,3}<!--(.*)-->\s*$/;
const REAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/**
 * Is the entry under this metadata comment out of the user's current profile? True for
 * `status: superseded` and for an `observed:` that is no real date (a placeholder). A
 * comment without these keys, or with an unknown status, leaves its entry indexed.
 */
function entryIsOut(comment: string): boolean {
  const fields = new Map<string, string>();
  for (const part of comment.split("|")) {
    const colon = part.indexOf(":");
    if (colon > 0) fields.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim());
  }
  if (fields.get("status")?.toLowerCase() === "superseded") return true;
  const observed = fields.get("observed");
  if (observed === undefined || !fields.has("status")) return false;
  return !REAL_DATE.test(observed) || Number.isNaN(Date.parse(`${observed}T00:00:00Z`));
}

/**
 * 0-based numbers of the lines of a profile that are not the user's: fenced code (fences
 * included), placeholder lines, and the entries (with their comment) that `entryIsOut`.
 * An entry is the first run of non-blank lines after its comment, ending at a blank line,
 * a heading or another comment.
 */
export function notTheUsersLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  const fence = new FenceTracker();
  let entryFrom = -1; // the comment of an entry being left out
  let started = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence.feed(line)) {
      out.add(i);
      entryFrom = -1;
      continue;
    }
    const blank = line.trim() === "";
    const meta = METADATA.exec(line);
    if (entryFrom >= 0 && (meta || HEADING.test(line) || (blank && started))) entryFrom = -1;
    if (meta) {
      if (entryIsOut(meta[1]!)) {
        entryFrom = i;
        started = false;
        out.add(i);
      }
    } else if (entryFrom >= 0 && !blank) {
      started = true;
      out.add(i);
    }
    if (PLACEHOLDER_DATE.test(line) || PLACEHOLDER_LINE.test(line)) out.add(i);
  }
  return out;
}

/** `text` with the lines that are not the user's (notTheUsersLines) blanked, line numbers kept. */
export function userProfileForIndex(text: string): string {
  const lines = text.split("\n");
  const out = notTheUsersLines(lines.map((l) => l.replace(/\r$/, "")));
  if (out.size === 0) return text;
  return lines.map((l, i) => (out.has(i) ? (l.endsWith("\r") ? "\r" : "") : l)).join("\n");
}

/** The version of these rules, in the index's fingerprint: a change rebuilds existing indexes once. */
export const USER_PROFILE_RULES = 1;
