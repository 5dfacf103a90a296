// fixtures/beliefs-5: a retired allotment gardener's notes over three and a half months, half of
// the days without a Retain section (bullets, prose, copied WhatsApp chat). Expected outcomes
// were written down before the first run (fixtures/beliefs-5/EXPECTED.md): restatements in
// other words ("rota"/"schedule", "GH"/"greenhouse", "defence"/"defending") support the belief
// they restate, hedges move it less, reversals ("overblown", "I was wrong", "came round",
// "turns out") contradict it, "scrap that" takes back a turn, sarcasm means its complaint,
// beliefs reported for Ash, Gil, Marg, Juno and "the plot group" are theirs, and facts that
// only share a word with a belief (Gil's work rota, a hedgehog house) leave it alone.
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

const fixture = reflectedFixture("beliefs-5", "2026-06-28T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);
const entities = (block: string) => entitiesLine(block).split(", ");
/** The strength an evidence row gives ("contradicts 0.60, ..."). */

describe("fixtures/beliefs-5 after one reflect", () => {
  it("keeps one opinion per belief: none for a restatement, a hedge, a reversal or sarcasm", () => {
    for (const start of [
      "the new watering rota is a mess",
      "the raised beds are worth the money",
      "slug pellets are too risky",
      "Ash figures the polytunnel grant",
      "Gil thinks the greenhouse heater",
      "netting is the best defence",
      "no-dig is a fad",
      "no-dig is the way to go",
      "the council's green waste collection is useless",
      "growing your own veg doesn't actually save money",
      "blight is going to wipe out",
      "Charlotte potatoes taste miles better",
      "the plot group consensus",
      "the water butts were a good buy",
    ]) {
      opinion(start);
    }
    expect(fixture.blocks).toHaveLength(14);
  });

  it("gives beliefs reported for Ash, Gil, Marg and Juno to them", () => {
    expect(entities(opinion("Ash figures the polytunnel grant"))).toContain("@Ash");
    expect(entities(opinion("Gil thinks the greenhouse heater"))).toContain("@Gil");
    expect(entities(opinion("no-dig is a fad"))).toContain("@Marg");
    expect(entities(opinion("growing your own veg"))).toContain("@Juno");
    // Marg's view on no-dig is not Wren's, either way round.
    const wren = opinion("no-dig is the way to go");
    expect(row(wren, "Marg still insists")).toBeUndefined();
    expect(row(wren, "Marg admitted")).toBeUndefined();
    expect(row(wren, "no-dig beds were way less work")).toMatch(/ supports /);
  });

  it("keeps a group's view apart from the writer's own on the same thing", () => {
    const group = opinion("the plot group consensus");
    const own = opinion("the water butts were a good buy");
    expect(row(group, "the water butts were a good buy")).toBeUndefined();
    expect(row(own, "the plot group consensus")).toBeUndefined();
  });

  it("reads restatements in other words as support: synonyms, abbreviations, word forms", () => {
    expect(row(opinion("the new watering rota is a mess"), "the watering schedule still makes no sense")).toMatch(
      / supports /,
    );
    expect(row(opinion("the raised beds are worth the money"), "money well spent")).toMatch(/ supports /);
    expect(row(opinion("Gil thinks the greenhouse heater"), "Gil still says the GH heater is burning money")).toMatch(
      / supports /,
    );
    expect(row(opinion("netting is the best defence"), "defending the kale with nets again")).toMatch(/ supports /);
    expect(row(opinion("slug pellets are too risky"), "still not putting slug pellets down")).toMatch(/ supports /);
    expect(row(opinion("no-dig is a fad"), "Marg still insists no-dig is a passing fad")).toMatch(/ supports /);
    expect(row(opinion("Ash figures the polytunnel grant"), "Ash reckons the polytunnel grant is in the bag")).toMatch(
      / supports /,
    );
  });

  it("reads sarcasm as the complaint it means, and 'scrap that' as taking back the turn", () => {
    const rota = opinion("the new watering rota is a mess");
    expect(row(rota, "Fantastic planning")).toMatch(/ supports /);
    expect(row(rota, "scrap that about the rota working")).toMatch(/ supports /);
    expect(row(opinion("Charlotte potatoes taste miles better"), "another tray of soapy Maris Piper")).toMatch(
      / supports /,
    );
  });

  it("moves less for a hedge: contradicts, with a strength below a flat reversal's", () => {
    const hedge = row(opinion("the new watering rota is a mess"), "I guess the watering rota is working out");
    expect(hedge).toMatch(/ contradicts /);
    expect(strength(hedge)).toBeLessThan(0.9);
    const beds = row(opinion("the raised beds are worth the money"), "not 100% sure the raised beds earn their keep");
    expect(beds).toMatch(/ contradicts /);
    expect(strength(beds)).toBeLessThan(0.9);
  });

  it("reads reversals as contradictions, however they are worded, and moves confidence down over days", () => {
    const bins = opinion("the council's green waste collection is useless");
    expect(row(bins, "the green bin got collected on time")).toMatch(/ contradicts /);
    expect(row(bins, "green waste pickup was on time again")).toMatch(/ contradicts /);
    expect(row(bins, "I was wrong about the green waste collection")).toMatch(/ contradicts /);
    expect(bins).toMatch(/- status: (weakened|reversed)/);
    expect(confidence(bins)).toBeLessThan(0.55);
    expect(row(opinion("blight is going to wipe out"), "the blight scare was overblown")).toMatch(/ contradicts /);
    expect(row(opinion("netting is the best defence"), "turns out netting isn't enough")).toMatch(/ contradicts /);
    const heater = opinion("Gil thinks the greenhouse heater");
    expect(row(heater, "Gil came round on the heater")).toMatch(/ contradicts /);
    expect(confidence(heater)).toBeLessThan(0.65);
    expect(row(opinion("no-dig is a fad"), "Marg admitted the no-dig beds cropped better")).toMatch(/ contradicts /);
    expect(row(opinion("growing your own veg"), "Juno changed her mind")).toMatch(/ contradicts /);
    const grant = opinion("Ash figures the polytunnel grant");
    expect(row(grant, "Ash has gone quiet about the grant")).toMatch(/ contradicts /);
    expect(row(grant, "the lottery fund turned down the polytunnel bid")).toMatch(/ contradicts /);
    expect(confidence(grant)).toBeLessThan(0.6);
  });

  it("leaves a belief alone when a fact only shares a word with it", () => {
    expect(row(opinion("the new watering rota is a mess"), "Gil's work rota")).toBeUndefined();
    expect(row(opinion("the raised beds are worth the money"), "raised bed kit on offer")).toBeUndefined();
    expect(row(opinion("slug pellets are too risky"), "hedgehog house")).toBeUndefined();
    expect(row(opinion("growing your own veg"), "railcard")).toBeUndefined();
  });

  it("reads the second round's days as written down before running them (EXPECTED.md R1-R5)", () => {
    const group = opinion("the plot group consensus");
    expect(row(group, "the plot group still reckons the water butts were money thrown away")).toMatch(/ supports /);
    expect(row(opinion("the water butts were a good buy"), "the plot group still reckons")).toBeUndefined();
    const roast = row(opinion("Charlotte potatoes taste miles better"), "leaning towards thinking the Maris Pipers");
    expect(roast).toMatch(/ contradicts /);
    expect(strength(roast)).toBeLessThan(0.9);
    expect(row(opinion("growing your own veg"), "vegetable prices at the supermarket")).toBeUndefined();
    const rota = row(opinion("the new watering rota is a mess"), "the new watering rota is actually fine now");
    expect(rota).toMatch(/ contradicts /);
    expect(strength(rota)).toBeGreaterThanOrEqual(0.9);
    const bins = opinion("the council's green waste collection is useless");
    expect(row(bins, "I guess the green waste collection has been decent")).toMatch(/ contradicts /);
    expect(confidence(bins)).toBeLessThan(0.46);
  });

  it("changes nothing on a second run", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2026-06-28T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });
});
