// fixtures/beliefs-12: a retired bank manager's evening diary in Indian English ("is telling that",
// "itself", "only", "as per me", "I have one doubt whether", lakh/crore), held out after
// beliefs-11's fixes (fixtures/beliefs-12/EXPECTED.md). Praise opening or closing a mishap is
// sarcasm; a title after a name ("Rao uncle") and "is telling that" report a view; "all the
// committee members feel" is a group's; "have come round to X" turns; "less than we hoped"
// answers a forecast; a complaint is borne out by "no improvement"; "I have one doubt whether" asks.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { holderOf } from "../src/reflect/topic.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import {
  confidence,
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-12", "2027-01-27T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs-12 after one reflect", () => {
  it("keeps one opinion per belief, none for a question, a restatement, sarcasm or a prose-only day", () => {
    const starts = [
      "rooftop solar is the best decision",
      "the Whitefield metro extension will open",
      "FD rates will come down",
      "BESCOM service in our area is pathetic",
      "Menon is a very capable secretary",
      "the morning walk at Cubbon Park",
      "Rao uncle is telling that these electric scooters",
      "UPI is not safe for senior citizens",
      "Lakshmi feels the new family doctor",
      "the Ather is a better scooter",
      "All the committee members feel",
      "Karthik thinks Bangalore flat prices",
      "the Jayanagar flat will fetch",
      // Second round.
      "I am thinking Karthik will get the promotion",
      "Rao uncle is saying that property prices in Whitefield",
    ];
    for (const start of starts) opinion(start);
    const others = fixture.blocks.filter((b) => !starts.some((s) => b.startsWith(s))).map((b) => b.split("\n")[0]);
    // Still a new opinion: convenience read as no word on safety (EXPECTED.md, Results).
    expect(others).toEqual(["Paying by UPI at the vegetable market is much easier than carrying change"]);
  });

  it("reads praise opening a mishap as sarcasm, and a restatement in other words as the same belief", () => {
    const solar = opinion("rooftop solar is the best decision");
    expect(row(solar, "Very nice, the solar inverter is showing fault again")).toMatch(/ contradicts /);
    expect(row(solar, "As per me, going solar on the terrace was a very sensible move")).toMatch(/ supports /);
    const bescom = opinion("BESCOM service in our area is pathetic");
    expect(row(bescom, "Wonderful, BESCOM gave us a four hour power cut")).toMatch(/ supports /);
    expect(row(bescom, "Electricity supply in our area is useless only, no improvement at all")).toMatch(/ supports /);
    expect(row(bescom, "very good service they are giving")).toMatch(/ supports /);
    expect(confidence(bescom)).toBeGreaterThan(0.7);
  });

  it("judges a person by praise in a later clause, and turns with 'I was wrong about'", () => {
    const menon = opinion("Menon is a very capable secretary");
    expect(row(menon, "Menon got the water tanker problem sorted in two days itself, hats off to him")).toMatch(
      / supports /,
    );
    expect(row(menon, "I was wrong about Menon")).toMatch(/ contradicts /);
    expect(row(menon, "Menon is one big fraud only")).toMatch(/ contradicts /);
    expect(confidence(menon)).toBeLessThan(0.7);
  });

  it("gives a view to the person or group that holds it ('Rao uncle is telling that', 'all the committee members feel')", () => {
    const scooters = opinion("Rao uncle is telling that these electric scooters");
    expect(entitiesLine(scooters)).toBe("@Suresh, @Rao");
    expect(row(scooters, "Even Rao uncle is agreeing now that the Ather is safe")).toMatch(/ contradicts /);
    expect(entitiesLine(opinion("Rao uncle is saying that property prices in Whitefield"))).toBe("@Suresh, @Rao");
    expect(holderOf(["Suresh"], "All the committee members feel the gym renovation can wait till next year")).toMatch(
      /^group:/,
    );
    const doctor = opinion("Lakshmi feels the new family doctor");
    expect(row(doctor, "Lakshmi is also saying now that Dr. Shetty is very thorough")).toMatch(/ contradicts /);
    expect(row(doctor, "Lakshmi is telling that Dr. Shetty is the best doctor")).toMatch(/ contradicts /);
  });

  it("reads 'have come round to' as a turn, a hedge as weaker, and 'I have one doubt whether' as a question", () => {
    const upi = opinion("UPI is not safe for senior citizens");
    expect(row(upi, "I have come round to UPI")).toMatch(/ contradicts /);
    expect(confidence(upi)).toBeLessThan(0.7);
    const walk = row(opinion("the morning walk at Cubbon Park"), "Maybe the walking is not helping the knee");
    expect(walk).toMatch(/ contradicts /);
    expect(strength(walk)).toBeLessThan(0.9);
    const ather = opinion("the Ather is a better scooter");
    expect(row(ather, "I have one doubt whether")).toBeUndefined();
    expect(row(ather, "I am not at all sure about the Ather now")).toMatch(/ contradicts /);
  });

  it("answers forecasts by what happened: a moved date, 'still not open', 'less than we hoped', a letter", () => {
    const metro = opinion("the Whitefield metro extension will open");
    expect(row(metro, "BMRCL has postponed the Whitefield line opening")).toMatch(/ contradicts /);
    expect(row(metro, "the metro is still not open")).toMatch(/ contradicts /);
    expect(confidence(metro)).toBeLessThan(0.6);
    expect(row(opinion("FD rates will come down"), "SBI has reduced FD rates")).toMatch(/ supports /);
    expect(row(opinion("the Jayanagar flat will fetch"), "less than we hoped")).toMatch(/ contradicts /);
    expect(row(opinion("Karthik thinks Bangalore flat prices"), "Jayanagar flat deal closed")).toBeUndefined();
    expect(row(opinion("I am thinking Karthik will get the promotion"), "promotion letter came today")).toMatch(
      / supports /,
    );
    expect(row(opinion("rooftop solar is the best decision"), "solar subsidy")).toBeUndefined();
  });

  it("changes nothing on a second run", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2027-01-27T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });
});
