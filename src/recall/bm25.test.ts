import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestSubset, DEFAULT_BM25, FTS5_BM25, ftsIdf, rescoreLine, saturation } from "./bm25.js";

/** FTS5's score of a line containing the terms `matched` once each. */
const fts5 = (idf: number[], matched: number[], rel: number) =>
  matched.reduce((s, i) => s + idf[i]!, 0) * saturation(1, rel, FTS5_BM25);

describe("rescoreLine", () => {
  it("is the identity under FTS5's parameters and recovers the matched terms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.1, max: 12, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.double({ min: 0.05, max: 8, noNaN: true }),
        (idf, pick, rel) => {
          const matched = idf.map((_, i) => i).filter((i) => pick[i]);
          if (matched.length === 0) return;
          const r = rescoreLine(fts5(idf, matched, rel), idf, rel, FTS5_BM25);
          expect(r.score).toBeCloseTo(fts5(idf, matched, rel), 9);
          // The recovered subset has the same IDF sum (equal sums are interchangeable for scoring).
          const sum = (s: number[]) => s.reduce((a, i) => a + idf[i]!, 0);
          expect(sum(r.matched)).toBeCloseTo(sum(matched), 6);
        },
      ),
    );
  });

  it("with a small b, a short line gains less over a long one than under FTS5", () => {
    const idf = [2];
    const short = rescoreLine(fts5(idf, [0], 0.2), idf, 0.2, DEFAULT_BM25);
    const long = rescoreLine(fts5(idf, [0], 3), idf, 3, DEFAULT_BM25);
    expect(short.score).toBeGreaterThan(long.score);
    expect(short.score / long.score).toBeLessThan(fts5(idf, [0], 0.2) / fts5(idf, [0], 3));
    expect(short.matched).toEqual([0]);
  });

  it("ignores empty input", () => {
    expect(rescoreLine(0, [1], 1)).toEqual({ score: 0, matched: [] });
  });
});

describe("closestSubset", () => {
  it("finds the terms behind a sum, greedily for long queries", () => {
    expect(closestSubset([3, 1, 0.5], 3.5)).toEqual([0, 2]);
    expect(closestSubset([3, 0, 0.5], 0.5)).toEqual([2]);
    const many = Array.from({ length: 16 }, (_, i) => 1 + i * 0.37);
    expect(closestSubset(many, many[15]! + many[3]!)).toEqual([3, 15]);
  });
});

describe("ftsIdf", () => {
  it("falls with the number of matching rows, is clamped for very common terms, 0 for absent ones", () => {
    expect(ftsIdf(1, 1000)).toBeGreaterThan(ftsIdf(10, 1000));
    expect(ftsIdf(900, 1000)).toBe(1e-6);
    expect(ftsIdf(0, 1000)).toBe(0);
  });
});
