import type { IndexDb } from "../index/db.js";
import { readLines } from "../index/lines.js";
import type { LineHit } from "./lines.js";

/**
 * Heading context for the lines of a log: under "## Vet" or "# Moving day" the lines
 * rarely repeat the heading's word ("Dr Hallam said it's a sprain"), and the heading alone
 * answers nothing. A short heading that matches the question hands a share of its score
 * (and the terms it matched) to the lines of its section, and keeps less for itself.
 */
export interface HeadingContextOptions {
  /** Headings of more words are titles of a whole conversation ("Session 18 (...): Joanna and Nate"), not a topic. */
  maxWords: number;
  /** How many lines below the heading its section may reach (it ends at the next heading). */
  span: number;
  /** Share of the heading's score each line of its section gets. */
  share: number;
  /** What the heading line itself keeps of its score. */
  keep: number;
}

export const DEFAULT_HEADING_CONTEXT: HeadingContextOptions = { maxWords: 4, span: 8, share: 0.8, keep: 0.5 };

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u;
// A table's header row ("| Meter | Reading |"): its rows rarely repeat its words.
const TABLE_ROW = /^\s*\|.*\|\s*$/u;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/u;
// A short line introducing what follows ("Meter readings:", "To do before the move:").
const LABEL = /^\s*(?:[-*+]\s+)?([^:|#]+?):\s*$/u;

/**
 * What a line titles, if it is short enough: a heading (its section runs to the next
 * heading), a table's header row (the table's rows, when a `|---|` rule follows), or a
 * label line ending in ":" (the block right after it, one blank line allowed before the
 * block; it ends at a blank line).
 */
function titleKind(text: string, maxWords: number): "heading" | "table" | "label" | undefined {
  const words = (t: string) => t.split(/\s+/u).filter(Boolean).length;
  const h = HEADING.exec(text);
  if (h) return words(h[1]!) <= maxWords ? "heading" : undefined;
  if (TABLE_ROW.test(text)) return words(text.replace(/\|/gu, " ")) <= maxWords ? "table" : undefined;
  const l = LABEL.exec(text);
  return l && words(l[1]!) <= maxWords ? "label" : undefined;
}

/** The hits with each matching short heading's score shared with the lines under it. */
export function withHeadingContext(
  idx: IndexDb,
  hits: readonly LineHit[],
  opts: HeadingContextOptions = DEFAULT_HEADING_CONTEXT,
): LineHit[] {
  const byLine = new Map<string, LineHit>();
  for (const h of hits) byLine.set(`${h.path}\u0000${h.line}`, h);
  for (const h of hits) {
    // Bank pages are membank's own: their headings are page structure, not a person's topics.
    if (h.path.startsWith("bank/")) continue;
    const kind = titleKind(h.text, opts.maxWords);
    if (kind === undefined) continue;
    const below = readLines(idx, h.path, h.line + 1, h.line + opts.span);
    if (kind === "table" && !(below[0]?.line === h.line + 1 && TABLE_RULE.test(below[0].text))) continue;
    let last = h.line;
    for (const b of below) {
      if (HEADING.test(b.text)) break;
      if (kind === "table") {
        if (!TABLE_ROW.test(b.text) || b.line !== last + 1) break;
        last = b.line;
        if (TABLE_RULE.test(b.text)) continue;
      }
      // A label's block: right below it, or after one blank line; it ends at a blank line.
      if (kind === "label" && b.line !== last + 1 && !(last === h.line && b.line === h.line + 2)) break;
      last = b.line;
      const key = `${h.path}\u0000${b.line}`;
      const prev = byLine.get(key);
      const add = h.score * opts.share;
      if (prev) {
        const matched = [...new Set([...(prev.coverage?.matched ?? []), ...(h.coverage?.matched ?? [])])].sort(
          (a, c) => a - c,
        );
        const coverage = prev.coverage ?? h.coverage;
        byLine.set(key, {
          ...prev,
          score: prev.score + add,
          ...(coverage ? { coverage: { ...coverage, matched } } : {}),
        });
      } else {
        const hit: LineHit = { path: h.path, line: b.line, text: b.text, score: add };
        if (h.coverage) hit.coverage = h.coverage;
        if (h.date) hit.date = h.date;
        byLine.set(key, hit);
      }
    }
    const own = byLine.get(`${h.path}\u0000${h.line}`)!;
    byLine.set(`${h.path}\u0000${h.line}`, { ...own, score: own.score * opts.keep });
  }
  return [...byLine.values()];
}
