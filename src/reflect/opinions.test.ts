import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
});
