import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bm25Score, DEFAULT_BM25, FTS5_BM25, ftsIdf, saturation } from "./bm25.js";

describe("bm25Score", () => {
  it("is FTS5's sum of idf x saturation under FTS5's parameters, and ignores absent terms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0.1, max: 12, noNaN: true }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.double({ min: 0.05, max: 8, noNaN: true }),
        (terms, rel) => {
          const idf = terms.map(([v]) => v);
          const tf = terms.map(([, n]) => n);
          const want = terms.reduce((s, [v, n]) => s + (n > 0 ? v * saturation(n, rel, FTS5_BM25) : 0), 0);
          expect(bm25Score(tf, idf, rel, FTS5_BM25)).toBeCloseTo(want, 9);
        },
      ),
    );
  });

  it("with a small b, a short line gains less over a long one than under FTS5", () => {
    const ours = bm25Score([1], [2], 0.2, DEFAULT_BM25) / bm25Score([1], [2], 3, DEFAULT_BM25);
    const fts5 = bm25Score([1], [2], 0.2, FTS5_BM25) / bm25Score([1], [2], 3, FTS5_BM25);
    expect(ours).toBeGreaterThan(1);
    expect(ours).toBeLessThan(fts5);
  });

  it("a repeated term adds less than a second distinct term of the same IDF", () => {
    expect(bm25Score([2, 0], [2, 2], 1)).toBeLessThan(bm25Score([1, 1], [2, 2], 1));
    expect(bm25Score([2, 0], [2, 2], 1)).toBeGreaterThan(bm25Score([1, 0], [2, 2], 1));
  });

  it("scores nothing for no matches", () => {
    expect(bm25Score([0, 0], [1, 3], 1)).toBe(0);
  });
});

describe("ftsIdf", () => {
  it("falls with the number of matching rows, is clamped for very common terms, 0 for absent ones", () => {
    expect(ftsIdf(1, 1000)).toBeGreaterThan(ftsIdf(10, 1000));
    expect(ftsIdf(900, 1000)).toBe(1e-6);
    expect(ftsIdf(0, 1000)).toBe(0);
  });
});
