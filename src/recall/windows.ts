import { byScoreThenPlace } from "../markdown/order.js";
import { type LineHit, linePlace } from "./lines.js";

/** A few consecutive lines of one file, scored from the line hits inside it. */
export interface LineWindow {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  /** The matching line the window was centred on. */
  line: number;
  date?: string;
}

export interface WindowOptions {
  /** Lines of context before the best line. */
  before: number;
  /** Lines of context after it (answers follow questions in a conversation). */
  after: number;
  /** How much a matching neighbour line adds to a line's score (a question often spans two turns). */
  neighborWeight: number;
  /** At most this many windows. */
  max: number;
  /**
   * Turn-aware placement: a chat turn (`- **Speaker** ...`) that does not end with a
   * question is more often followed by the rest of its story (the same speaker, two lines
   * on, after the other's question) than preceded by it, so its window moves one line
   * forward (same size). A turn ending with "?" keeps the line before and after.
   */
  turnShift?: boolean;
}

export const DEFAULT_WINDOW: WindowOptions = { before: 1, after: 1, neighborWeight: 0.35, max: 50, turnShift: true };

const CHAT_TURN = /^\s*(?:[-*+]|\d+\.)\s+\*\*[^*]{1,60}\*\*/u;

/** Should the window of this line move one line forward (a chat turn that is not a question)? */
export function shiftsForward(text: string): boolean {
  return CHAT_TURN.test(text) && !endsWithQuestion(text);
}

/** A line that ends with a question (an attached `[shares a photo ...]` note aside). */
export function endsWithQuestion(text: string): boolean {
  return /\?["'”’)\]]*\s*(?:\[[^\]]*\])?\s*$/u.test(text);
}

/**
 * Turn line hits into non-overlapping windows, best first. A line's score is its own
 * BM25 plus a share of its matching neighbours'; windows never overlap, so a result
 * list shows distinct places in the logs. Pure and deterministic (ties by path, line).
 */
export function buildWindows(hits: readonly LineHit[], opts: WindowOptions = DEFAULT_WINDOW): LineWindow[] {
  const byKey = new Map<string, number>();
  for (const h of hits) byKey.set(`${h.path}\u0000${h.line}`, h.score);
  const score = (p: string, line: number) => byKey.get(`${p}\u0000${line}`) ?? 0;
  const scored = hits.map((h) => {
    let s = h.score;
    for (let d = 1; d <= Math.max(2, opts.before, opts.after); d++) {
      s += opts.neighborWeight * (score(h.path, h.line - d) + score(h.path, h.line + d)) * (1 / d);
    }
    return { hit: h, s };
  });
  scored.sort(
    byScoreThenPlace(
      (x) => x.s,
      (x) => linePlace(x.hit),
    ),
  );
  const taken = new Map<string, [number, number][]>();
  const out: LineWindow[] = [];
  for (const { hit, s } of scored) {
    if (out.length >= opts.max) break;
    const shift = opts.turnShift && opts.before > 0 && shiftsForward(hit.text) ? 1 : 0;
    const start = Math.max(1, hit.line - opts.before + shift);
    const end = hit.line + opts.after + shift;
    const ranges = taken.get(hit.path) ?? [];
    if (ranges.some(([a, b]) => hit.line >= a && hit.line <= b)) continue;
    // Trim the new window so it does not repeat lines an earlier (better) window shows.
    let lo = start;
    let hi = end;
    for (const [a, b] of ranges) {
      if (a <= hit.line && b >= lo) lo = b + 1;
      if (b >= hit.line && a <= hi) hi = a - 1;
    }
    ranges.push([lo, hi]);
    taken.set(hit.path, ranges);
    const w: LineWindow = { path: hit.path, startLine: lo, endLine: hi, score: s, line: hit.line };
    if (hit.date) w.date = hit.date;
    out.push(w);
  }
  return out;
}
