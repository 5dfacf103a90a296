// bench/eval-score.mjs (issue 14): the scoring shared by the conversational benchmarks. A
// hit is a result whose line range holds a gold line; the plain-BM25 baseline ranks fixed,
// non-overlapping windows. Wrong here, every number in bench/README.md's REALTALK section is.
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM shared with the benchmark, no types
import { bm25Windows, hitRank, parseSource, Scores } from "../bench/eval-score.mjs";
import { STOP_WORDS } from "../src/analysis/stopwords.js";

type Range = { path: string; start: number; end: number };

const log = [
  "# 2024-01-06",
  "",
  "## Session 7 (19:10 on 6 Jan 2024): Emi and elise",
  "",
  "- **Emi** (19:10): Hello Emily! How did the basketball game go yesterday?",
  "- **elise** (19:33): The basketball game was great a bit tired. My team won!",
  "- **elise** (19:35): After that we went to watch an NBA match, so much adrenaline",
  "- **Emi** (19:40): That sounds amazing. I'm planning a trip to Banff in the spring",
  "",
];

describe("bm25Windows", () => {
  const files = new Map([
    ["memory/2024-01-06.md", log],
    [
      "memory/2024-01-07.md",
      ["# 2024-01-07", "", "- **elise** (18:59): brunch with a friend, then wine and paint", ""],
    ],
  ]);

  it("cuts every log into fixed windows from line 1, the last one shorter", () => {
    const search = bm25Windows(files, 3, STOP_WORDS);
    const all: Range[] = search("basketball game NBA Banff spring brunch wine", 10);
    expect(all.map((r) => `${r.path}#${r.start}-${r.end}`).sort()).toEqual([
      "memory/2024-01-06.md#4-6",
      "memory/2024-01-06.md#7-8",
      "memory/2024-01-07.md#1-3",
    ]);
  });

  it("ranks the window holding the rarer words first, and finds nothing for stop words only", () => {
    const search = bm25Windows(files, 3, STOP_WORDS);
    expect(search("Where does Emi plan to go in the spring?", 1)).toEqual([
      { path: "memory/2024-01-06.md", start: 7, end: 8 },
    ]);
    expect(search("what did you do with them?", 5)).toEqual([]);
    // Ten-line windows: the whole first log is one window.
    expect(bm25Windows(files, 10, STOP_WORDS)("NBA", 5)).toEqual([{ path: "memory/2024-01-06.md", start: 1, end: 8 }]);
  });
});

describe("scores", () => {
  const gold = [{ path: "memory/2024-01-06.md", line: 7 }];

  it("counts a hit at the first result whose range holds a gold line of the same file", () => {
    const results: Range[] = [
      { path: "memory/2024-01-07.md", start: 6, end: 8 },
      { path: "memory/2024-01-06.md", start: 4, end: 6 },
      { path: "memory/2024-01-06.md", start: 6, end: 8 },
    ];
    expect(hitRank(results, gold)).toBe(3);
    expect(hitRank(results.slice(0, 2), gold)).toBeUndefined();
    expect(parseSource("memory/2024-01-06.md#L6-L8")).toEqual(results[2]);
  });

  it("reports recall@k, MRR@10 and lines per result per category and overall", () => {
    const s = new Scores("t");
    s.add("temporal", [{ path: "memory/2024-01-06.md", start: 7, end: 7 }], gold);
    s.add(
      "multi-hop",
      [
        ...Array.from({ length: 5 }, (_, i) => ({ path: "memory/x.md", start: i * 3 + 1, end: i * 3 + 3 })),
        { path: "memory/2024-01-06.md", start: 6, end: 8 },
      ],
      gold,
    );
    s.add("multi-hop", [], gold);
    expect(s.get("temporal")).toEqual({ n: 1, r1: 1, r5: 1, r10: 1, mrr: 1 });
    expect(s.get("multi-hop")).toMatchObject({ n: 2, r1: 0, r5: 0, r10: 0.5 });
    expect(s.get("overall").mrr).toBeCloseTo((1 + 1 / 6) / 3, 10);
    expect(s.meanLines()).toBeCloseTo((1 + 5 * 3 + 3) / 7, 10);
    expect(s.keys()).toEqual(["multi-hop", "temporal", "overall"]);
  });
});
