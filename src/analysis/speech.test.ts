// Dictated and thumbed notes (beliefs-13's rules), in other writers' words.
import { describe, expect, it } from "vitest";
import { findCues } from "./cues.js";
import { cameTrue } from "./forecast.js";
import { evaluation, praisesIronically } from "./valence.js";

const kinds = (text: string) => findCues(text).map((c) => `${c.kind}:${c.cue}`);

describe("negations without their apostrophe", () => {
  it("reads 'didnt', 'wont', 'isnt' as 'didn't', 'won't', 'isn't'", () => {
    expect(kinds("the parcel didnt arrive")).toContain("negation:didn't");
    expect(kinds("the landlord wont fix the boiler")).toContain("negation:won't");
    expect(kinds("the new rota isnt working")).toContain("negation:isn't");
  });
});

describe("what someone did that the writer never could", () => {
  it("is praise, not a 'never'", () => {
    expect(kinds("grandad got him to sleep in ten minutes which I have never managed")).toEqual([]);
    expect(kinds("the new vet clipped the cat's claws, something we could never do")).toEqual([]);
    expect(kinds("the vet has never been on time")).toContain("negation:never");
  });
});

describe("sarcasm in speech, without commas", () => {
  it("opens a mishap with praise said straight before it", () => {
    expect(praisesIronically("oh great the plumber didnt turn up again")).toBe(true);
    expect(evaluation("oh great the plumber didnt turn up again").sign).toBe(-1);
    expect(praisesIronically("oh great the plumber came early")).toBe(false);
  });

  it("closes a failure with 'so yeah' and praise of the money", () => {
    const text = "three months of lessons and he still cant ride without stabilisers so yeah money well spent";
    expect(praisesIronically(text)).toBe(true);
    // The "can't" of the failure mocked is no "not" turning the complaint round.
    expect(evaluation(text).sign).toBe(-1);
    expect(praisesIronically("the lessons finished early so yeah money well spent")).toBe(false);
  });
});

describe("praise and complaint words", () => {
  it("reads 'a breath of fresh air', 'a gem' as praise and 'is dead' as a complaint, not 'dead easy'", () => {
    expect(evaluation("the new vicar is a breath of fresh air").sign).toBe(1);
    expect(evaluation("our neighbour joan is a gem").sign).toBe(1);
    expect(evaluation("the market is dead on a monday").sign).toBe(-1);
    expect(evaluation("the new app is dead easy").sign).not.toBe(-1);
  });
});

describe("cameTrue", () => {
  it("finds the forecast's verb in the past, with another of its words", () => {
    expect(cameTrue("the council will close the library by summer", "the library closed in June")).toBe(true);
    expect(
      cameTrue("I reckon the ferry's gonna cancel the late sailing", "they cancelled the late sailing again"),
    ).toBe(true);
    expect(cameTrue("the council will close the library by summer", "the library never closed")).toBe(false);
    expect(cameTrue("the council will close the library by summer", "the council closed the car park")).toBe(false);
    expect(cameTrue("the library will be closed by summer", "the library closed in June")).toBe(false);
  });
});
