import { describe, expect, it } from "vitest";
import { type Opinion, renderOpinion } from "../markdown/opinions.js";
import { bodyHash } from "../markdown/regions.js";
import { opinionMemo } from "./opinion-memo.js";

const opinion = (confidence: number): Opinion => ({
  id: "op-2025-03-02-a1",
  statement: "Reckons the night bus is faster than the tram after ten",
  entities: ["Joost"],
  confidence,
  lastUpdated: "2025-03-09",
  created: "2025-03-02",
  evidence: [
    {
      factId: "2025-03-02-a1",
      date: "2025-03-02",
      stance: "support",
      source: { path: "memory/2025-03-02.md", line: 7 },
      content: "Reckons the night bus is faster than the tram after ten",
    },
  ],
});

/** The stored entries a run leaves for `op` (its body rendered), as the next run reads them. */
function storedAfter(op: Opinion): Map<string, unknown> {
  const memo = opinionMemo("code");
  memo.render(op, undefined);
  const file = JSON.parse(memo.serialise());
  return new Map(file.ids.map((id: string, i: number) => [id, file.entries[i]]));
}

describe("opinionMemo", () => {
  it("takes the page's region only for the same opinion and the region's own hash", () => {
    const op = opinion(0.6);
    const stored = storedAfter(op);
    const sha = bodyHash(renderOpinion(op));
    // The region as the last run wrote it: reused as it is (the marker string shows it was).
    expect(opinionMemo("code", stored).render(op, { body: "KEPT", sha })).toBe("KEPT");
    // The opinion moved since: rendered.
    expect(opinionMemo("code", stored).render(opinion(0.55), { body: "KEPT", sha })).toBe(renderOpinion(opinion(0.55)));
    // The region is another body than the one rendered (a page restored from git, another machine's run): rendered.
    expect(opinionMemo("code", stored).render(op, { body: "KEPT", sha: "0123456789ab" })).toBe(renderOpinion(op));
    // No region (page deleted, region edited by hand) or no memo: rendered.
    expect(opinionMemo("code", stored).render(op, undefined)).toBe(renderOpinion(op));
    expect(opinionMemo("code").render(op, { body: "KEPT", sha })).toBe(renderOpinion(op));
    // An entry of the wrong shape: rendered.
    expect(opinionMemo("code", new Map([[op.id, [1, 2]]])).render(op, { body: "KEPT", sha })).toBe(renderOpinion(op));
  });

  it("is rewritten only when an entry changed or an opinion is gone", () => {
    const a = opinion(0.6);
    const stored = storedAfter(a);
    const sha = bodyHash(renderOpinion(a));
    const same = opinionMemo("code", stored);
    same.render(a, { body: renderOpinion(a), sha });
    expect(same.dirty).toBe(false);
    const moved = opinionMemo("code", stored);
    moved.render(opinion(0.7), { body: renderOpinion(a), sha });
    expect(moved.dirty).toBe(true);
    expect(opinionMemo("code", stored).dirty).toBe(true); // nothing rendered: the opinion is gone
  });
});

describe("opinionMemo after a full run", () => {
  it("takes the region of an opinion whose fields come in another order (a full run's, then the page's)", () => {
    // As a full run builds it: evidence by day, each row's fields in the order evolve sets them.
    const row = (day: string, stance: "support" | "contradict", line: number) => ({
      factId: `${day}-f${line}`,
      date: day,
      stance,
      source: { path: `memory/${day}.md`, line },
      content: stance === "support" ? "The night bus beats the tram" : "Took the tram, it was quicker",
      strength: 0.5,
    });
    const built: Opinion = {
      ...opinion(0.6),
      evidence: [row("2025-03-02", "support", 7), row("2025-03-05", "contradict", 3), row("2025-03-09", "support", 12)],
    };
    // The same opinion as loadOpinions parses it back: the page lists evidence by stance, its fields in another order.
    const parsed: Opinion = {
      ...built,
      evidence: [0, 2, 1].map((i) => {
        const { content, source, stance, date, factId, strength } = built.evidence[i]!;
        return { source, date, factId, stance, strength, content };
      }),
    };
    expect(JSON.stringify(parsed)).not.toBe(JSON.stringify(built));
    const stored = storedAfter(built);
    const sha = bodyHash(renderOpinion(built));
    const memo = opinionMemo("code", stored);
    expect(memo.render(parsed, { body: "KEPT", sha })).toBe("KEPT");
    // Rewritten with the page's own hash, so the next night knows it at once; and it still vouches for the region.
    expect(memo.dirty).toBe(true);
    const file = JSON.parse(memo.serialise());
    const next = opinionMemo("code", new Map(file.ids.map((id: string, i: number) => [id, file.entries[i]])));
    expect(next.render(parsed, { body: "KEPT", sha })).toBe("KEPT");
    expect(next.dirty).toBe(false);
    // A value that differs still does not hash the same.
    const moved: Opinion = {
      ...parsed,
      evidence: [{ ...parsed.evidence[0]!, source: { ...parsed.evidence[0]!.source, line: 8 } }],
    };
    expect(opinionMemo("code", stored).render(moved, { body: "KEPT", sha })).toBe(renderOpinion(moved));
  });
});
