import { describe, expect, it } from "vitest";
import type { Fact } from "../retain/types.js";
import { heuristicJudge } from "./judge.js";
import { negationCount } from "./text.js";

const fact = (content: string, entities = ["Jonas"], kind: Fact["kind"] = "world", confidence?: number): Fact => ({
  id: "f",
  kind,
  entities,
  content,
  date: "2026-03-09",
  source: { path: "memory/2026-03-09.md", line: 3 },
  ...(confidence === undefined ? {} : { confidence }),
});
const opinion = { statement: "ledger-sync ships in March.", entities: ["Jonas"], confidence: 0.8 };

describe("heuristicJudge", () => {
  it.each([
    ["ledger-sync no longer ships in March.", "contradict"],
    ["ledger-sync will not ship in March.", "contradict"],
    ["ledger-sync slipped: it ships in April instead of March.", "contradict"],
    ["ledger-sync ships in March", "support"],
    ["ledger-sync is on track and ships in March as planned.", "support"],
    ["Bought new running shoes.", "unrelated"],
  ])("%s -> %s", async (content, stance) => {
    expect((await heuristicJudge.judge(opinion, fact(content))).stance).toBe(stance);
  });

  it("needs a shared entity", async () => {
    expect((await heuristicJudge.judge(opinion, fact("ledger-sync ships in March.", ["Priya"]))).stance).toBe(
      "unrelated",
    );
  });

  it("reads a negated opinion the other way round", async () => {
    const negative = { ...opinion, statement: "ledger-sync does not ship in March." };
    expect((await heuristicJudge.judge(negative, fact("ledger-sync ships in March."))).stance).toBe("contradict");
    expect((await heuristicJudge.judge(negative, fact("ledger-sync no longer ships in March."))).stance).toBe(
      "support",
    );
  });

  it("weighs an opinion fact by how decided it is, and is deterministic", async () => {
    const firm = await heuristicJudge.judge(opinion, fact("ledger-sync ships in March.", ["Jonas"], "opinion", 0.9));
    const unsure = await heuristicJudge.judge(opinion, fact("ledger-sync ships in March.", ["Jonas"], "opinion", 0.55));
    expect(firm.strength).toBeGreaterThan(unsure.strength);
    expect(await heuristicJudge.judge(opinion, fact("ledger-sync ships in March."))).toEqual(
      await heuristicJudge.judge(opinion, fact("ledger-sync ships in March.")),
    );
  });

  it("counts cues as whole words", () => {
    expect(negationCount("Nothing here is notable")).toBe(0);
    expect(negationCount("She no longer drinks coffee, not even decaf")).toBe(2);
  });
});
