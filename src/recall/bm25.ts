/**
 * BM25 with our own k1 and b on top of SQLite FTS5, whose bm25() fixes k1 1.2 and
 * b 0.75. A line's FTS5 score is a sum over the query terms it contains of
 * idf(term) x saturation(count, length); with each term's IDF known (from a cheap count
 * of its rows) and one occurrence per term (one-line documents), the score divided by
 * FTS5's saturation is the IDF sum of the matched terms: that gives both the score under
 * other parameters and which terms matched (the subset with that IDF sum). On one-line
 * documents (chat turns, Retain facts) a smaller b stops very short lines ("Wow, cool!")
 * outranking the turn that says something (bench/README.md).
 */
export interface Bm25Params {
  k1: number;
  b: number;
}

/** FTS5's own constants (sqlite ext/fts5/fts5_aux.c). */
export const FTS5_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** Measured on LoCoMo (one turn per line): k1 0.6, b 0.3 beat 1.2 / 0.75 by ~0.02 R@5. */
export const DEFAULT_BM25: Bm25Params = { k1: 0.6, b: 0.3 };

/** FTS5's IDF of a term found in `n` of `total` rows (clamped like FTS5 for very common terms). */
export function ftsIdf(n: number, total: number): number {
  if (n <= 0) return 0; // matches nothing: contributes nothing
  return Math.max(Math.log((total - n + 0.5) / (n + 0.5)), 1e-6);
}

/** BM25's term-frequency saturation for `tf` occurrences in a line `relLength` times the mean length. */
export function saturation(tf: number, relLength: number, p: Bm25Params): number {
  return (tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + p.b * relLength));
}

export interface LineScore {
  score: number;
  /** Indices of the terms the line matched. */
  matched: number[];
}

/** Above this many terms the matched subset is found greedily (2^n subsets otherwise). */
const EXACT_SUBSETS = 12;
/** Up to this many terms, a line whose score shows a repeated term gets its counts solved. */
const MAX_COUNTED = 7;

/**
 * Re-score a line's FTS5 BM25 score `fts` (positive) under `params`. `idf` are the FTS5
 * IDFs of the query's terms; `relLength` the line's length over the mean.
 */
export function rescoreLine(
  fts: number,
  idf: readonly number[],
  relLength: number,
  params: Bm25Params = DEFAULT_BM25,
): LineScore {
  if (!(fts > 0)) return { score: 0, matched: [] };
  const rel = relLength > 0 && Number.isFinite(relLength) ? relLength : 1;
  const one = saturation(1, rel, FTS5_BM25);
  const sum = fts / one;
  const matched = closestSubset(idf, sum);
  const got = matched.reduce((s, i) => s + idf[i]!, 0);
  if (Math.abs(got - sum) <= 0.01 * sum) return { score: sum * saturation(1, rel, params), matched };
  // A term occurs twice (or more): find the counts, then score each term with its own.
  const counts = closestCounts(idf, fts, rel);
  if (!counts) return { score: sum * saturation(1, rel, params), matched };
  let score = 0;
  const terms: number[] = [];
  counts.forEach((tf, i) => {
    if (tf === 0) return;
    terms.push(i);
    score += idf[i]! * saturation(tf, rel, params);
  });
  return { score, matched: terms };
}

/** Per-term counts 0..2 whose FTS5 score is closest to `fts` (short queries only: 3^n choices). */
function closestCounts(idf: readonly number[], fts: number, rel: number): number[] | undefined {
  const live = idf.map((v, i) => ({ v, i })).filter((x) => x.v > 0);
  if (live.length === 0 || live.length > MAX_COUNTED) return undefined;
  const sat = [0, saturation(1, rel, FTS5_BM25), saturation(2, rel, FTS5_BM25)];
  let best: number[] = [];
  let bestErr = Number.POSITIVE_INFINITY;
  const cur = live.map(() => 0);
  const walk = (j: number, s: number): void => {
    if (j === live.length) {
      const err = Math.abs(s - fts);
      if (err < bestErr - 1e-9) {
        bestErr = err;
        best = [...cur];
      }
      return;
    }
    for (let tf = 0; tf <= 2; tf++) {
      cur[j] = tf;
      walk(j + 1, s + live[j]!.v * sat[tf]!);
    }
  };
  walk(0, 0);
  const out = idf.map(() => 0);
  live.forEach((x, j) => {
    out[x.i] = best[j]!;
  });
  return out;
}

/** The terms whose IDFs add up closest to `sum` (ties: fewer terms, then lower indices). */
export function closestSubset(idf: readonly number[], sum: number): number[] {
  const live = idf.map((v, i) => ({ v, i })).filter((x) => x.v > 0);
  if (live.length === 0) return [];
  if (live.length > EXACT_SUBSETS) {
    const out: number[] = [];
    let left = sum;
    for (const x of [...live].sort((a, b) => b.v - a.v || a.i - b.i)) {
      if (x.v <= left * 1.02) {
        out.push(x.i);
        left -= x.v;
      }
    }
    return out.sort((a, b) => a - b);
  }
  let best = 0;
  let bestErr = Number.POSITIVE_INFINITY;
  let bestSize = 0;
  for (let mask = 1; mask < 1 << live.length; mask++) {
    let s = 0;
    let size = 0;
    for (let j = 0; j < live.length; j++) {
      if (mask & (1 << j)) {
        s += live[j]!.v;
        size++;
      }
    }
    const err = Math.abs(s - sum);
    if (err < bestErr - 1e-9 || (Math.abs(err - bestErr) <= 1e-9 && size < bestSize)) {
      best = mask;
      bestErr = err;
      bestSize = size;
    }
  }
  const out: number[] = [];
  for (let j = 0; j < live.length; j++) if (best & (1 << j)) out.push(live[j]!.i);
  return out;
}
