import { nameWords } from "../analysis/tokens.js";
import { EARLIEST_QUESTION, LAST_MET, LATEST_QUESTION } from "./intent.js";
import type { LineHit } from "./lines.js";

export interface LineRankOptions {
  /** Multiplier bonus when the line's speaker or leading entity is named in the query. */
  speakerBoost: number;
  /** Bonus for lines of a file (a day, a session) where the query matches many lines. */
  fileWeight: number;
  /**
   * Bonus for covering the query: the IDF-weighted share of its terms found on the line
   * or within `coverageSpan` lines of it (a question's words often spread over two turns).
   */
  coverageWeight: number;
  coverageSpan: number;
  /**
   * Bonus, in a "when ...?" question, for lines that say when (a date, a weekday,
   * "yesterday", "last week"): the answer to "when" is a line carrying a time.
   */
  timeWordBoost: number;
  /**
   * Bonus, in a question after a quantity ("how much was the clutch?", "how many calls did I
   * do?", "what did the MOT cost?"), for lines that hold one: digits for a sum, digits or a
   * number word for a count. The answer to "how much" is a line with the amount.
   */
  amountBoost: number;
  /**
   * Bonus, in a question after the latest state ("when did I last see Ana?", "what's the
   * latest on the move?"), for lines of later days: up to this
   * share for the newest date among the hits, none for the oldest. A question after the
   * earliest ("when did I first meet Ana?", "where did the first swarm go?") gets it the
   * other way round.
   */
  recencyBoost: number;
  /**
   * In "when did I last see Ana?" (intent.ts LAST_MET) the lines are those naming her and the
   * newest is the answer, whatever else each says: each newer day among the hits multiplies
   * a line's score by 1 + this, so the day leads and the words only order a day's lines.
   */
  lastMetBoost: number;
}

export const DEFAULT_LINE_RANK: LineRankOptions = {
  speakerBoost: 0,
  fileWeight: 0.6,
  coverageWeight: 2,
  coverageSpan: 2,
  timeWordBoost: 0.5,
  amountBoost: 0.5,
  recencyBoost: 1,
  lastMetBoost: 4,
};

const WHEN_QUESTION = /^\s*(?:when|what (?:year|month|date|day)|how long)\b/i;
const TIME_WORDS =
  /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|since|recently|this (?:week|month|year|weekend|morning|evening)|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|january|february|march|april|may|june|july|august|september|october|november|december|(?:19|20)\d\d)\b/i;

/** A question after a sum ("how much", "what did it cost"): its answer holds digits ("£640", "95p"), rarely a word ("six pages"). */
const SUM_QUESTION = /\bhow\s+much\b|\b(?:cost|costs|price|prices|priced|worth|charge|charged|charging|owe|owed)\b/i;
/** A question after a count or a measure ("how many calls", "how big is the herd", "how long is the walk"): digits or a number word ("twelve calls", "18 min"). */
const COUNT_QUESTION = /\bhow\s+(?:many|big|far|old|heavy|large|tall|long)\b/i;
const NUMBER_WORDS =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|half|couple)\b/i;

/**
 * Who a line is by or about, from its head: a chat turn `- **Melanie** (1:56 pm): ...`
 * or a Retain fact `- W @Priya @Jonas: ...` (entities before the colon).
 */
export function lineSpeakers(text: string): string[] {
  const bold = /^\s*(?:[-*+]|\d+\.)\s+\*\*([^*]{1,60})\*\*/.exec(text);
  if (bold) return [bold[1]!];
  const retain = /^\s*[-*+]\s+(?:[WBOS](?:\([^)]*\))?\s+)?((?:@[^\s:]+\s*)+):/.exec(text);
  if (retain)
    return retain[1]!
      .trim()
      .split(/\s+/)
      .map((s) => s.replace(/^@/, ""));
  return [];
}

/**
 * Re-score BM25 line hits with two kinds of structure BM25 cannot see: who speaks the
 * line (a question about Melanie wants Melanie's turns, not someone asking her), and
 * how strongly the rest of that file matches (the conversation that was about it).
 */
export function rescoreLines(
  hits: readonly LineHit[],
  query: string,
  opts: LineRankOptions = DEFAULT_LINE_RANK,
): LineHit[] {
  if (hits.length === 0) return [];
  const qWords = new Set(nameWords(query));
  const perFile = new Map<string, number[]>();
  for (const h of hits) {
    const list = perFile.get(h.path) ?? [];
    list.push(h.score);
    perFile.set(h.path, list);
  }
  const fileScore = new Map<string, number>();
  let maxFile = 0;
  for (const [p, scores] of perFile) {
    scores.sort((a, b) => b - a);
    const s = scores.slice(0, 3).reduce((a, b) => a + b, 0);
    fileScore.set(p, s);
    if (s > maxFile) maxFile = s;
  }
  const byLine = new Map<string, LineHit>();
  for (const h of hits) byLine.set(`${h.path}\u0000${h.line}`, h);
  const when = opts.timeWordBoost > 0 && WHEN_QUESTION.test(query);
  const amount =
    opts.amountBoost <= 0
      ? undefined
      : SUM_QUESTION.test(query)
        ? /\d/
        : COUNT_QUESTION.test(query)
          ? NUMBER_WORDS
          : undefined;
  // Dates of the hits, oldest first: a line's share of the recency bonus is its date's place.
  const lastMet = opts.lastMetBoost > 0 && LAST_MET.test(query);
  const latest = !lastMet && opts.recencyBoost > 0 && LATEST_QUESTION.test(query);
  const earliest = !lastMet && !latest && opts.recencyBoost > 0 && EARLIEST_QUESTION.test(query);
  const dates = lastMet || latest || earliest ? datesOf(hits) : undefined;
  return hits.map((h) => {
    let s = h.score;
    const place = h.date === undefined ? undefined : dates?.get(h.date);
    if (place !== undefined && lastMet) s *= (1 + opts.lastMetBoost) ** place;
    else if (place !== undefined && dates!.size > 1) {
      const newer = earliest ? dates!.size - 1 - place : place;
      s *= 1 + (opts.recencyBoost * newer) / (dates!.size - 1);
    }
    if (when && TIME_WORDS.test(h.text)) s *= 1 + opts.timeWordBoost;
    if (amount?.test(h.text)) s *= 1 + opts.amountBoost;
    if (opts.coverageWeight > 0 && h.coverage) s *= 1 + opts.coverageWeight * coverage(h, byLine, opts.coverageSpan);
    if (opts.speakerBoost > 0) {
      const named = lineSpeakers(h.text).some((sp) => {
        const w = nameWords(sp);
        return w.length > 0 && w.every((x) => qWords.has(x));
      });
      if (named) s *= 1 + opts.speakerBoost;
    }
    if (opts.fileWeight > 0 && maxFile > 0) s *= 1 + (opts.fileWeight * (fileScore.get(h.path) ?? 0)) / maxFile;
    return { ...h, score: s };
  });
}

/** Each distinct date of the hits -> its place, oldest 0. */
function datesOf(hits: readonly LineHit[]): Map<string, number> {
  const sorted = [...new Set(hits.flatMap((h) => (h.date === undefined ? [] : [h.date])))].sort();
  return new Map(sorted.map((d, i) => [d, i]));
}

/** The IDF-weighted share of the query terms matched by the line or its neighbours within `span`. */
function coverage(h: LineHit, byLine: ReadonlyMap<string, LineHit>, span: number): number {
  const idf = h.coverage!.idf;
  const total = idf.reduce((a, b) => a + b, 0);
  if (total <= 0) return 0;
  const got = new Set(h.coverage!.matched);
  for (let d = -span; d <= span; d++) {
    if (d === 0) continue;
    for (const i of byLine.get(`${h.path}\u0000${h.line + d}`)?.coverage?.matched ?? []) got.add(i);
  }
  let sum = 0;
  for (const i of got) sum += idf[i] ?? 0;
  return sum / total;
}
