import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Opinion, renderOpinion, sortEvidence } from "../markdown/opinions.js";
import { renderRegion } from "../markdown/regions.js";
import { readOpinionPage } from "./opinions.js";

const day = fc
  .tuple(fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
const word = fc.stringMatching(/^[a-z]{2,8}$/);
const opinion: fc.Arbitrary<Opinion> = fc
  .record({
    hex: fc.stringMatching(/^[0-9a-f]{12}$/),
    statement: fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => `${w.join(" ")}.`),
    entities: fc.uniqueArray(fc.stringMatching(/^[A-Z][a-z]{1,6}$/), { maxLength: 3 }),
    confidence: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    previous: fc.option(
      fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
      { nil: undefined },
    ),
    created: day,
    lastUpdated: day,
    evidence: fc.array(
      fc.record({
        factId: fc.stringMatching(/^[0-9a-f]{12}$/),
        date: day,
        stance: fc.constantFrom("support" as const, "contradict" as const),
        source: fc.record({ path: day.map((d) => `memory/${d}.md`), line: fc.integer({ min: 1, max: 500 }) }),
      }),
      { maxLength: 5 },
    ),
  })
  .map(({ hex, previous, ...rest }) => ({
    id: `op-${hex}`,
    ...rest,
    ...(previous === undefined ? {} : { previous }),
  }));

describe("readOpinionPage", () => {
  it("reads back every rendered opinion with the lines of its region text", () => {
    fc.assert(
      fc.property(fc.uniqueArray(opinion, { selector: (o) => o.id, maxLength: 4 }), (ops) => {
        const page = `# Opinions\n\nSome prose.\n\n${ops.map((o) => renderRegion(o.id, renderOpinion(o))).join("\n\n")}\n`;
        const read = readOpinionPage("bank/opinions.md", page);
        expect(read.map((o) => o.id)).toEqual(ops.map((o) => o.id));
        const lines = page.split("\n");
        for (const [i, o] of read.entries()) {
          expect(o.confidence).toBe(ops[i]!.confidence);
          expect(o.previous).toBe(ops[i]!.previous);
          expect(o.entities).toEqual(ops[i]!.entities);
          // The page lists supporting evidence first, then contradicting, each sorted.
          const ev = ops[i]!.evidence;
          const expected = [
            ...sortEvidence(ev.filter((e) => e.stance === "support")),
            ...sortEvidence(ev.filter((e) => e.stance === "contradict")),
          ];
          expect(o.evidence.map((e) => [e.factId, e.stance, e.source])).toEqual(
            expected.map((e) => [e.factId, e.stance, e.source]),
          );
          expect(lines[o.startLine - 1]).toBe(`### ${ops[i]!.statement}`);
          expect(lines[o.endLine - 1]).toMatch(/^(- contradicting: none| {2}- )/);
          expect(lines[o.startLine - 2]).toMatch(/^<!-- membank:begin /);
          expect(lines[o.endLine]).toMatch(/^<!-- membank:end /);
        }
      }),
    );
  });

  it("skips regions that do not parse and pages with broken markers", () => {
    const good: Opinion = {
      id: "op-aaaaaaaaaaaa",
      statement: "Tea beats coffee.",
      entities: ["Ann"],
      confidence: 0.6,
      created: "2026-01-02",
      lastUpdated: "2026-01-03",
      evidence: [],
    };
    const page = `${renderRegion("op-bbbbbbbbbbbb", "### Half an edit\n- confidence: lots\n")}\n\n${renderRegion(good.id, renderOpinion(good))}\n`;
    expect(readOpinionPage("bank/opinions.md", page).map((o) => o.id)).toEqual([good.id]);
    expect(readOpinionPage("bank/opinions.md", "<!-- membank:begin op-x -->\n### A\n")).toEqual([]);
  });
});
