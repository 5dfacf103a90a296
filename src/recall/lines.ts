import { otherSpellings } from "../analysis/abbreviations.js";
import { demonymPair } from "../analysis/demonyms.js";
import { verbForms } from "../analysis/irregular.js";
import { oneEditAway } from "../analysis/spelling.js";
import { agentVerbs, isDictionaryWord } from "../analysis/synonyms.js";
import { cjkWords, ftsWords, phraseOccurrences, stemmedTokens } from "../analysis/tokens.js";
import type { IndexDb } from "../index/db.js";
import {
  countMatchingLines,
  type LineRow,
  lineStats,
  linesByIds,
  linesContaining,
  linesWithPhrase,
  matchLines,
  vocabularyCounts,
} from "../index/lines.js";
import { byScoreThenPlace, type Place } from "../markdown/order.js";
import { type Bm25Params, bm25Score, DEFAULT_BM25, FTS5_BM25, ftsIdf } from "./bm25.js";
import type { LexicalTerm } from "./intent.js";

/**
 * Ranking over the index's line store (index/lines.ts): every non-blank line of the
 * memory files, porter-stemmed, so the lexical arm ranks single lines (a log turn, a
 * Retain fact) instead of 400-token chunks and answers with a few cited lines around the
 * best ones. The store is filled by the index sync, never by recall.
 */

export interface LineHit {
  path: string;
  line: number;
  /** Higher is better (negated FTS5 bm25). */
  score: number;
  date?: string;
  text: string;
  /** Which query terms the line matched (indices into `idf`), for coverage bonuses. */
  coverage?: { matched: number[]; idf: readonly number[] };
}

/** A line's place (one line is one hit). */
export function linePlace(h: { path: string; line: number }): Place {
  return { path: h.path, line: h.line, id: "" };
}

/** Best line hit first; ties by path and line. */
export const byLineScore = byScoreThenPlace<LineHit>((h) => h.score, linePlace);

/** An FTS5 OR-query of the terms: exact tokens become phrases of their word parts. */
export function ftsQuery(terms: readonly LexicalTerm[]): string | undefined {
  const parts = ftsPhrases(terms);
  return parts.length > 0 ? parts.join(" OR ") : undefined;
}

export interface LineSearchOptions {
  limit?: number;
  since?: string;
  until?: string;
  /** Only these paths (e.g. the logs of a time window). */
  paths?: readonly string[];
  /** BM25 parameters (default DEFAULT_BM25, tuned for one-line documents). */
  bm25?: Bm25Params;
}

/** An index built by an older membank (before the line store moved into it) has no lines yet. */
export function hasLineStore(idx: IndexDb): boolean {
  return lineStats(idx).lines !== undefined;
}

/**
 * Best-matching lines by BM25 with our own k1 and b (FTS5's bm25() fixes 1.2 and 0.75,
 * which over-rewards very short lines such as "Wow, cool!"): FTS5 finds the candidates,
 * then each is scored from its exact per-term counts (bm25.ts). Each hit also says which
 * terms it matched, for the coverage bonus of linerank.ts.
 */
export function searchLines(idx: IndexDb, terms: readonly LexicalTerm[], opts: LineSearchOptions = {}): LineHit[] {
  if (!idx.fts) return [];
  const seen = new Map<string, boolean>();
  const inMemory = (word: string) => {
    let found = seen.get(word);
    if (found === undefined) {
      found = countMatchingLines(idx, `"${word.replace(/"/gu, "")}"`) > 0;
      seen.set(word, found);
    }
    return found;
  };
  const memory: MemoryWords = { has: inMemory, respelled: respeller(idx) };
  const phrases = ftsPhrases(terms, memory);
  if (phrases.length === 0) return [];
  const filter = {
    ...(opts.since ? { since: opts.since } : {}),
    ...(opts.until ? { until: opts.until } : {}),
    ...(opts.paths ? { paths: opts.paths } : {}),
  };
  const ranked = matchLines(idx, phrases.join(" OR "), filter, opts.limit ?? 200);
  if (ranked.length === 0) return [];
  const rows = new Map(
    linesByIds(
      idx,
      ranked.map((r) => r.id),
    ).map((r) => [r.id, r]),
  );
  const stats = lineStats(idx);
  const avg = stats.avgNtok || 1;
  const total = stats.lines || ranked.length;
  // FTS5's IDF of each term from its row count (a count is cheap; scoring every row is not).
  const matching = phrases.map((p) => countMatchingLines(idx, p));
  const idf = matching.map((n) => ftsIdf(n, total));
  // Which candidate lines hold each term: FTS5 says, one query per term. How often: once,
  // unless FTS5's score shows a repeat; then the line's own tokens, stemmed as the index stems them.
  const ids = ranked.map((r) => r.id);
  const holders = phrases.map((p, i) => linesWithPhrase(idx, p, ids, matching[i]!));
  const words = ftsAlternatives(terms, memory);
  const hits: LineHit[] = [];
  for (const r of ranked) {
    const row = rows.get(r.id);
    if (!row) continue;
    const rel = row.ntok / avg;
    let tf: number[] = holders.map((h) => (h.has(r.id) ? 1 : 0));
    // FTS5's own score says whether some term occurs more than once; only then are the line's words counted.
    if (Math.abs(bm25Score(tf, idf, rel, FTS5_BM25) - r.s) > 1e-6 * Math.max(1, r.s)) {
      const tokens = stemmedTokens(row.text);
      tf = tf.map((n, i) =>
        n > 0
          ? Math.max(
              1,
              (words[i] ?? []).reduce((a, w) => a + phraseOccurrences(tokens, w), 0),
            )
          : 0,
      );
    }
    const matched = tf.flatMap((n, i) => (n > 0 ? [i] : []));
    const score = bm25Score(tf, idf, rel, opts.bm25 ?? DEFAULT_BM25);
    const hit: LineHit = { path: row.path, line: row.line, text: row.text, score, coverage: { matched, idf } };
    if (row.date) hit.date = row.date;
    hits.push(hit);
  }
  return hits.sort(byLineScore);
}

/**
 * Each term's forms as FTS5 phrases of their words: one phrase, or for an irregular verb its
 * forms ("pay" also asks for "paid": analysis/irregular.ts), so a present-tense question
 * finds a past-tense log line as the same term. Terms with no words are left out; a
 * repeated phrase once.
 */
function termForms(terms: readonly LexicalTerm[], memory?: MemoryWords): string[][][] {
  const out: string[][][] = [];
  const seen = new Set<string>();
  for (const t of terms) {
    const words = ftsWords(t.text);
    if (words.length === 0) continue;
    const key = words.join(" ").toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const forms = [words];
    if (!t.exact && words.length === 1) {
      const word = words[0]!;
      // "the inspector" also asks for "inspect" (the log's "inspection", "inspected"): analysis/synonyms.ts.
      // "doctor" also asks for "dr", "appt" for "appointment": analysis/abbreviations.ts.
      const alternatives = [
        ...verbForms(word),
        // Only for a doer the memory never names: "the dancers" of a log that has them are those dancers.
        ...agentVerbsIfAbsent(word, memory?.has).flatMap((v) => [v, ...verbForms(v)]),
        ...otherSpellings(word),
        // "Portugal" also asks for "Portuguese": analysis/demonyms.ts.
        ...demonymPair(word),
        // A word the memory never holds may be misspelt: "cluch" also asks for the memory's "clutch".
        ...(memory?.respelled(word) ?? []),
      ];
      for (const f of alternatives) if (!forms.some((w) => w.length === 1 && w[0] === f)) forms.push([f]);
    }
    out.push(forms);
  }
  return out;
}

/** What the line store holds: a word at all, and the memory's spelling of a word it never holds. */
interface MemoryWords {
  has(word: string): boolean;
  respelled(word: string): string[];
}

/** Shortest word (as stemmed) whose one-edit neighbours are looked up: shorter ones have too many real neighbours ("shap": shop, ship, shape). */
const RESPELL_MIN = 5;

/**
 * The memory's word one edit from a query word it never holds (oneEditAway on the stem, the
 * most common such word in the line store; ties alphabetical), or none. Only a word no
 * dictionary knows is respelled (synonyms.ts isDictionaryWord), and only into a word that is a
 * stem of itself, so FTS5 finds it as written.
 */
function respeller(idx: IndexDb): (word: string) => string[] {
  const seen = new Map<string, string[]>();
  return (word) => {
    let fix = seen.get(word);
    if (fix === undefined) {
      fix = [];
      const stems = stemmedTokens(word);
      const stem = stems.length === 1 ? stems[0]! : "";
      const misspelt =
        stem.length >= RESPELL_MIN && !vocabularyCounts(idx, [stem]).has(stem) && !isDictionaryWord(word);
      if (misspelt) {
        const counts = vocabularyCounts(idx, oneEditAway(stem));
        const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
        if (best && stemmedTokens(best).join(" ") === best) fix = [best];
      }
      seen.set(word, fix);
    }
    return fix;
  };
}

function agentVerbsIfAbsent(word: string, inMemory?: (word: string) => boolean): string[] {
  if (!inMemory) return [];
  const verbs = agentVerbs(word);
  return verbs.length > 0 && !inMemory(word) ? verbs : [];
}

/** The FTS5 expression of each term: a phrase, or its forms' phrases OR-ed in parentheses. */
function ftsPhrases(terms: readonly LexicalTerm[], memory?: MemoryWords): string[] {
  return termForms(terms, memory).map((forms) => {
    const phrases = forms.map((w) => `"${w.join(" ")}"`);
    return phrases.length === 1 ? phrases[0]! : `(${phrases.join(" OR ")})`;
  });
}

/** Each term's forms as stemmed token lists, as the line store indexes them (for counting repeats). */
function ftsAlternatives(terms: readonly LexicalTerm[], memory?: MemoryWords): string[][][] {
  return termForms(terms, memory).map((forms) => forms.map((w) => stemmedTokens(w.join(" "))));
}

/**
 * Lines containing the query's CJK runs (unicode61 sees a CJK run as one token, so a
 * word inside a sentence is only found as a substring). A scan: used only for CJK queries.
 */
export function searchCjkLines(idx: IndexDb, query: string, limit = 50): LineHit[] {
  const runs = cjkWords(query).filter((w) => [...w].length >= 2);
  if (runs.length === 0) return [];
  const hits = new Map<string, LineHit>();
  for (const run of runs) {
    for (const r of linesContaining(idx, run, limit) as LineRow[]) {
      const key = `${r.path}#${r.line}`;
      const prev = hits.get(key);
      const score = (prev?.score ?? 0) + [...run].length;
      hits.set(
        key,
        r.date
          ? { path: r.path, line: r.line, text: r.text, date: r.date, score }
          : { path: r.path, line: r.line, text: r.text, score },
      );
    }
  }
  return [...hits.values()].sort(byLineScore);
}
