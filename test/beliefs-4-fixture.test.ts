// fixtures/beliefs-4: two writers sharing one assistant, a PhD student (long run-on entries,
// hedges, typos) and a product manager (terse bullets, "=", sarcasm), over four months.
// Expected outcomes were written down before the first run (fixtures/beliefs-4/EXPECTED.md):
// restatements in other words support the belief they restate, hedged ones move it less,
// reversals of every kind ("ok fine, ... actually useful", "changed his mind", "turns out I
// was wrong") contradict it, beliefs reported for someone else are theirs, and facts that only
// share a word with a belief ("standup moved to 9:30", "a cheap coffee at the gym cafe") leave it alone.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import {
  confidence,
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-4", "2026-04-24T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);
const entities = (block: string) => entitiesLine(block).split(", ");
/** The strength an evidence row gives ("contradicts 0.60, ..."). */

describe("fixtures/beliefs-4 after one reflect", () => {
  it("keeps one opinion per belief: none for a restatement, a hedge, a reversal or a prose-only belief", () => {
    for (const start of [
      "lab meetings are a waste of time",
      "R is better than Python",
      "@Hal thinks chapter 3",
      "the campus gym is overpriced",
      "defending in May is realistic",
      "Priya reckons bambi",
      "Hal thinks a June defense",
      "standups are theater",
      "@Figma dev mode is worth the money",
      "Omar is convinced the mobile app",
      "the Q2 roadmap is too ambitious",
      "@Notion is a mess for specs",
    ]) {
      opinion(start);
    }
    const titles = fixture.blocks.map((b) => b.split("\n")[0]!);
    for (const notOwn of [
      "these meetings are genuinely useless",
      "starting to think Python",
      "Hal still reckons",
      "Hal changed his mind",
      "the gym membership is not cheap",
      "not 100% sure but defending",
      "leaning towards",
      "ok fine, the lab meeting",
      "scratch that about Python",
      "standups = pure ceremony",
      "fine, standup caught",
      "Figma dev mode is overpriced",
      "not worth it at full price",
      "Omar doubled down",
      "Omar changed his mind",
      "turns out I was wrong",
      "Great, another Notion spec",
      "Notion might be ok",
      "Notion specs = graveyard",
      "q2 is 3 epics for 2 engineers",
      // Beliefs written only in prose make no opinion without an LLM (README).
      "bus",
      "PRDs",
    ]) {
      expect(
        titles.filter((t) => t.includes(notOwn)),
        notOwn,
      ).toEqual([]);
    }
  });

  it("gives beliefs reported for Hal, Priya and Omar to them, and keeps other holders' views off each other's", () => {
    expect(entities(opinion("@Hal thinks chapter 3"))).toContain("@Hal");
    expect(entities(opinion("Hal thinks a June defense"))).toContain("@Hal");
    expect(entities(opinion("Priya reckons bambi"))).toContain("@Priya");
    expect(entities(opinion("Omar is convinced the mobile app"))).toContain("@Omar");
    // Hal's view on the date is not Noor's doubt; Priya's on bambi is not Noor's on R.
    expect(row(opinion("defending in May is realistic"), "June defense")).toBeUndefined();
    expect(row(opinion("R is better than Python"), "Priya reckons")).toBeUndefined();
  });

  it("follows a reported belief as its holder holds to it and then lets it go, untagged", () => {
    const ch3 = opinion("@Hal thinks chapter 3");
    expect(row(ch3, "Hal still reckons chapter 3 doesn't pull its weight")).toMatch(/ supports /);
    expect(row(ch3, "Hal changed his mind on chapter 3")).toMatch(/ contradicts /);
    const omar = opinion("Omar is convinced the mobile app");
    expect(row(omar, "Omar doubled down")).toMatch(/ supports /);
    expect(row(omar, "Omar changed his mind")).toMatch(/ contradicts /);
  });

  it("reads restatements in other words as support: synonyms, '=', a negated antonym, sarcasm", () => {
    expect(row(opinion("lab meetings are a waste"), "these meetings are genuinely useless")).toMatch(/ supports /);
    expect(row(opinion("standups are theater"), "standups = pure ceremony")).toMatch(/ supports /);
    expect(row(opinion("the campus gym is overpriced"), "the gym membership is not cheap")).toMatch(/ supports /);
    const notion = opinion("@Notion is a mess for specs");
    expect(row(notion, "Great, another Notion spec nobody will open")).toMatch(/ supports /);
    expect(row(notion, "Notion specs = graveyard")).toMatch(/ supports /);
    expect(
      row(opinion("the Q2 roadmap is too ambitious"), "q2 is 3 epics for 2 engineers, sure, totally fine"),
    ).toMatch(/ supports /);
  });

  it("reads reversals as contradictions, however they are worded", () => {
    const lab = opinion("lab meetings are a waste");
    expect(row(lab, "ok fine, the lab meeting was actually useful")).toMatch(/ contradicts /);
    expect(lab).toMatch(/- status: (weakened|reversed)/);
    expect(confidence(lab)).toBeLessThan(0.7);
    expect(row(opinion("standups are theater"), "fine, standup caught the double-charge bug")).toMatch(/ contradicts /);
    const figma = opinion("@Figma dev mode is worth the money");
    expect(row(figma, "Figma dev mode is overpriced")).toMatch(/ contradicts /);
    expect(row(figma, "not worth it at full price")).toMatch(/ contradicts /);
    expect(confidence(figma)).toBeLessThan(0.6);
    expect(row(opinion("the Q2 roadmap is too ambitious"), "turns out I was wrong about the q2 roadmap")).toMatch(
      / contradicts /,
    );
  });

  it("moves less for a hedge than for a flat reversal, and reads 'scratch that' as taking back the turn to the rival", () => {
    const lab = opinion("lab meetings are a waste");
    const hedge = row(lab, "leaning towards thinking the new lab meeting format");
    expect(hedge).toMatch(/ contradicts /);
    expect(strength(hedge)).toBeLessThan(strength(row(lab, "ok fine, the lab meeting was actually useful")));
    const r = opinion("R is better than Python");
    const python = row(r, "starting to think Python might be less painful than R");
    expect(python).toMatch(/ contradicts /);
    expect(strength(python)).toBeLessThan(0.9);
    expect(row(r, "scratch that about Python, back to lme4, R wins")).toMatch(/ supports /);
    const notion = opinion("@Notion is a mess for specs");
    const maybe = row(notion, "not 100% sure but Notion might be ok");
    expect(maybe).toMatch(/ contradicts /);
    expect(strength(maybe)).toBeLessThan(0.9);
    const may = opinion("defending in May is realistic");
    expect(row(may, "not 100% sure but defending in May still seems doable")).toMatch(/ contradicts /);
    // "defense" and "defending" are one word family; "moved the defense to June 12" a moved date.
    expect(row(may, "committee moved the defense to June 12")).toMatch(/ contradicts /);
    expect(confidence(may)).toBeLessThan(0.7);
  });

  it("leaves a belief alone when a fact only shares a word with it", () => {
    expect(row(opinion("standups are theater"), "standup moved to 9:30")).toBeUndefined();
    expect(row(opinion("the campus gym is overpriced"), "cheap coffee at the gym cafe")).toBeUndefined();
    expect(row(opinion("@Figma dev mode is worth the money"), "onboarding v3 flows finished")).toBeUndefined();
  });

  it("changes nothing on a second run", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2026-04-24T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });
});
