import { checkEntityToken, scanMentions } from "./entities.js";
import { KIND_BY_LETTER } from "./types.js";

/** A fact line's parts, before dates, ids and sources are attached. */
export interface ParsedLine {
  letter: string;
  /** Explicit `O(c=...)`, if written. */
  confidence?: number;
  /** Entities before the colon, in order. */
  prefixEntities: string[];
  /** Text after the colon, trimmed, markup kept as written. */
  content: string;
  /** Entities mentioned in the content, in order of first appearance. */
  mentions: string[];
}

export type LineResult = { ok: true; value: ParsedLine } | { ok: false; reason: string };

const USAGE = '"W|B|O|S [@Entity ...]: text" (opinions: "O(c=0.8) ...")';

/** C0 controls except tab, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F]/;

/** `U+001B` */
export function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function fail(reason: string): LineResult {
  return { ok: false, reason };
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)%?$/;

function parseConfidence(inner: string, letter: string): { value: number } | { reason: string } {
  // `c=0.8`, and as people also type it: `0.8`, `c=80%`.
  const m = /^\s*c\s*=\s*(.*?)\s*$/.exec(inner) ?? (NUMBER.test(inner.trim()) ? [inner, inner.trim()] : null);
  if (!m) return { reason: `unknown option "(${inner})" after ${letter}: only O(c=0..1) is allowed` };
  if (letter !== "O") return { reason: `confidence is only for opinions (O), not for ${letter}` };
  const raw = m[1]!;
  if (!NUMBER.test(raw)) return { reason: `confidence "${raw}" is not a number` };
  const value = raw.endsWith("%") ? Number(raw.slice(0, -1)) / 100 : Number(raw);
  if (value < 0 || value > 1) return { reason: `confidence ${raw} is outside 0..1` };
  return { value };
}

/**
 * The Retain grammar of one item (DESIGN.md 1.1): a type letter W/B/O/S, for opinions an
 * optional `(c=0..1)`, zero or more `@Entity` tokens (commas allowed), a colon, the text.
 * Never throws: every problem comes back as a reason.
 */
export function parseFactLine(text: string): LineResult {
  // Control bytes break terminals, git commit messages and argv (NUL): refuse them here.
  const control = CONTROL.exec(text);
  if (control) return fail(`contains control character ${codePoint(control[0])}: not read as a fact; remove it`);
  const s = text.trim();
  if (s === "") return fail("empty list item");
  const head = /^([A-Za-z])(?=[\s(:]|$)/.exec(s);
  if (!head) {
    const word = /^[^\s:(]*/.exec(s)![0];
    return fail(
      word.length === 0
        ? `missing type letter: expected ${USAGE}`
        : `missing type letter (found "${word.slice(0, 24)}"): expected ${USAGE}`,
    );
  }
  // "w @Ben: ..." is W as typed in a hurry; "x" is no type.
  const letter = head[1]!.toUpperCase() in KIND_BY_LETTER ? head[1]!.toUpperCase() : head[1]!;
  if (!(letter in KIND_BY_LETTER)) return fail(`unknown type letter "${letter}" (expected W, B, O or S)`);
  // "O (c=0.6)": a space before the confidence.
  let rest = s.slice(1).replace(/^\s+(?=\(\s*(?:c\s*=|[\d.]))/, "");
  let confidence: number | undefined;
  if (rest.startsWith("(")) {
    const close = rest.indexOf(")");
    if (close < 0) return fail(`unclosed "(" after ${letter}: expected ${letter}(c=0.8)`);
    const parsed = parseConfidence(rest.slice(1, close), letter);
    if ("reason" in parsed) return fail(parsed.reason);
    confidence = parsed.value;
    rest = rest.slice(close + 1);
  }
  const prefixEntities: string[] = [];
  for (;;) {
    rest = rest.replace(/^[\s,]+/, "");
    if (!rest.startsWith("@")) break;
    const token = /^@[^\s,:]*/.exec(rest)![0];
    const checked = checkEntityToken(token);
    if ("reason" in checked) return fail(checked.reason);
    if (!prefixEntities.includes(checked.name)) prefixEntities.push(checked.name);
    rest = rest.slice(token.length);
  }
  // "W @Priya — text", "B @Sam - text": a dash between spaces is the colon people meant.
  rest = rest.replace(/^\s*[-–—]\s+/, ":");
  // "O(c=0.5) Dmitri claims ...": a written confidence already marks the line as a fact (the
  // usage line shows opinions that way), so the text may follow it without a colon.
  if (confidence !== undefined && !rest.startsWith(":") && rest.trim() !== "") rest = `:${rest}`;
  if (!rest.startsWith(":")) {
    const where = prefixEntities.length > 0 ? "after the entities" : `after "${letter}"`;
    return fail(`missing colon ${where}: expected ${USAGE}`);
  }
  const content = rest.slice(1).trim();
  if (content === "") return fail("empty fact: no text after the colon");
  const mentions = scanMentions(content);
  if (mentions.invalid !== undefined) return fail(mentions.invalid);
  const value: ParsedLine = { letter, prefixEntities, content, mentions: mentions.names };
  if (confidence !== undefined) value.confidence = confidence;
  return { ok: true, value };
}
