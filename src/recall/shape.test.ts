import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitBudget, newestEvidence, toResult } from "./shape.js";
import type { EvidenceRef } from "./types.js";

const ref = (day: string, line: number, stance: EvidenceRef["stance"]): EvidenceRef => ({
  source: `memory/${day}.md#L${line}`,
  stance,
});

/** A judged opinion restated for years: its page lists every link (supporting, then contradicting). */
function longOpinion(links: number) {
  const evidence: EvidenceRef[] = [];
  for (let i = 0; i < links; i++) {
    const day = new Date(Date.UTC(2016, 0, 1) + i * 86_400_000 * 3).toISOString().slice(0, 10);
    evidence.push(ref(day, 10 + (i % 30), i % 7 === 0 ? "contradict" : "support"));
  }
  evidence.sort((a, b) => (a.stance === b.stance ? 0 : a.stance === "support" ? -1 : 1));
  return {
    cand: {
      key: "opinion:op-1",
      kind: "opinion" as const,
      path: "bank/opinions.md",
      startLine: 10,
      endLine: 10 + links,
      date: "2025-12-28",
      entities: ["Mara"],
      content: "Prefers async written status updates over live standup meetings.",
      confidence: 0.6,
      opinionId: "op-1",
      evidence,
    },
    score: 1,
    arms: [],
  };
}

describe("an opinion's evidence in a recall result", () => {
  it("an opinion with hundreds of evidence links still answers within the budget, with its newest links", () => {
    const f = longOpinion(886);
    const results = fitBudget([toResult(f, false, 5)], 1500);
    expect(results).toHaveLength(1);
    const r = results[0]!;
    expect(r.evidenceTotal).toBe(886);
    expect(r.evidence).toHaveLength(5);
    // Both stances, each the newest of its kind.
    const newest = (stance: string) =>
      f.cand.evidence
        .filter((e) => e.stance === stance)
        .map((e) => e.source)
        .sort()
        .at(-1);
    const kept = r.evidence!.map((e) => e.source);
    expect(kept).toContain(newest("support"));
    expect(kept).toContain(newest("contradict"));
  });

  it("a short list is kept whole, with no total", () => {
    const f = longOpinion(4);
    const r = toResult(f, false, 5);
    expect(r.evidence).toEqual(f.cand.evidence);
    expect(r.evidenceTotal).toBeUndefined();
  });

  it("keeps at most the limit, only links of the list, in the page's order, and every stance the list has", () => {
    const day = fc
      .tuple(fc.integer({ min: 2016, max: 2025 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
    const link = fc
      .tuple(day, fc.integer({ min: 1, max: 200 }), fc.constantFrom("support" as const, "contradict" as const))
      .map(([d, l, s]) => ref(d, l, s));
    fc.assert(
      fc.property(fc.array(link, { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (list, limit) => {
        const kept = newestEvidence(list, limit);
        expect(kept.length).toBe(Math.min(limit, list.length));
        const at = kept.map((e) => list.indexOf(e));
        expect(at.every((i) => i >= 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
        if (limit >= 2) {
          for (const stance of ["support", "contradict"] as const) {
            if (list.some((e) => e.stance === stance)) expect(kept.some((e) => e.stance === stance)).toBe(true);
          }
        }
      }),
    );
  });
});
