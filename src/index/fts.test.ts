import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { phraseOccurrences, stemmedTokens } from "../analysis/tokens.js";
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

describe("stemmedTokens", () => {
  // A line FTS5 finds a word on must show that word among its stemmed tokens, or recall
  // would count the word 0 times on a line FTS5 says holds it.
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='porter unicode61 remove_diacritics 2')");
  const insert = db.prepare("INSERT INTO t(rowid, text) VALUES (?, ?)");
  const lines = [
    "- **Melanie** (1:56 pm): We moved to Zürich, moving boxes everywhere!",
    "- W @Priya: Shipped the café's new menu; shipping went fine.",
    "Relational databases (Postgres) vs. the connection-pooling approach, ran it twice",
    "- B: I'm running; runners run. Naïve résumé reviews were done.",
    "FJD-482 then FJD-482 again, LEDGER_SYNC_BATCH=500",
  ];
  for (const [i, l] of lines.entries()) insert.run(i + 1, l);
  const matchIds = db.prepare("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid").pluck();

  it("agrees with FTS5's porter tokenizer on which lines hold a word", () => {
    const words = [...new Set(lines.flatMap((l) => l.split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length > 0))];
    fc.assert(
      fc.property(fc.constantFrom(...words), (word) => {
        const phrase = stemmedTokens(word);
        const ours = lines.flatMap((l, i) => (phraseOccurrences(stemmedTokens(l), phrase) > 0 ? [i + 1] : []));
        expect(ours).toEqual(matchIds.all(`"${word.replace(/"/g, '""')}"`));
      }),
      { numRuns: 200 },
    );
  });

  it("counts every occurrence of a phrase, stemmed forms included", () => {
    expect(phraseOccurrences(stemmedTokens(lines[0]!), stemmedTokens("move"))).toBe(2);
    expect(phraseOccurrences(stemmedTokens(lines[4]!), stemmedTokens("FJD-482"))).toBe(2);
    expect(phraseOccurrences(stemmedTokens(lines[3]!), stemmedTokens("resume"))).toBe(1);
  });
});
