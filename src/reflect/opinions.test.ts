import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { opinionStatus, trimPath } from "../markdown/opinions.js";
import { type Opinion, parseOpinion, renderOpinion } from "./opinions.js";

const sample: Opinion = {
  id: "op-a085b639f513",
  statement: "ledger-sync ships in March.",
  entities: ["Jonas"],
  confidence: 0.66,
  previous: 0.8,
  created: "2026-03-03",
  lastUpdated: "2026-03-09",
  evidence: [
    {
      factId: "a085b639f513",
      date: "2026-03-03",
      stance: "support",
      source: { path: "memory/2026-03-03.md", line: 18 },
      content: "ledger-sync ships in March.",
    },
    {
      factId: "8e7614a54cd9",
      date: "2026-03-09",
      stance: "contradict",
      source: { path: "memory/2026-03-09.md", line: 18 },
      content: "ledger-sync no longer ships in March; `cursor` redesign — FJD-482",
    },
  ],
};

describe("opinion regions", () => {
  it("renders a readable block", () => {
    expect(renderOpinion(sample)).toBe(
      [
        "### ledger-sync ships in March.",
        "",
        "- id: `op-a085b639f513`",
        "- entities: @Jonas",
        "- confidence: 0.66 (last change: 0.80 -> 0.66)",
        "- first stated: 2026-03-03",
        "- last updated: 2026-03-09",
        "- supporting (1 day):",
        "  - 2026-03-03 [memory/2026-03-03.md#L18](../memory/2026-03-03.md#L18) `a085b639f513` — ledger-sync ships in March.",
        "- contradicting (1 day):",
        "  - 2026-03-09 [memory/2026-03-09.md#L18](../memory/2026-03-09.md#L18) `8e7614a54cd9` — ledger-sync no longer ships in March; `cursor` redesign — FJD-482",
        "",
      ].join("\n"),
    );
  });

  it("parses back what it renders (property)", () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,8}$/);
    const date = fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const ev = fc.record({
      factId: fc.stringMatching(/^[0-9a-f]{12}$/),
      date,
      stance: fc.constantFrom("support" as const, "contradict" as const),
      source: fc.record({ path: date.map((d) => `memory/${d}.md`), line: fc.integer({ min: 1, max: 9999 }) }),
      content: fc.string({ minLength: 1 }).map((s) => s.replace(/\s+/g, " ").trim() || "x"),
      gone: fc.option(fc.constant(true as const), { nil: undefined }),
    });
    const op = fc.record({
      id: fc.stringMatching(/^op-[0-9a-f]{12}$/),
      statement: fc.string({ minLength: 1 }).map((s) => s.replace(/\s+/g, " ").trim() || "s"),
      entities: fc.uniqueArray(word, { maxLength: 3 }),
      confidence: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
      created: date,
      lastUpdated: date,
      evidence: fc.array(ev, { maxLength: 5 }),
    });
    fc.assert(
      fc.property(op, (o) => {
        const parsed = parseOpinion(o.id, renderOpinion(o));
        expect(typeof parsed).not.toBe("string");
        // Rendering the parsed opinion gives the same bytes: the file is a faithful state.
        expect(renderOpinion(parsed as Opinion)).toBe(renderOpinion(o));
      }),
    );
  });

  it("reads a hand-changed confidence", () => {
    const text = renderOpinion(sample).replace("- confidence: 0.66 (last change: 0.80 -> 0.66)", "- confidence: 0.3");
    const parsed = parseOpinion(sample.id, text) as Opinion;
    expect(parsed.confidence).toBe(0.3);
    expect(parsed.previous).toBeUndefined();
    expect(parsed.evidence).toHaveLength(2);
  });

  it("explains what it cannot read", () => {
    const bad = renderOpinion(sample).replace("0.66 (last change: 0.80 -> 0.66)", "very high");
    expect(parseOpinion(sample.id, bad)).toMatch(/confidence must be a number/);
    expect(parseOpinion(sample.id, renderOpinion(sample).replace("0.66", "1.5"))).toMatch(/outside 0\.\.1/);
    expect(parseOpinion(sample.id, "just prose\n")).toMatch(/cannot read/);
  });

  describe("trajectory", () => {
    const moved: Opinion = {
      ...sample,
      confidence: 0.3,
      previous: 0.55,
      lastUpdated: "2026-03-25",
      path: [
        { date: "2026-03-03", confidence: 0.8 },
        { date: "2026-03-11", confidence: 0.62 },
        { date: "2026-03-18", confidence: 0.55 },
        { date: "2026-03-25", confidence: 0.3 },
      ],
      evidence: [
        { ...sample.evidence[0]!, reason: "first stated at 0.80" },
        {
          ...sample.evidence[1]!,
          date: "2026-03-11",
          strength: 1,
          from: 0.8,
          to: 0.62,
          reason: "restated at 0.50 < 0.80",
        },
      ],
    };

    it("shows the path, the status, and per row the stance, strength, move and reason", () => {
      const text = renderOpinion(moved);
      expect(text).toContain("- confidence: 0.30 (last change: 0.55 -> 0.30)\n");
      expect(text).toContain("- status: reversed\n");
      expect(text).toContain("- path: 0.80 (2026-03-03) -> 0.62 (03-11) -> 0.55 (03-18) -> 0.30 (03-25)\n");
      expect(text).toContain("`a085b639f513` supports: first stated at 0.80 — ledger-sync ships in March.");
      expect(text).toContain(
        "`8e7614a54cd9` contradicts 1.00, 0.80 -> 0.62: restated at 0.50 < 0.80 — ledger-sync no longer ships",
      );
      const parsed = parseOpinion(moved.id, text) as Opinion;
      expect(parsed).toEqual(moved);
      expect(renderOpinion(parsed)).toBe(text);
    });

    it("marks a default first value, a value set by hand, and a year change", () => {
      const op: Opinion = {
        ...moved,
        confidence: 0.45,
        previous: undefined,
        path: [
          { date: "2025-12-30", confidence: 0.7, default: true },
          { date: "2026-01-04", confidence: 0.66 },
        ],
      };
      delete op.previous;
      const text = renderOpinion(op);
      expect(text).toContain("- path: 0.70 (2025-12-30, default) -> 0.66 (2026-01-04) -> 0.45 (by hand)\n");
      expect(text).toContain("- status: reversed\n");
      expect(renderOpinion(parseOpinion(op.id, text) as Opinion)).toBe(text);
      const untouched: Opinion = { ...op, confidence: 0.7, path: [op.path![0]!] };
      expect(renderOpinion(untouched)).toContain("- confidence: 0.70 (default: the first statement gave no c=)\n");
    });

    it("keeps the first point and the latest ones of a long path, the same whether cut once or on every step", () => {
      const points = Array.from({ length: 30 }, (_, i) => ({
        date: `2026-${String(1 + Math.floor(i / 28)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
        confidence: Math.round((0.9 - i * 0.02) * 100) / 100,
      }));
      const once = trimPath(points, false);
      let step = { path: [points[0]!], elided: false };
      for (const p of points.slice(1)) step = trimPath([...step.path, p], step.elided);
      expect(step).toEqual(once);
      expect(once.path[0]).toEqual(points[0]);
      expect(once.path.at(-1)).toEqual(points.at(-1));
      const text = renderOpinion({ ...moved, confidence: points.at(-1)!.confidence, path: once.path, elided: true });
      expect(text).toMatch(/- path: 0\.90 \(2026-01-01\) -> … -> /);
      const back = parseOpinion(moved.id, text) as Opinion;
      expect(back.path).toEqual(once.path);
      expect(back.elided).toBe(true);
    });

    it("names where an opinion stands", () => {
      const at = (first: number, now: number) =>
        opinionStatus({ confidence: now, path: [{ date: "2026-03-03", confidence: first }] });
      expect(at(0.8, 0.75)).toBe("holding");
      expect(at(0.8, 0.66)).toBe("weakened");
      expect(at(0.8, 0.42)).toBe("reversed");
      expect(at(0.6, 0.75)).toBe("strengthened");
      expect(at(0.3, 0.55)).toBe("reversed");
    });
  });
});
