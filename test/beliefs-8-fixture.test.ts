// fixtures/beliefs-8: a retired teacher's long, wordy entries, written as a second held-out
// check after beliefs-7's fixes (fixtures/beliefs-8/EXPECTED.md). Restatements in formal other
// words ("remain, to my mind, quite absurd") support; the writer's concession ("I must concede
// ... suit me rather well"), a reported change ("refreshingly short"), "come round to" and a
// hedge ("perhaps ... less useful than I thought") contradict; "Bernadette, bless her, still
// insists" is Bernadette's word, and the book club's view is the club's.
import { describe, expect, it } from "vitest";
import {
  confidence,
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-8", "2026-06-25T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs-8 after one reflect", () => {
  it("keeps one opinion per belief, none for a restatement, a reversal or a question", () => {
    for (const start of [
      "the new library opening hours are ridiculous",
      "Bernadette is convinced the village fête",
      "the book club all felt",
      "the Booker winner was a wonderful book",
      "the new vicar's sermons are far too long",
      "audiobooks are not proper reading",
      "the bus pass is a godsend",
    ])
      opinion(start);
    expect(fixture.blocks).toHaveLength(7);
  });

  it("gives Bernadette's and Harold's beliefs to them, and the book club's to the club", () => {
    const fete = opinion("Bernadette is convinced the village fête");
    expect(entitiesLine(fete)).toContain("@Bernadette");
    expect(row(fete, "Bernadette, bless her, still insists")).toMatch(/ supports /);
    // Met after beliefs-9's fixes: the fête going ahead answers a forecast that it would be rained off.
    expect(row(fete, "the village fête went ahead in glorious sunshine")).toMatch(/ contradicts /);
    expect(confidence(fete)).toBeLessThan(0.6);
    expect(entitiesLine(opinion("the new vicar's sermons"))).toContain("@Harold");
    expect(row(opinion("the book club all felt"), "wonderful book")).toBeUndefined();
    expect(row(opinion("the Booker winner was a wonderful book"), "the book club all felt")).toBeUndefined();
  });

  it("reads formal restatements as support, and concessions, reports and hedges as turning", () => {
    const library = opinion("the new library opening hours are ridiculous");
    expect(row(library, "the library hours remain, to my mind, quite absurd")).toMatch(/ supports /);
    expect(row(library, "I must concede the library's new hours suit me")).toMatch(/ contradicts /);
    expect(row(opinion("the new vicar's sermons"), "refreshingly short")).toMatch(/ contradicts /);
    const audio = opinion("audiobooks are not proper reading");
    expect(row(audio, "I have come round to audiobooks")).toMatch(/ contradicts /);
    expect(confidence(audio)).toBeLessThan(0.65);
    const bus = opinion("the bus pass is a godsend");
    const hedge = row(bus, "perhaps the bus pass is less useful");
    expect(hedge).toMatch(/ contradicts /);
    expect(strength(hedge)).toBeLessThan(0.9);
    expect(row(bus, "the 14 bus runs hourly") ?? "").not.toMatch(/ supports /);
  });
});
