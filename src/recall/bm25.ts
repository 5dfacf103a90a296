/**
 * BM25 with our own k1 and b on top of SQLite FTS5, whose bm25() fixes k1 1.2 and
 * b 0.75. A term's IDF comes from how many lines it matches; its share of a line's FTS5
 * score then gives back its count in the line, and the share is recomputed with other
 * parameters. On one-line documents (chat turns, Retain facts) a smaller b stops very
 * short lines ("Wow, cool!") outranking the turn that says something (bench/README.md).
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
  const idf = Math.log((total - n + 0.5) / (n + 0.5));
  return Math.max(idf, 1e-6);
}

function saturation(tf: number, relLength: number, p: Bm25Params): number {
  return (tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + p.b * relLength));
}

/**
 * Re-weight one term's FTS5 BM25 share `fts` (positive) of a line whose length is
 * `relLength` times the mean, for a term of FTS5 IDF `idf`. The term's count in the line
 * is solved from the share (rounded: the mean length is ours, FTS5's may differ a little).
 */
export function rescoreTerm(
  fts: number,
  idf: number,
  relLength: number,
  params: Bm25Params = DEFAULT_BM25,
): { tf: number; score: number } {
  if (!(fts > 0) || !(idf > 0)) return { tf: 0, score: 0 };
  const rel = relLength > 0 && Number.isFinite(relLength) ? relLength : 1;
  const x = fts / idf; // = tf (k1+1) / (tf + k1 K) under FTS5's constants
  const k = FTS5_BM25.k1 * (1 - FTS5_BM25.b + FTS5_BM25.b * rel);
  const solved = x < FTS5_BM25.k1 + 1 ? (k * x) / (FTS5_BM25.k1 + 1 - x) : 20;
  const tf = Math.min(20, Math.max(1, Math.round(solved)));
  return { tf, score: idf * saturation(tf, rel, params) };
}
