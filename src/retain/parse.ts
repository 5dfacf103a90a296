import type { List, ListItem, RootContent } from "mdast";
import { logDate } from "../markdown/log-path.js";
import { parseMarkdown, splitLines, stripBom } from "../markdown/parse.js";
import { scanHeadings } from "../markdown/scan.js";
import { extractValidity } from "./dates.js";
import { entityKey } from "./entities.js";
import { factId } from "./id.js";
import { type ParsedLine, parseFactLine } from "./line.js";
import { type Diagnostic, type Fact, KIND_BY_LETTER, type RetainResult } from "./types.js";

export interface RetainOptions {
  /** Confidence of an `O` fact without `(c=...)`; config `retain.defaultConfidence` (0.7). */
  defaultConfidence?: number;
  /**
   * Parse blocks made only of plain one-line bullets without remark (the common case,
   * ~20x faster). Output is identical either way (a property test checks it); off is for that test.
   */
  fastPath?: boolean;
  /** Lines holding bytes that are not UTF-8 (read as U+FFFD): never read as facts. */
  invalidLines?: readonly number[];
}

/** What became of one item or stray line: exactly one fact or one diagnostic, over lines line..endLine. */
export interface RetainOutcome {
  line: number;
  endLine: number;
  fact?: Fact;
  diagnostic?: Diagnostic;
}

export interface RetainSectionInfo {
  /** Line of the heading. */
  line: number;
  /** Last line that belongs to the section. */
  endLine: number;
  depth: number;
  extracted: boolean;
}

export interface RetainScan extends RetainResult {
  outcomes: RetainOutcome[];
  /** Non-blank lines inside Retain sections that carry no content: HTML comments, `---` rules, sub-headings. */
  ignoredLines: number[];
  sections: RetainSectionInfo[];
}

const RETAIN_HEADING = /^retain(\s*\(extracted\))?$/i;
const USAGE = '"- W|B|O|S [@Entity ...]: text"';
const NOT_AN_ITEM = `not a list item: a Retain section holds only list items like ${USAGE}`;
const EXTRA_IN_ITEM = "extra content in a list item: one fact per item, start a new item for another fact";
const NO_FACT_IN_ITEM = `list item does not start with a fact: expected ${USAGE}`;
// One plain bullet whose text starts with a letter: always exactly one list item holding
// a one-line paragraph, whatever surrounds it (given no fences or HTML blocks nearby).
const SIMPLE_ITEM = /^[-*+] [A-Za-z]/;
const COMPLEX_LINE = /^\s*(?:```|~~~|<)/;
const BLANK = /^\s*$/;
/**
 * Indentation, quote and list markers before a line's text. remark's work grows steeply
 * with nesting (200 nested lists: 1.7 s, 1,000: 84 s), and no real fact is nested this deep.
 */
const NESTING = /^(?:[ \t>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;
export const MAX_NESTING_COLUMNS = 64;
/**
 * git's conflict markers, as a merge of two machines' edits of one log leaves them when the
 * user commits without resolving: `<<<<<<< HEAD`, `||||||| base` (diff3), `=======`,
 * `>>>>>>> laptop`. Read as text they glue onto the fact above (a lazy continuation).
 */
const CONFLICT_EDGE = /^(?:<{7}|>{7})(?:[ \t].*)?$/;
const CONFLICT_INNER = /^(?:\|{7}(?:[ \t].*)?|={7}[ \t]*)$/;
const CONFLICT_MARKER =
  "git conflict marker left by a merge: not read, the facts on both sides are; resolve the conflict (keep the lines you want, delete the marker lines)";

/** Is this heading text a Retain heading? `extracted` for "Retain (extracted)". */
export function retainHeading(text: string): { extracted: boolean } | undefined {
  // As people type it: "Retain:", "**Retain**", "_Retain_ :" are the same heading.
  const plain = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^([*_]{1,2})(.*)\1$/, "$2")
    .replace(/\s*:$/, "")
    .trim();
  const m = RETAIN_HEADING.exec(plain);
  return m ? { extracted: m[1] !== undefined } : undefined;
}

/** A Retain section: its heading line and the last line of its body (1-based; `last` < `heading` + 1 when empty). */
export interface RetainSpan {
  heading: number;
  last: number;
  depth: number;
  extracted: boolean;
}

/**
 * Where the Retain sections of a log are, the one rule (the parser and LLM extraction
 * both use it): a Retain heading (ATX, outside code fences and comments) starts one; it
 * ends before the next heading of the same or a higher level, or before another Retain
 * heading, else at the end of the file. `lines` as splitLines(stripBom(text)) gives them.
 */
export function retainSpans(lines: readonly string[]): RetainSpan[] {
  const headings = scanHeadings(lines);
  const spans: RetainSpan[] = [];
  for (let k = 0; k < headings.length; k++) {
    const h = headings[k]!;
    const kind = retainHeading(h.text);
    if (!kind) continue;
    let last = lines.length;
    for (let j = k + 1; j < headings.length; j++) {
      const next = headings[j]!;
      if (next.depth <= h.depth || retainHeading(next.text)) {
        last = next.line - 1;
        break;
      }
    }
    spans.push({ heading: h.line, last, depth: h.depth, extracted: kind.extracted });
  }
  return spans;
}

interface Ctx {
  path: string;
  date: string;
  extracted: boolean;
  defaultConfidence: number;
  outcomes: RetainOutcome[];
  ignored: number[];
  seen: Map<string, number>;
  invalid: Set<number>;
}

function diagnose(ctx: Ctx, line: number, endLine: number, reason: string): void {
  ctx.outcomes.push({ line, endLine, diagnostic: { path: ctx.path, line, reason } });
}

function buildFact(ctx: Ctx, line: number, v: ParsedLine): Fact {
  const kind = KIND_BY_LETTER[v.letter]!;
  const entities = [...v.prefixEntities];
  // `@Peter ... @peter` in one fact names one entity (see entityKey).
  for (const e of v.mentions) if (!entities.some((x) => entityKey(x) === entityKey(e))) entities.push(e);
  const key = `${v.letter}${v.prefixEntities.map((e) => ` @${e}`).join("")}: ${v.content}`;
  const { validFrom, validTo } = extractValidity(v.content, ctx.date);
  // Key order is the JSON order; absent optional fields are left out, not undefined.
  return {
    id: factId(ctx.date, key),
    kind,
    entities,
    ...(kind === "opinion" ? { confidence: v.confidence ?? ctx.defaultConfidence } : {}),
    // Reflect reads a written c= as the holder's own reading; the default is no reading.
    ...(kind === "opinion" && v.confidence === undefined ? { defaultConfidence: true as const } : {}),
    content: v.content,
    date: ctx.date,
    ...(validFrom !== undefined ? { validFrom } : {}),
    ...(validTo !== undefined ? { validTo } : {}),
    source: { path: ctx.path, line },
    ...(ctx.extracted ? { extracted: true } : {}),
  };
}

function addItem(ctx: Ctx, line: number, endLine: number, text: string): void {
  for (let l = line; l <= endLine; l++) {
    if (ctx.invalid.has(l)) {
      diagnose(ctx, line, endLine, "not valid UTF-8: not read as a fact; save the file as UTF-8");
      return;
    }
  }
  const parsed = parseFactLine(text);
  if (!parsed.ok) {
    diagnose(ctx, line, endLine, parsed.reason);
    return;
  }
  const fact = buildFact(ctx, line, parsed.value);
  const first = ctx.seen.get(fact.id);
  if (first !== undefined) {
    diagnose(ctx, line, endLine, `duplicate of the fact at line ${first} (same date, type, entities and text)`);
    return;
  }
  ctx.seen.set(fact.id, line);
  ctx.outcomes.push({ line, endLine, fact });
}

/** Remark-parse one block of a section. Returns the line of a heading that ends the section, if any. */
function parseBlock(ctx: Ctx, lines: string[], first: number, last: number, depth: number): number | undefined {
  const text = lines.slice(first - 1, last).join("\n");
  const off = first - 1;
  const tree = parseMarkdown(text);
  const start = (n: RootContent) => n.position!.start.line + off;
  const end = (n: RootContent) => n.position!.end.line + off;
  const perLine = (n: RootContent, reason: string) => {
    for (let l = start(n); l <= end(n); l++) if (!BLANK.test(lines[l - 1]!)) diagnose(ctx, l, l, reason);
  };
  const ignore = (n: RootContent) => {
    for (let l = start(n); l <= end(n); l++) if (!BLANK.test(lines[l - 1]!)) ctx.ignored.push(l);
  };
  const isComment = (n: RootContent) => n.type === "html" && /^<!--[\s\S]*-->$/.test(n.value.trim());

  const item = (it: ListItem) => {
    const kids = it.children;
    if (kids.length === 0) {
      diagnose(ctx, start(it), end(it), "empty list item");
      return;
    }
    let rest = kids;
    const head = kids[0]!;
    if (head.type === "paragraph") {
      const raw = text.slice(head.position!.start.offset, head.position!.end.offset);
      addItem(
        ctx,
        start(it),
        end(head),
        splitLines(raw)
          .map((s) => s.trim())
          .join(" "),
      );
      rest = kids.slice(1);
    } else if (head.type !== "list") {
      perLine(head, NO_FACT_IN_ITEM);
      rest = kids.slice(1);
    }
    for (const n of rest) {
      if (n.type === "list") list(n);
      else if (isComment(n)) ignore(n);
      else perLine(n, EXTRA_IN_ITEM);
    }
  };
  const list = (l: List) => {
    for (const it of l.children) item(it);
  };

  for (const n of tree.children) {
    if (n.type === "heading") {
      if (n.depth <= depth) return start(n);
      ignore(n); // a sub-heading groups facts; it is not content
    } else if (n.type === "list") list(n);
    else if (n.type === "thematicBreak" || isComment(n)) ignore(n);
    else perLine(n, NOT_AN_ITEM);
  }
  return undefined;
}

/** Process the body lines first..last of one section; returns the section's real last line. */
function parseSectionBody(
  ctx: Ctx,
  lines: string[],
  first: number,
  last: number,
  depth: number,
  fast: boolean,
): number {
  const body = lines.slice(first - 1, last);
  // Fenced code and HTML blocks may span blank lines: then only remark knows the structure.
  const whole = !fast || body.some((l) => COMPLEX_LINE.test(l));
  const blocks: Array<[number, number]> = [];
  let blockStart = first;
  for (let l = first + 1; l <= last && !whole; l++) {
    // A plain bullet after a blank line starts a new item whatever came before (fences and
    // HTML aside). Not any unindented line: micromark reads "*" after indented code as text.
    if (BLANK.test(lines[l - 2]!) && SIMPLE_ITEM.test(lines[l - 1]!)) {
      blocks.push([blockStart, l - 1]);
      blockStart = l;
    }
  }
  blocks.push([blockStart, last]);
  for (const [a, bRaw] of blocks) {
    let b = bRaw;
    while (b >= a && BLANK.test(lines[b - 1]!)) b--;
    if (b < a) continue;
    // A plain bullet always starts its own item here; it is a whole one-line item when the
    // next line starts another plain bullet (anything else might be a lazy continuation).
    const simple = (l: number) => !whole && SIMPLE_ITEM.test(lines[l - 1]!);
    let run = a; // first line of the pending run that needs remark
    for (let l = a; l <= b; l++) {
      if (!(simple(l) && (l === b || simple(l + 1)))) continue;
      if (run < l) {
        const stop = parseBlock(ctx, lines, run, l - 1, depth);
        if (stop !== undefined) return stop - 1;
      }
      addItem(ctx, l, l, lines[l - 1]!.slice(2));
      run = l + 1;
    }
    if (run <= b) {
      const stop = parseBlock(ctx, lines, run, b, depth);
      if (stop !== undefined) return stop - 1;
    }
  }
  return last;
}

/**
 * Everything parseRetain knows about a file: its facts and diagnostics plus, for tests
 * and tools, which lines each came from and which lines were deliberately ignored.
 */
export function scanRetain(path: string, text: string, opts: RetainOptions = {}): RetainScan {
  const out: RetainScan = { facts: [], diagnostics: [], outcomes: [], ignoredLines: [], sections: [] };
  const lines = splitLines(stripBom(text));
  const original = lines.slice();
  const date = logDate(path);
  const ctx: Ctx = {
    path,
    date: date ?? "",
    extracted: false,
    defaultConfidence: opts.defaultConfidence ?? 0.7,
    outcomes: out.outcomes,
    ignored: out.ignoredLines,
    seen: new Map(),
    invalid: new Set(opts.invalidLines ?? []),
  };
  for (const span of retainSpans(lines)) {
    const h = { line: span.heading, depth: span.depth };
    const kind = { extracted: span.extracted };
    if (date === undefined) {
      diagnose(
        ctx,
        h.line,
        h.line,
        "Retain section in a file without a date in its name (memory/YYYY-MM-DD.md): not read",
      );
      continue;
    }
    const last = span.last;
    ctx.extracted = kind.extracted;
    const before = out.outcomes.length;
    for (let l = h.line + 1; l <= last; l++) {
      const depth = NESTING.exec(original[l - 1]!)![0].length;
      if (depth <= MAX_NESTING_COLUMNS) continue;
      // Left out of what remark sees, so the work stays bounded; the line is still reported.
      lines[l - 1] = "";
      diagnose(
        ctx,
        l,
        l,
        `nested too deeply (${depth} columns of indentation, quote and list markers; at most ${MAX_NESTING_COLUMNS}): not read`,
      );
    }
    // `=======` alone is a marker only beside `<<<<<<<`/`>>>>>>>`: elsewhere it is Markdown.
    let conflicted = false;
    for (let l = h.line + 1; l <= last && !conflicted; l++) conflicted = CONFLICT_EDGE.test(original[l - 1]!);
    for (let l = h.line + 1; l <= last && conflicted; l++) {
      if (!CONFLICT_EDGE.test(original[l - 1]!) && !CONFLICT_INNER.test(original[l - 1]!)) continue;
      // A blank line in its place: the items on both sides stay items, their lines unchanged.
      lines[l - 1] = "";
      diagnose(ctx, l, l, CONFLICT_MARKER);
    }
    const end = h.line < last ? parseSectionBody(ctx, lines, h.line + 1, last, h.depth, opts.fastPath ?? true) : h.line;
    out.sections.push({ line: h.line, endLine: end, depth: h.depth, extracted: kind.extracted });
    // Safety net for structures the walk above does not name (e.g. a bare "-" marker line
    // before a nested list): such a line still gets a diagnostic, never silence.
    const covered = new Set<number>(out.ignoredLines);
    for (const o of out.outcomes.slice(before)) for (let l = o.line; l <= o.endLine; l++) covered.add(l);
    for (let l = h.line + 1; l <= end; l++) {
      if (!covered.has(l) && !BLANK.test(lines[l - 1]!)) diagnose(ctx, l, l, "not part of any fact");
    }
  }
  out.outcomes.sort((a, b) => a.line - b.line);
  for (const o of out.outcomes) {
    if (o.fact) out.facts.push(o.fact);
    else if (o.diagnostic) out.diagnostics.push(o.diagnostic);
  }
  return out;
}

/**
 * Parse the Retain sections of one file (DESIGN.md 1.1). `path` is workspace-relative with
 * `/`; its file name gives the facts' date. Never throws: every non-blank line of a Retain
 * section becomes exactly one fact or one diagnostic (HTML comments, `---` rules and
 * sub-headings excepted: they carry no content).
 */
export function parseRetain(path: string, text: string, opts: RetainOptions = {}): RetainResult {
  const { facts, diagnostics } = parseRetainSections(path, text, opts);
  return { facts, diagnostics };
}

/** parseRetain, plus how many Retain sections the file has (0: a log membank cannot take facts from). */
export function parseRetainSections(
  path: string,
  text: string,
  opts: RetainOptions = {},
): RetainResult & { sections: number } {
  try {
    const { facts, diagnostics, sections } = scanRetain(path, text, opts);
    return { facts, diagnostics, sections: sections.length };
  } catch (error) {
    // Last resort: a parser bug must surface as a diagnostic, not crash a nightly run.
    return {
      facts: [],
      diagnostics: [{ path, line: 1, reason: `internal parser error: ${String(error)}` }],
      sections: 0,
    };
  }
}
