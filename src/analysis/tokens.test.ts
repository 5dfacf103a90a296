import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { porterStem } from "./stem.js";
import { STOP_WORDS } from "./stopwords.js";
import {
  cjkWords,
  ftsWords,
  hasCjk,
  isExactToken,
  joinedCompound,
  queryTerms,
  rawTokens,
  splitCompound,
} from "./tokens.js";

// The index's own tables (src/index/schema.ts): the analyzer must agree with them.
const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE uni USING fts5(x, tokenize='unicode61 remove_diacritics 2')");
db.exec("CREATE VIRTUAL TABLE por USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')");
db.exec("CREATE VIRTUAL TABLE tri USING fts5(x, tokenize='trigram')");
afterAll(() => db.close());

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
function finds(table: string, doc: string, term: string): boolean {
  db.exec(`DELETE FROM ${table}`);
  db.prepare(`INSERT INTO ${table}(x) VALUES (?)`).run(doc);
  const row = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(quote(term)) as { n: number };
  return row.n > 0;
}

describe("queryTerms", () => {
  it("keeps ids, tickets and env keys whole, strips wrapping punctuation, drops stop words", () => {
    expect(queryTerms("What is the status of FJD-482?")).toEqual(["status", "FJD-482"]);
    expect(queryTerms("(see `a91f3c2`), LEDGER_SYNC_BATCH=500.")).toEqual(["see", "a91f3c2", "LEDGER_SYNC_BATCH=500"]);
    expect(queryTerms("the of and")).toEqual(["the", "of", "and"]);
    expect(queryTerms("Foo foo FOO")).toEqual(["Foo"]);
    expect(queryTerms('" - : *')).toEqual([]);
  });

  it("drops the question fillers recall drops too (one stop-word list)", () => {
    expect(queryTerms("Can you tell me what happened with the Kestrel rollout?")).toEqual(["Kestrel", "rollout"]);
    for (const w of ["tell", "happened", "don't", "s"]) expect(STOP_WORDS.has(w)).toBe(true);
  });
});

describe("the tokenizer against the index's FTS5 tables", () => {
  const notes = [
    "Deploy blocked on FJD-482 until Wei signs off (see a91f3c2).",
    "Set LEDGER_SYNC_BATCH=500 in prod.env, then restart ledger-sync.",
    "Zoë said the café's Wi-Fi was flaky again; we moved to the library.",
    "Mara's trying to de-stress: no Slack after 7pm, long walks w/ the dog",
    "Ship v2.3.1 by Fri?? probably not — QA found 3 regressions",
  ];

  it("every query term of a note finds that note through FTS5 (unicode61 and porter)", () => {
    for (const note of notes) {
      for (const term of queryTerms(note)) {
        expect(finds("uni", note, term), `${term} in ${note}`).toBe(true);
        expect(finds("por", note, term), `${term} in ${note}`).toBe(true);
      }
    }
  });

  it("keeps exact tokens whole, and FTS5 matches them only as written", () => {
    expect(rawTokens("status of FJD-482, LEDGER_SYNC_BATCH=500!")).toEqual([
      "status",
      "of",
      "FJD-482",
      "LEDGER_SYNC_BATCH=500",
    ]);
    expect(isExactToken("FJD-482")).toBe(true);
    expect(isExactToken("LEDGER_SYNC_BATCH=500")).toBe(true);
    expect(isExactToken("rollout")).toBe(false);
    expect(finds("uni", "ticket FJD-483 and 482 others", "FJD-482")).toBe(false);
    expect(finds("uni", "ticket FJD-482", "FJD-482")).toBe(true);
  });

  it("splits words as unicode61 does, accents folded", () => {
    expect(ftsWords("Zoë's Wi-Fi (café)")).toEqual(["Zoë", "s", "Wi", "Fi", "café"]);
    for (const w of ftsWords("Zoë's Wi-Fi (café)")) expect(finds("uni", "zoe s wi fi cafe", w)).toBe(true);
  });

  it("hyphenated words: found by the whole word, its parts, and the joined form", () => {
    const doc = "Trying to de-stress after the on-call week.";
    expect(finds("uni", doc, "de-stress")).toBe(true);
    expect(finds("uni", doc, "stress")).toBe(true);
    expect(joinedCompound("de-stress")).toBe("destress");
    expect(finds("uni", "destress weekend", joinedCompound("de-stress")!)).toBe(true);
    expect(joinedCompound("FJD-482")).toBeUndefined();
    expect(joinedCompound("rollout")).toBeUndefined();
  });

  it("a joined compound also asks for its hyphenated parts, which the index holds as a phrase", () => {
    const phrase = (t: string) => ftsWords(t).join(" ");
    for (const [word, doc] of [
      ["checkin", "She wants the check-in before noon."],
      ["signup", "sign-up form is broken on mobile"],
      ["takeaway", "got a take away from the thai place"],
      ["email", "Sent the e-mail to the landlord."],
    ] as const) {
      const split = splitCompound(word);
      expect(split, word).toBeDefined();
      expect(finds("por", doc, word), `${word} alone`).toBe(false);
      expect(db.prepare("SELECT count(*) AS n FROM por WHERE por MATCH ?").get(quote(phrase(split!)))).toEqual({
        n: 1,
      });
    }
    // Words that merely end like a particle word or start with "e" but are short stay whole.
    expect(splitCompound("lesson")).toBeUndefined();
    expect(splitCompound("begin")).toBeUndefined();
    expect(splitCompound("edit")).toBeUndefined();
  });

  it("porter stems as the porter table does", () => {
    for (const [doc, q] of [
      ["Shipped the billing revamp", "shipping"],
      ["she relocated to Lisbon", "relocating"],
      ["two regressions found", "regression"],
    ] as const) {
      expect(finds("por", doc, q)).toBe(true);
      expect(porterStem(q.toLowerCase())).toBe(
        porterStem(
          ftsWords(doc)
            .find((w) => porterStem(w.toLowerCase()) === porterStem(q))!
            .toLowerCase(),
        ),
      );
    }
  });

  it("any word FTS5 sees in a text is found by the analyzer's word (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (parts) => {
        const doc = parts.join(" ");
        for (const w of ftsWords(doc).slice(0, 3)) expect(finds("uni", doc, w)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe("CJK", () => {
  it("keeps a short run whole and splits a sentence into words with Intl.Segmenter", () => {
    expect(hasCjk("status 数据库")).toBe(true);
    expect(hasCjk("plain ascii, café")).toBe(false);
    expect(cjkWords("数据库")).toEqual(["数据库"]);
    const words = cjkWords("我们的数据库迁移很慢");
    expect(words[0]).toBe("我们的数据库迁移很慢");
    expect(words).toContain("迁移");
    expect(words).not.toContain("的"); // one-character particles would match everything
    expect(cjkWords("データベースの移行が完了しました")).toContain("データベース");
    expect(cjkWords("데이터베이스 마이그레이션 완료")).toEqual(["데이터베이스", "마이그레이션", "완료"]);
  });

  it("the words of a CJK question are found in the log line that answers it", () => {
    const line = "- Wei confirmed: 数据库迁移已经完成，新的只读副本运行正常。";
    const [sentence, ...words] = cjkWords("只读副本运行正常吗？数据库");
    expect(finds("tri", line, sentence!)).toBe(false); // the question as a whole is not in the log
    expect(words.length).toBeGreaterThan(2);
    for (const w of words) {
      // 3+ characters go to the trigram table, shorter ones to LIKE (index/fts.ts cjkTerms)
      if ([...w].length >= 3) expect(finds("tri", line, w), w).toBe(true);
      else expect(line.includes(w), w).toBe(true);
    }
  });
});
