import { describe, expect, it } from "vitest";
import { dedupe, fuse } from "./fuse.js";
import { estimateTokens, fitBudget } from "./shape.js";
import type { ArmList, Candidate, RecallResult } from "./types.js";
import { buildWindows } from "./windows.js";

function note(path: string, start: number, end: number): Candidate {
  return {
    key: `lines:${path}#${start}-${end}`,
    kind: "note",
    path,
    startLine: start,
    endLine: end,
    entities: [],
    content: "n",
  };
}
function fact(path: string, line: number, id = `${path}:${line}`): Candidate {
  return {
    key: `fact:${path}#${line}`,
    kind: "world",
    path,
    startLine: line,
    endLine: line,
    entities: [],
    content: "f",
    factId: id,
  };
}
const list = (arm: string, weight: number, items: [Candidate, number][]): ArmList => ({
  arm,
  weight,
  items: items.map(([cand, score]) => ({ cand, score })),
});

describe("fuse", () => {
  const a = fact("memory/a.md", 1);
  const b = fact("memory/a.md", 2);
  const c = fact("memory/a.md", 3);

  it("reciprocal rank fusion sums weight/(k+rank) over arms", () => {
    const out = fuse(
      [
        list("x", 1, [
          [a, 9],
          [b, 5],
        ]),
        list("y", 1, [
          [b, 0.9],
          [c, 0.1],
        ]),
      ],
      { method: "rrf", rrfK: 60 },
    );
    expect(out.map((f) => f.cand.key)).toEqual([b.key, a.key, c.key]);
    expect(out[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(out[0]!.arms).toEqual([
      { arm: "x", rank: 2, score: 5 },
      { arm: "y", rank: 1, score: 0.9 },
    ]);
  });

  it("weighted fusion normalises each arm to 0..1 and applies weights", () => {
    const out = fuse(
      [
        list("x", 1, [
          [a, 10],
          [b, 0],
        ]),
        list("y", 3, [
          [b, 2],
          [c, 1],
          [a, 0],
        ]),
      ],
      {
        method: "weighted",
        rrfK: 60,
      },
    );
    expect(out.map((f) => [f.cand.key, f.score])).toEqual([
      [b.key, 3],
      [c.key, 1.5],
      [a.key, 1],
    ]);
  });

  it("is deterministic on ties and skips empty or zero-weight arms", () => {
    const out = fuse([list("x", 1, [[c, 1]]), list("y", 1, [[a, 1]]), list("z", 0, [[b, 1]]), list("e", 1, [])]);
    expect(out.map((f) => f.cand.key)).toEqual([a.key, c.key]);
  });
});

describe("dedupe", () => {
  it("a fact and the log lines around it are one result: the fact, with both arms", () => {
    const lines = note("memory/a.md", 10, 12);
    const f = fact("memory/a.md", 11);
    const out = dedupe(
      fuse([
        list("lexical", 1, [[lines, 5]]),
        list("entity", 0.5, [
          [f, 1],
          [fact("memory/b.md", 1), 0.5],
        ]),
      ]),
    );
    expect(out).toHaveLength(2);
    expect(out[0]!.cand.key).toBe(f.key);
    expect(out[0]!.arms.map((h) => h.arm).sort()).toEqual(["entity", "lexical"]);
  });

  it("a window into a judged opinion's region of bank/opinions.md is that opinion", () => {
    const op: Candidate = {
      key: "opinion:op-1",
      kind: "opinion",
      path: "bank/opinions.md",
      startLine: 10,
      endLine: 20,
      entities: [],
      content: "Tea beats coffee.",
      opinionId: "op-1",
      confidence: 0.6,
    };
    const out = dedupe(
      fuse([
        list("lexical", 1, [
          [note("bank/opinions.md", 18, 22), 5],
          [note("bank/opinions.md", 1, 3), 4],
        ]),
        list("opinion", 1, [[op, 1]]),
      ]),
    );
    expect(out.map((f) => f.cand.key)).toEqual([op.key, "lines:bank/opinions.md#1-3"]);
    expect(out[0]!.arms.map((h) => h.arm).sort()).toEqual(["lexical", "opinion"]);
  });

  it("merges overlapping windows of one file and keeps separate places apart", () => {
    const out = dedupe(
      fuse([
        list("x", 1, [
          [note("m.md", 1, 3), 3],
          [note("m.md", 3, 5), 2],
          [note("m.md", 7, 9), 1],
          [note("n.md", 1, 3), 1],
        ]),
      ]),
    );
    expect(out.map((f) => f.cand.key)).toEqual(["lines:m.md#1-3", "lines:m.md#7-9", "lines:n.md#1-3"]);
  });

  it("the same fact from two files with one id is one result", () => {
    const out = dedupe(
      fuse([
        list("x", 1, [
          [fact("a.md", 1, "id1"), 2],
          [fact("b.md", 4, "id1"), 1],
        ]),
      ]),
    );
    expect(out).toHaveLength(1);
  });
});

describe("windows", () => {
  it("centres on the best line, counts matching neighbours and never overlaps", () => {
    const hits = [
      { path: "m.md", line: 5, score: 2, text: "" },
      { path: "m.md", line: 6, score: 1.5, text: "" },
      { path: "m.md", line: 20, score: 2.5, text: "" },
    ];
    const w = buildWindows(hits, { before: 1, after: 1, neighborWeight: 0.5, max: 10 });
    expect(w.map((x) => [x.line, x.startLine, x.endLine])).toEqual([
      [5, 4, 6],
      [20, 19, 21],
    ]);
    expect(w[0]!.score).toBeCloseTo(2 + 0.5 * 1.5);
  });
});

describe("budget", () => {
  const r = (content: string, start = 1): RecallResult => ({
    kind: "note",
    entities: [],
    content,
    source: `memory/a.md#L${start}-L${start + content.split("\n").length - 1}`,
    score: 1,
  });

  it("keeps whole results while they fit", () => {
    const out = fitBudget([r("a".repeat(40)), r("b".repeat(40)), r("c".repeat(4000))], 70);
    expect(out.map((x) => x.content[0])).toEqual(["a", "b"]);
    expect(out.every((x) => x.truncated === undefined)).toBe(true);
  });

  it("cuts the first result that does not fit at a line end and moves its cited end line", () => {
    const long = Array.from({ length: 10 }, (_, i) => `line ${i} ${"x".repeat(30)}`).join("\n");
    const out = fitBudget([r(long, 20)], 16 + 30);
    expect(out).toHaveLength(1);
    expect(out[0]!.truncated).toBe("lines");
    const kept = out[0]!.content.split("\n");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(out[0]!.source).toBe(`memory/a.md#L20-L${20 + kept.length - 1}`);
    expect(long.startsWith(out[0]!.content)).toBe(true);
    expect(estimateTokens(out[0]!.content) + 16).toBeLessThanOrEqual(46);
  });

  it("cuts a single long line mid-way only when nothing else fits, and says so", () => {
    const out = fitBudget([r("y".repeat(1000))], 40);
    expect(out[0]!.truncated).toBe("chars");
    expect(out[0]!.content.endsWith("…")).toBe(true);
  });
});
