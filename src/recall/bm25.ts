/**
 * BM25 with our own k1 and b on top of SQLite FTS5, whose bm25() fixes k1 1.2 and
 * b 0.75. FTS5 ranks the candidate lines; then each query term's exact count on each
 * candidate (index/lines.ts phraseCounts) and its IDF (from a count of its rows) give the
 * score under our parameters. On one-line documents (chat turns, Retain facts) a smaller
 * b stops very short lines ("Wow, cool!") outranking the turn that says something
 * (bench/README.md).
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

/**
 * A line's BM25 score from its exact per-term counts: `tf[i]` occurrences of term i
 * (0: absent), `idf` the terms' FTS5 IDFs, `relLength` the line's length over the mean.
 */
export function bm25Score(
  tf: readonly number[],
  idf: readonly number[],
  relLength: number,
  params: Bm25Params = DEFAULT_BM25,
): number {
  const rel = relLength > 0 && Number.isFinite(relLength) ? relLength : 1;
  let score = 0;
  tf.forEach((n, i) => {
    if (n > 0) score += (idf[i] ?? 0) * saturation(n, rel, params);
  });
  return score;
}
