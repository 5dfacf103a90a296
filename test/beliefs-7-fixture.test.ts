// fixtures/beliefs-7: a student's terse lower-case notes ("r", "lecs", "tbh", "ngl", typos),
// written as a held-out check after beliefs-6's fixes (fixtures/beliefs-7/EXPECTED.md). Restated
// without a copula or in texting spelling ("stats lecs still a waste", "laundrette not exactly
// cheap either") the belief is the same one; "X? nah, ..." answers it; reversals in plain words
// ("actualy useful", "decent value now", "fair play to the landlord") contradict.
import { describe, expect, it } from "vitest";
import {
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-7", "2026-02-26T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

const LECTURES = "the 9am stats lectures r pointless";
const LAUNDRETTE = "the campus laundrette is a rip off";
const OAT = "oat milk is better than soy";
const BUS = "the 25 bus is unreliable";
const LANDLORD = "the landlord is useless";

describe("fixtures/beliefs-7 after one reflect", () => {
  it("reads terse restatements, with no copula or with texting's 'r', as the same belief", () => {
    expect(row(opinion(LECTURES), "stats lecs still a waste of a morning")).toMatch(/ supports /);
    expect(row(opinion(LAUNDRETTE), "laundrette not exactly cheap either")).toMatch(/ supports /);
    for (const start of ["stats lecs", "laundrette not exactly"])
      expect(fixture.blocks.filter((b) => b.startsWith(start))).toEqual([]);
  });

  it("reads reversals in plain words, and a hedged one as a hedge", () => {
    expect(row(opinion(LECTURES), "ngl todays stats lecture was actualy useful")).toMatch(/ contradicts /);
    expect(row(opinion(LAUNDRETTE), "laundrette is decent value now")).toMatch(/ contradicts /);
    expect(row(opinion(BUS), "the 25 bus unreliable? nah")).toMatch(/ contradicts /);
    expect(row(opinion(LANDLORD), "fair play to the landlord")).toMatch(/ contradicts /);
    const oat = row(opinion(OAT), "oat milk might be overrated");
    expect(oat).toMatch(/ contradicts /);
    expect(strength(oat)).toBeLessThan(0.9);
  });

  it("makes no opinion from a question or a plan, and leaves a belief alone for a plain fact", () => {
    expect(fixture.blocks.filter((b) => /25 bus even worth|bouldering comp/.test(b.split("\n")[0]!))).toEqual([]);
    expect(row(opinion("priya reckons the new head setter"), "priya set the comp routes")).toBeUndefined();
  });

  it("gives 'priya reckons ...', written lower case, to Priya (met after beliefs-9's fixes)", () => {
    expect(entitiesLine(opinion("priya reckons the new head setter"))).toContain("@priya");
  });
});
