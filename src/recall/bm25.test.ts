import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_BM25, FTS5_BM25, ftsIdf, rescoreTerm } from "./bm25.js";

/** FTS5's share of one term: idf * tf * 2.2 / (tf + 1.2 (0.25 + 0.75 rel)). */
const fts5 = (idf: number, tf: number, rel: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * rel));

describe("rescoreTerm", () => {
  it("recovers the term count and is the identity under FTS5's own parameters", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 12, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0.05, max: 8, noNaN: true }),
        (idf, tf, rel) => {
          const r = rescoreTerm(fts5(idf, tf, rel), idf, rel, FTS5_BM25);
          expect(r.tf).toBe(tf);
          expect(r.score).toBeCloseTo(fts5(idf, tf, rel), 9);
        },
      ),
    );
  });

  it("with a small b, a short line gains less over a long one than under FTS5", () => {
    const short = rescoreTerm(fts5(2, 1, 0.2), 2, 0.2, DEFAULT_BM25);
    const long = rescoreTerm(fts5(2, 1, 3), 2, 3, DEFAULT_BM25);
    expect(short.score).toBeGreaterThan(long.score);
    expect(short.score / long.score).toBeLessThan(fts5(2, 1, 0.2) / fts5(2, 1, 3));
  });

  it("ignores empty input", () => {
    expect(rescoreTerm(0, 1, 1)).toEqual({ tf: 0, score: 0 });
    expect(rescoreTerm(2, 0, 1)).toEqual({ tf: 0, score: 0 });
  });
});

describe("ftsIdf", () => {
  it("falls with the number of matching rows and is clamped for very common terms", () => {
    expect(ftsIdf(1, 1000)).toBeGreaterThan(ftsIdf(10, 1000));
    expect(ftsIdf(900, 1000)).toBe(1e-6);
  });
});
