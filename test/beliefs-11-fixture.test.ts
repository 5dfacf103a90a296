// fixtures/beliefs-11: a self-employed electrician's notes thumbed in the van (lower case, trade
// words, prices in £, "tbh"), held out after beliefs-10's fixes (fixtures/beliefs-11/EXPECTED.md).
// Praise closing a mishap is sarcasm ("battery died ..., brilliant"); "these days" and "every"
// tie no two beliefs together; a take-back with nothing judged after it turns the praise it takes
// back round; a subject that names a scale ("CEF's prices") judges on it, and a comparison judges
// its own subject; part of a thing's name ("the milwaukee") speaks of the belief about it; "the
// other lads on site reckon" is a group's view; "six days late" answers a forecast date.
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

const fixture = reflectedFixture("beliefs-11", "2026-11-10T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs-11 after one reflect", () => {
  it("keeps one opinion per belief, none for a question, a plan or a prose-only day", () => {
    const starts = [
      "the new milwaukee drill was worth every penny",
      "hendersons rewire will be done and dusted",
      "CEF's prices are a joke",
      "the wife thinks going vat registered",
      "the new van was a mistake",
      "kyle reckons smart meters",
      "pricing by the day works out better",
      "dean reckons the new-build estate work",
      "the other lads on site reckon",
      "checkatrade is a waste of money",
      "taking on an apprentice is worth it",
      "the CEF app is useless",
      "the hendersons are lovely to work for",
      "dean's convinced copper will double",
      // Second round.
      "reckon the CU job in bramhall will run over",
    ];
    for (const start of starts) opinion(start);
    const others = fixture.blocks.filter((b) => !starts.some((s) => b.startsWith(s))).map((b) => b.split("\n")[0]);
    expect(others.filter((b) => /^(?:anyone know|anybody rate|gonna move|shell reckons I should)/.test(b!))).toEqual(
      [],
    );
    // Still new opinions: restatements in other words the rules do not tie (EXPECTED.md, Results).
    expect(others).toEqual([
      "shell says the vat thing would eat us alive",
      "day rate on the heaton moor kitchen, 3 days, £840, best week since march",
      "not sure the college days are worth it tbh, kyle learns more in a day on site",
      "maybe the apprentice scheme isn't what it was",
      "checkatrade's been dead quiet again, 0 leads in 10 days, brilliant",
      "drill's been a beast this week, no complaints",
    ]);
  });

  it("reads praise that closes a mishap as sarcasm, and part of a tool's name as the tool", () => {
    const drill = opinion("the new milwaukee drill was worth every penny");
    expect(row(drill, "drill battery died halfway through a ceiling, brilliant")).toMatch(/ contradicts /);
    expect(row(drill, "the milwaukee is still the best tool in the van")).toMatch(/ supports /);
    expect(row(drill, "taking on an apprentice")).toBeUndefined();
    const van = opinion("the new van was a mistake");
    expect(row(van, "van's been in the garage 3 times this month, great stuff")).toMatch(/ supports /);
    expect(row(van, "starting to like the new van")).toMatch(/ contradicts /);
  });

  it("keeps 'these days' and 'every' from tying beliefs together; a comparison turns a price belief", () => {
    const cef = opinion("CEF's prices are a joke");
    expect(row(cef, "pricing by the day")).toBeUndefined();
    expect(row(cef, "picked up a 100m drum")).toBeUndefined();
    expect(row(cef, "CEF are actually cheaper than toolstation")).toMatch(/ contradicts /);
    const quotes = opinion("pricing by the day works out better");
    const hedge = row(quotes, "maybe fixed quotes aren't so bad");
    expect(hedge).toMatch(/ contradicts /);
    expect(strength(hedge)).toBeLessThan(0.9);
  });

  it("turns round praise a take-back takes back when nothing judged follows", () => {
    const hendersons = opinion("the hendersons are lovely to work for");
    expect(row(hendersons, "hendersons are a dream. scratch that")).toMatch(/ contradicts /);
    expect(row(opinion("CEF's prices are a joke"), "hendersons are a dream")).toBeUndefined();
  });

  it("gives a view to the group that holds it, and reads 'admit' said of the group", () => {
    const lads = opinion("the other lads on site reckon");
    expect(row(lads, "even the lads admit the site manager sorted the scaffold")).toMatch(/ contradicts /);
    expect(row(lads, "the site manager booked us")).toBeUndefined();
    expect(entitiesLine(opinion("the wife thinks going vat registered"))).toBe("@Gary, @Shell");
  });

  it("answers a forecast date by a move and by 'six days late'", () => {
    const rewire = opinion("hendersons rewire will be done and dusted");
    expect(row(rewire, "hendersons second fix pushed back to the 28th")).toMatch(/ contradicts /);
    expect(row(rewire, "signed off the hendersons rewire on the 30th, six days late")).toMatch(/ contradicts /);
    expect(confidence(rewire)).toBeLessThan(0.65);
  });

  it("second round: a hindsight view, a concession and a complaint of the rival read by their side", () => {
    expect(row(opinion("the wife thinks going vat registered"), "the wife reckons we should've gone vat")).toMatch(
      / contradicts /,
    );
    expect(row(opinion("dean's convinced copper will double"), "dean admits copper's actually gone down")).toMatch(
      / contradicts /,
    );
    expect(row(opinion("pricing by the day works out better"), "fixed quotes are a mugs game")).toMatch(/ supports /);
  });

  it("second round, after its fixes: 'finished a day early' answers 'will run over'; 'anybody rate' asks", () => {
    expect(row(opinion("reckon the CU job in bramhall will run over"), "bramhall CU job finished a day early")).toMatch(
      / contradicts /,
    );
    expect(row(opinion("not sure the college days"), "bramhall CU job finished")).toBeUndefined();
  });

  it("changes nothing on a second run", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2026-11-10T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });
});
