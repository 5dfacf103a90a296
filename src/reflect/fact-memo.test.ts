import { describe, expect, it } from "vitest";
import type { Fact } from "../retain/types.js";
import { factMemo, NEW_ENTRIES_UNSAVED } from "./fact-memo.js";

const fact = (
  n: number,
  content = `Moved the standup to ${n % 2 ? "Tuesdays" : "the afternoon"}, no longer daily`,
): Fact => ({
  id: `2025-06-${String((n % 28) + 1).padStart(2, "0")}-${n.toString(16).padStart(8, "0")}`,
  kind: "world",
  entities: ["Team"],
  content,
  date: `2025-06-${String((n % 28) + 1).padStart(2, "0")}`,
  source: { path: `memory/2025-06-${String((n % 28) + 1).padStart(2, "0")}.md`, line: 5 + n },
});

/** The entries a run that asked for every fact of `facts` leaves, as the next run reads them. */
function stored(facts: Fact[]): Map<string, unknown> {
  const memo = factMemo(facts, "code");
  for (const f of facts) {
    memo.changeTokens(f);
    memo.facet(f);
  }
  const file = JSON.parse(memo.serialise());
  return new Map(file.ids.map((id: string, i: number) => [id, file.entries[i]]));
}

describe("factMemo: when the file is written again", () => {
  const old = Array.from({ length: 40 }, (_, i) => fact(i));

  it("not for a night's few new facts (derived again next time), but once they are many", () => {
    const kept = stored(old);
    const night = [...old, fact(1000), fact(1001)];
    const memo = factMemo(night, "code", kept);
    for (const f of night) {
      memo.changeTokens(f);
      memo.facet(f);
    }
    expect(memo.changeTokens(fact(1000))).toBeDefined(); // "no longer": derived all the same
    expect(memo.dirty).toBe(false);

    const many = [...old, ...Array.from({ length: NEW_ENTRIES_UNSAVED + 1 }, (_, i) => fact(2000 + i))];
    const big = factMemo(many, "code", kept);
    for (const f of many) big.facet(f);
    expect(big.dirty).toBe(true);
    expect(JSON.parse(big.serialise()).ids).toHaveLength(many.length);
  });

  it("when a kept entry is stale or a fact is gone", () => {
    const kept = stored(old);
    const edited = [fact(0, "Moved the standup to Tuesdays, no longer daily (for now)"), ...old.slice(1)];
    edited[0]!.id = old[0]!.id; // the same id, another text: the length stamp tells
    const stale = factMemo(edited, "code", kept);
    stale.facet(edited[0]!);
    expect(stale.dirty).toBe(true);
    expect(factMemo(old.slice(1), "code", kept).dirty).toBe(true);
    expect(factMemo(old, "code", kept).dirty).toBe(false);
  });
});
