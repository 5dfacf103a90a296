// End to end on fixtures/vanlife: four weeks of a van-life traveller's notes (France into
// northern Spain), lowercase prose with one `## Retain` day; euros, campsites, a mechanic
// recommended by people met on the road, a cat, misspelt and paraphrased questions, "last
// Thursday" and "two weeks ago". One nightly run through the built CLI with no model. Held
// out when written (expectations before the first run): 47 of 52 in the top 3, 33 top 1;
// after verb forms that stem into a stop word ("ate" -> "at") were dropped, "last do" read as
// a question after the newest line and countries asking for their people's adjective
// ("Portugal" / "Portuguese"): 48 (36 top 1). The rest are known misses, listed with why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Membank } from "../src/membank.js";
import { fixtureAfterNightly, fixtureQuestions, type NightlyFixture, recallTop3 } from "./prose-fixture-support.js";

const questions = await fixtureQuestions("vanlife-questions.json");

let fx: NightlyFixture;
let mb: Membank;

beforeAll(async () => {
  fx = await fixtureAfterNightly("vanlife");
  ({ mb } = fx);
}, 90_000);

afterAll(async () => {
  await mb?.close();
});

describe("recall finds the line for a van-life traveller's questions (no model)", () => {
  it("has the measured floor of questions answered, and every miss says why", () => {
    expect(questions.filter((q) => !q.knownMiss).length).toBeGreaterThanOrEqual(48);
  });

  it("does not read 'eat' as 'ate', stemmed 'at' (a line with '7am' is no dinner)", async () => {
    const res = await mb.recall("what did we eat on Ascension day?");
    expect(res.results[0]?.source).toMatch(/^memory\/2026-05-14\.md#L1-/u);
  });

  it("reads 'when did we last do laundry' as asking for the newest line", async () => {
    const res = await mb.recall("when did we last do laundry?");
    expect(res.results[0]?.source).toMatch(/^memory\/2026-05-30\.md#L1-/u);
  });

  it("finds 'the Portuguese border' for a question about Portugal", async () => {
    const res = await mb.recall("what do we need before crossing into Portugal?");
    expect(res.results.slice(0, 3).map((r) => r.source)).toContainEqual(
      expect.stringMatching(/^memory\/2026-05-30\.md#L\d-L3$/u),
    );
  });

  it("returns nothing for a ferry the notes never mention", async () => {
    const res = await mb.recall("what did the ferry to Santander cost?");
    expect(res.results).toEqual([]);
  });

  recallTop3(questions, () => mb);
});
