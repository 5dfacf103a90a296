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
    const m = HEADING.exec(h.text);
    if (!m || m[1]!.split(/\s+/u).filter(Boolean).length > opts.maxWords) continue;
    for (const b of readLines(idx, h.path, h.line + 1, h.line + opts.span)) {
      if (HEADING.test(b.text)) break;
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
