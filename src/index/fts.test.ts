import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bm25ToScores, buildMatchQuery, cjkTerms } from "./fts.js";

describe("buildMatchQuery", () => {
  it("quotes every term and ORs them", () => {
    expect(buildMatchQuery('ask "hi" x:y')).toBe('"ask" OR "hi" OR "x:y"');
    expect(buildMatchQuery('a"b')).toBe('"a""b"');
    expect(buildMatchQuery("???")).toBeNull();
  });

  it("asks for a hyphenated word's joined form too, never for an id's", () => {
    expect(buildMatchQuery("de-stress tips")).toBe('"de-stress" OR "destress" OR "tips"');
    expect(buildMatchQuery("FJD-482")).toBe('"FJD-482"');
  });

  it("splits CJK words for the trigram table, short words for LIKE", () => {
    expect(cjkTerms("数据库 迁移 ok")).toEqual({ trigram: '"数据库"', short: ["迁移"] });
    // A sentence is also split into its words: one of them is in the log, the sentence is not.
    expect(cjkTerms("我们的数据库迁移很慢").short).toContain("迁移");
    expect(cjkTerms("plain")).toEqual({ trigram: null, short: [] });
  });

  it("maps bm25 ranks to 0..1 relative to the best", () => {
    expect(bm25ToScores([-4, -2, -1])).toEqual([1, 0.5, 0.25]);
    expect(bm25ToScores([])).toEqual([]);
  });

  it("never produces a MATCH expression SQLite rejects (property)", () => {
    const db = new Database(":memory:");
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE g USING fts5(x, tokenize='trigram')");
    db.prepare("INSERT INTO t(x) VALUES (?)").run("FJD-482 a91f3c2 LEDGER_SYNC_BATCH=500");
    const special = fc.constantFrom(
      '"',
      "'",
      "-",
      ":",
      "*",
      "(",
      ")",
      "^",
      "NEAR",
      "AND",
      "OR",
      "NOT",
      "+",
      " ",
      "数据库",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(special, fc.string({ maxLength: 6 })), { maxLength: 12 }), (parts) => {
        const q = parts.join("");
        const m = buildMatchQuery(q);
        if (m) db.prepare("SELECT rowid FROM t WHERE t MATCH ?").all(m);
        const c = cjkTerms(q);
        if (c.trigram) db.prepare("SELECT rowid FROM g WHERE g MATCH ?").all(c.trigram);
      }),
      { numRuns: 500 },
    );
    db.close();
  });
});
