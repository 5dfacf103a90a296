import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexDb } from "../index/db.js";
import { acquireIndex, closeIndexes } from "../index/handles.js";
import { matchLines, readLines } from "../index/lines.js";
import { syncIndex } from "../index/sync.js";
import { openWorkspace } from "../workspace/workspace.js";
import { FTS5_BM25 } from "./bm25.js";
import { lexicalTerms } from "./intent.js";
import { ftsQuery, searchCjkLines, searchLines } from "./lines.js";

let dir: string | undefined;

afterEach(() => {
  closeIndexes();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

// The line store is tables of the index, filled by the index sync: these tests write
// real files into a workspace and sync it.
async function setup(files: Record<string, string>): Promise<IndexDb> {
  dir = mkdtempSync(path.join(tmpdir(), "membank-lines-"));
  return write(files);
}

async function write(files: Record<string, string>): Promise<IndexDb> {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir!, p)), { recursive: true });
    writeFileSync(path.join(dir!, p), text);
  }
  const ws = await openWorkspace(dir!);
  await syncIndex(ws);
  return acquireIndex(path.join(dir!, ".memory/index.sqlite"));
}

describe("line store", () => {
  it("indexes non-blank lines with their numbers and dates, stemmed", async () => {
    const store = await setup({
      "memory/2026-03-04.md": "# Day\n\n- Priya painted the fence.\n- Filed FJD-482 today.\n",
    });
    const hits = searchLines(store, lexicalTerms("who paints fences"));
    expect(hits.map((h) => [h.line, h.date])).toEqual([[3, "2026-03-04"]]);
    expect(readLines(store, "memory/2026-03-04.md", 1, 4).map((l) => l.line)).toEqual([1, 3, 4]);
  });

  it("a question in the present finds a log in the past tense of an irregular verb", async () => {
    const store = await setup({
      "memory/2026-06-16.md":
        "## Money\nInsurance paid out £1,460. Compressor still pending.\nWe pay rent on the 1st.\n",
      "memory/2026-07-21.md": "Dec drove it back, I'm still scared of it.\nSanna brought bacon butties.\n",
    });
    const lines = (q: string) => searchLines(store, lexicalTerms(q)).map((h) => `${h.date}#${h.line}`);
    expect(lines("how much did insurance pay")[0]).toBe("2026-06-16#2");
    expect(lines("did Dec drive the van")).toContain("2026-07-21#1");
    expect(lines("what does Sanna bring")[0]).toBe("2026-07-21#2");
    // a line holding two forms of the verb counts it twice, as a repeated word does
    const both = await write({ "memory/2026-07-22.md": "Paid the roofer, will pay the rest Friday.\n" });
    expect(searchLines(both, lexicalTerms("pay"))[0]!.date).toBe("2026-07-22");
  });

  it("a question about the doer finds the log's deed: the teacher, what was taught; the driver, who drove", async () => {
    const store = await setup({
      "memory/2026-05-02.md":
        "Parents' evening. Mrs Obi says Kit's reading is ahead, teaches him phonics on Fridays.\n",
      "memory/2026-05-03.md": "Taxi home from the airport, Arjun drove, 40 minutes.\nThe corn on the cob was great.\n",
    });
    const lines = (q: string) => searchLines(store, lexicalTerms(q)).map((h) => `${h.date}#${h.line}`);
    expect(lines("what did Kit's teacher say")).toContain("2026-05-02#1");
    expect(lines("who was the driver from the airport")[0]).toBe("2026-05-03#1");
    // Only a verb the noun is spelt from: a corner is no one who corns.
    expect(lines("which corner")).toEqual([]);
  });

  it("a question in full words finds a note's short forms, and the other way round", async () => {
    const store = await setup({
      "memory/2026-04-07.md": "dentist appt moved to Thu 3pm\nSaw Dr. Mensah re the rash, cream 2x a day\n",
      "memory/2026-04-08.md": "The doctor's surgery called back.\n",
    });
    const lines = (q: string) => searchLines(store, lexicalTerms(q)).map((h) => `${h.date}#${h.line}`);
    expect(lines("when is my dentist appointment")[0]).toBe("2026-04-07#1");
    expect(lines("what did the doctor say about the rash")[0]).toBe("2026-04-07#2");
    expect(lines("dr")).toEqual(expect.arrayContaining(["2026-04-07#2", "2026-04-08#1"]));
  });

  it("matches exact tokens as phrases of their parts", async () => {
    const store = await setup({
      "memory/a.md": "- FJD-482 is open\n- FJD 999 and 482 apart\n- LEDGER_SYNC_BATCH=500 set\n",
    });
    expect(ftsQuery(lexicalTerms("FJD-482"))).toBe('"FJD 482"');
    expect(searchLines(store, lexicalTerms("FJD-482")).map((h) => h.line)).toEqual([1]);
    expect(searchLines(store, lexicalTerms("LEDGER_SYNC_BATCH=500")).map((h) => h.line)).toEqual([3]);
    expect(searchLines(store, lexicalTerms('"quoted" OR NEAR(x'))).toEqual([]);
  });

  it("follows the index sync: a changed file re-read, a removed one dropped", async () => {
    await setup({ "memory/a.md": "- alpha\n", "memory/b.md": "- beta\n" });
    unlinkSync(path.join(dir!, "memory/b.md"));
    const store = await write({ "memory/a.md": "- alpha\n- gamma appended\n" });
    expect(searchLines(store, lexicalTerms("gamma")).map((h) => [h.path, h.line])).toEqual([["memory/a.md", 2]]);
    expect(searchLines(store, lexicalTerms("beta"))).toEqual([]);
    expect(searchLines(store, lexicalTerms("alpha")).length).toBe(1);
  });

  it("finds a CJK word inside a sentence", async () => {
    const store = await setup({ "memory/2026-03-12.md": "- W @Wei: 数据库迁移已经完成。\n- other\n" });
    expect(searchCjkLines(store, "数据库").map((h) => h.line)).toEqual([1]);
  });

  it("re-scores with its own k1 and b, and says which query terms each line matched", async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `- note ${i} about the weather and the office plants`).join(
      "\n",
    );
    const store = await setup({
      "memory/a.md": `- Wow, concert!\n- The concert in Tokyo sold out, the crowd sang every song with us all night long.\n${filler}\n`,
    });
    const terms = lexicalTerms("Tokyo concert");
    // On "concert" alone the two-word line leads; b 0.3 shrinks its length advantage.
    const lead = (p?: typeof FTS5_BM25) => {
      const [a, b] = searchLines(store, lexicalTerms("concert"), p ? { bm25: p } : {});
      expect(a!.line).toBe(1);
      return a!.score / b!.score;
    };
    expect(lead()).toBeLessThan(lead(FTS5_BM25));
    const hits = searchLines(store, terms);
    expect(hits.map((h) => h.line)).toEqual([2, 1]);
    // ...and which terms each line matched (indices into the query's terms).
    expect(hits[0]!.coverage!.matched).toEqual([0, 1]);
    expect(hits[1]!.coverage!.matched).toEqual([1]);
    expect(hits[0]!.coverage!.idf[0]).toBeGreaterThan(0);
    // Under FTS5's own parameters the score is FTS5's bm25 (same order as its ranking).
    const fts = matchLines(store, '"Tokyo" OR "concert"', {}, 100);
    expect(searchLines(store, terms, { bm25: FTS5_BM25 }).map((h) => h.score)).toEqual(
      fts.map((r) => expect.closeTo(r.s, 6)),
    );
  });

  it("knows exactly which terms a line matched, even when two terms are equally rare", async () => {
    // Guessing terms back from FTS5 scores cannot tell "kayak" from "lighthouse" here:
    // both occur on one line, so their IDFs are equal.
    const store = await setup({
      "memory/2026-05-02.md":
        "- Rented a kayak at the marina, paddled out for an hour.\n- Walked up to the old lighthouse after lunch.\n" +
        "- Groceries, laundry, called mum.\n",
    });
    const hits = searchLines(store, lexicalTerms("kayak lighthouse"));
    expect(hits.map((h) => [h.line, h.coverage!.matched])).toEqual(
      expect.arrayContaining([
        [1, [0]],
        [2, [1]],
      ]),
    );
    expect(hits).toHaveLength(2);
  });

  it("counts a term said twice on a line (stemmed forms included), once per occurrence", async () => {
    const store = await setup({
      "memory/2026-06-10.md":
        "- We moved the boxes on Monday, and Jonas moving them again on Tuesday was a surprise.\n" +
        "- Jonas said the boxes were heavy and the stairs were steep, no elevator in the building at all.\n" +
        Array.from({ length: 20 }, (_, i) => `- unrelated note number ${i} about nothing much`).join("\n"),
    });
    // Same length (16 words each): the line that says "move" twice ranks first, above FTS5's single count.
    const [first, second] = searchLines(store, lexicalTerms("boxes moved"));
    expect(first!.line).toBe(1);
    expect(second!.line).toBe(2);
    const once = searchLines(store, lexicalTerms("boxes moved"), { bm25: FTS5_BM25 });
    const fts = matchLines(store, '"boxes" OR "moved"', {}, 100);
    // Under FTS5's own parameters, exact counts give back FTS5's own scores.
    expect(once.map((h) => h.score)).toEqual(fts.map((r) => expect.closeTo(r.s, 6)));
  });
});
