// End to end on fixtures/farmvet: six weeks of a farm vet's lambing-season notes, prose with
// one `## Retain` day (farms by name, "the Hilux" for the truck, misspelt and paraphrased
// questions, Easter and "two weekends ago"), one nightly run through the built CLI with no
// model. Held out when written (expectations before the first run): 46 of 60 in the top 3,
// 32 top 1; after spelling fixes one edit away, counted weekends, the amount bonus and
// holidays: 50 (35 top 1). The rest are known misses, listed with why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Membank } from "../src/membank.js";
import { fixtureAfterNightly, fixtureQuestions, type NightlyFixture, recallTop3 } from "./prose-fixture-support.js";

const questions = await fixtureQuestions("farmvet-questions.json");

let fx: NightlyFixture;
let mb: Membank;

beforeAll(async () => {
  fx = await fixtureAfterNightly("farmvet");
  ({ mb } = fx);
}, 90_000);

afterAll(async () => {
  await mb?.close();
});

describe("recall finds the line for a farm vet's questions (no model)", () => {
  it("has the measured floor of questions answered, and every miss says why", () => {
    expect(questions.filter((q) => !q.knownMiss).length).toBeGreaterThanOrEqual(50);
  });

  it("reads 'two weekends ago' as the Saturday and Sunday before last weekend", async () => {
    const res = await mb.recall("what happened at Hartley Fold two weekends ago?", {
      asOf: new Date("2026-04-16T12:00:00Z"),
    });
    expect(res.intent.window).toMatchObject({ from: "2026-04-04", to: "2026-04-05" });
    expect(res.results[0]?.source).toMatch(/^memory\/2026-04-05\.md#L2-/u);
  });

  it("finds the clutch line for a question that misspells it", async () => {
    const res = await mb.recall("how much was the cluch repair?");
    expect(res.results[0]?.source).toMatch(/^memory\/2026-03-19\.md#L\d-L[2-9]/u);
  });

  recallTop3(questions, () => mb);
});
