import { describe, expect, it } from "vitest";
import { DEFAULT_LINE_RANK, rescoreLines } from "./linerank.js";
import type { LineHit } from "./lines.js";

const idf = [3, 1];
const hit = (line: number, matched: number[], score = 1): LineHit => ({
  path: "memory/a.md",
  line,
  score,
  text: `line ${line}`,
  coverage: { matched, idf },
});

describe("coverage bonus", () => {
  const opts = { ...DEFAULT_LINE_RANK, fileWeight: 0, coverageWeight: 2, coverageSpan: 2 };

  it("weights covered terms by IDF and counts neighbours within the span", () => {
    const [rare, common] = rescoreLines([hit(1, [0]), hit(20, [1])], "q", opts);
    expect(rare!.score).toBeCloseTo(1 + 2 * 0.75, 9);
    expect(common!.score).toBeCloseTo(1 + 2 * 0.25, 9);
    // Line 3 matches term 1 and sits two lines after line 1: both now cover the query.
    const [a, b] = rescoreLines([hit(1, [0]), hit(3, [1])], "q", opts);
    expect(a!.score).toBeCloseTo(3, 9);
    expect(b!.score).toBeCloseTo(3, 9);
    // Out of the span: no help.
    const [c] = rescoreLines([hit(1, [0]), hit(4, [1])], "q", opts);
    expect(c!.score).toBeCloseTo(2.5, 9);
  });

  it("is off with weight 0 and for hits without term information", () => {
    expect(rescoreLines([hit(1, [0])], "q", { ...opts, coverageWeight: 0 })[0]!.score).toBe(1);
    const plain: LineHit = { path: "memory/a.md", line: 1, score: 1, text: "x" };
    expect(rescoreLines([plain], "q", opts)[0]!.score).toBe(1);
  });
});

describe("time-word bonus", () => {
  const opts = { ...DEFAULT_LINE_RANK, fileWeight: 0, coverageWeight: 0 };
  const said = (text: string): LineHit => ({ path: "memory/a.md", line: 1, score: 1, text });

  it("lifts lines that say when, only for a 'when' question", () => {
    const [dated, plain] = rescoreLines(
      [said("We moved the database last Friday."), said("We moved the database.")],
      "When did we move the database?",
      opts,
    );
    expect(dated!.score).toBeCloseTo(1 + opts.timeWordBoost, 9);
    expect(plain!.score).toBe(1);
    const [same] = rescoreLines([said("We moved the database last Friday.")], "Why did we move the database?", opts);
    expect(same!.score).toBe(1);
  });
});

describe("amount bonus", () => {
  const opts = { ...DEFAULT_LINE_RANK, fileWeight: 0, coverageWeight: 0 };
  const said = (text: string): LineHit => ({ path: "memory/a.md", line: 1, score: 1, text });

  it("lifts lines holding a number, only for a question after a quantity", () => {
    const lines = [
      said("Kev says the clutch is worn, £640 all in."),
      said("Twelve calls today."),
      said("Clutch feels fine."),
    ];
    for (const q of ["how much was the clutch?", "how many calls did I do?", "what did the clutch cost?"]) {
      const [price, count, plain] = rescoreLines(lines, q, opts);
      expect(price!.score).toBeCloseTo(1 + opts.amountBoost, 9);
      expect(count!.score).toBe(q.startsWith("how many") ? 1 + opts.amountBoost : 1);
      expect(plain!.score).toBe(1);
    }
    expect(rescoreLines(lines, "who fixed the clutch?", opts).map((h) => h.score)).toEqual([1, 1, 1]);
    // A sum is written in digits: "six pages" says no price.
    const [pages] = rescoreLines([said("Wrote the plan, six pages.")], "how much is the plan worth?", opts);
    expect(pages!.score).toBe(1);
  });
});

describe("amount bonus for a measure", () => {
  const opts = { ...DEFAULT_LINE_RANK, fileWeight: 0, coverageWeight: 0, timeWordBoost: 0, recencyBoost: 0 };
  const lines: LineHit[] = [
    { path: "memory/a.md", line: 1, score: 1.2, text: "walked the Ruta del Cares and met friends" },
    { path: "memory/a.md", line: 2, score: 1, text: "the Ruta del Cares is 12 km each way" },
  ];
  const best = (q: string) => [...rescoreLines(lines, q, opts)].sort((a, b) => b.score - a.score)[0]!.line;

  it("puts a line holding a measure first for 'how long', as for 'how far'", () => {
    expect(best("how far is the Ruta del Cares?")).toBe(2);
    expect(best("how long is the Ruta del Cares?")).toBe(2);
    expect(best("who did we meet on the Ruta del Cares?")).toBe(1);
  });
});

describe("recency bonus", () => {
  const opts = { ...DEFAULT_LINE_RANK, fileWeight: 0, coverageWeight: 0, timeWordBoost: 0 };
  const on = (date: string, score: number, text: string): LineHit => ({
    path: `memory/${date}.md`,
    line: 1,
    score,
    date,
    text,
  });
  const lines = [
    on("2026-04-11", 3, "Pint with Frank. Frank Holroyd, for the record: two Franks at bowls."),
    on("2026-04-08", 2, "Frank used to drive buses."),
    on("2026-04-24", 1, "Group again on Tuesday. Frank was there."),
  ];
  const best = (q: string) => [...rescoreLines(lines, q, opts)].sort((a, b) => b.score - a.score)[0]!.date;

  it("puts the newest line naming someone first when asked when they were last seen", () => {
    expect(best("when did I last see Frank?")).toBe("2026-04-24");
    expect(best("the last time I spoke to Frank")).toBe("2026-04-24");
  });

  it("puts the oldest first when asked for the first time or the first of something", () => {
    const walks = [
      on("2026-04-11", 2, "Walked the dog along the canal, muddy."),
      on("2026-04-24", 2, "Canal walk again, dog swam."),
      on("2026-04-02", 2, "Took the dog to the canal, first walk off the lead."),
    ];
    const oldest = (q: string) => [...rescoreLines(walks, q, opts)].sort((a, b) => b.score - a.score)[0]!.date;
    expect(oldest("when did I first walk the dog by the canal?")).toBe("2026-04-02");
    expect(oldest("how did our first canal walk go?")).toBe("2026-04-02");
    // "the first week of April" is a window, not the earliest line.
    expect(rescoreLines(walks, "canal walks in the first week of April", opts).map((h) => h.score)).toEqual([2, 2, 2]);
  });

  it("puts the newest first when asked when something was last done or gone to", () => {
    const washes = [
      on("2026-05-07", 3, "campsite washing machine, 6 euros a load"),
      on("2026-05-30", 2, "laundromat by the harbour, a wash and dry"),
    ];
    const newest = (q: string) => [...rescoreLines(washes, q, opts)].sort((a, b) => b.score - a.score)[0]!.date;
    expect(newest("when did we last do the washing?")).toBe("2026-05-30");
    expect(newest("when did I last go to the laundromat?")).toBe("2026-05-30");
  });

  it("leaves the words' order alone when no latest state is asked for", () => {
    expect(best("what did Frank do for a living?")).toBe("2026-04-11");
    // "last Tuesday" is a window (timewindow.ts), not a question after the newest line.
    expect(rescoreLines(lines, "what happened last Tuesday with Frank?", opts).map((h) => h.score)).toEqual([3, 2, 1]);
  });
});
