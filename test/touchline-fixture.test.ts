// End to end on fixtures/touchline: six weeks of a Sunday-league manager's notes, no `## Retain`:
// match headings, tally lines, "Label:" lines, two Sams told apart by surname (the keeper Sam
// Whitlock, the physio Sam Okoro, "Sam O"), two Jos (MEMORY.md's "my sister Jo" and Jo
// Fairley, "Jo F"). fixtures/touchline/EXPECTED-PAGES.md and the questions were written before
// the first run. Held out, before shared-names.ts: 9 of 14 people right, one "Sam" and one "Jo"
// page holding two people's lines, Gemma missing; 30 of 32 questions in the top 3 (22 top-1).
// After: 13 of 14 (Gemma, named in two logs once as an opener, still missing), 31 of 32 (19 top-1);
// 30 of 32 (19) once tally lines count for their names: Nadia's page gains two lines and her
// "what position" question loses its line (a known miss, recall's ranking).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Membank } from "../src/membank.js";
import { fixtureAfterNightly, fixtureQuestions, type NightlyFixture, recallTop3 } from "./prose-fixture-support.js";

const questions = await fixtureQuestions("touchline-questions.json");

let fx: NightlyFixture;
let pages: string[];
let mb: Membank;
const cites = (text: string, line: string) => text.includes(`(../../memory/2026-${line})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("touchline");
  ({ pages, mb } = fx);
}, 90_000);

afterAll(async () => {
  await mb?.close();
});

describe("entity pages from a football manager's notes", () => {
  it("the players and helpers get pages", () => {
    for (const name of ["Kat", "Maya", "Nadia", "Priyanka", "Lou", "Dee", "Bernie", "Tomasz", "Ellie"])
      expect(pages).toContain(name);
  });

  it("two Sams told apart by surname get a page each; a bare Sam goes to neither unless its line says which", async () => {
    expect(pages).not.toContain("Sam");
    const [keeper, physio] = [await fx.page("Sam-Whitlock"), await fx.page("Sam-Okoro")];
    const keepers = ["09-01.md#L7", "09-13.md#L5", "09-27.md#L5", "10-06.md#L7"];
    // "Sam O took Lou through some calf raises", "Sam O says she can play 45": the initial says which.
    const physios = ["09-01.md#L3", "09-22.md#L3", "09-08.md#L3", "09-29.md#L5"];
    for (const line of keepers) {
      expect(cites(keeper, line), line).toBe(true);
      expect(cites(physio, line), line).toBe(false);
    }
    for (const line of physios) {
      expect(cites(physio, line), line).toBe(true);
      expect(cites(keeper, line), line).toBe(false);
    }
    // "Sam made two big saves" (the keeper), "Sam had a look at it" (the physio): not guessed.
    for (const line of ["09-06.md#L9", "09-15.md#L3", "10-04.md#L5"]) expect(cites(keeper, line), line).toBe(false);
    for (const line of ["09-06.md#L5", "09-17.md#L3"]) expect(cites(physio, line), line).toBe(false);
    expect(fx.output).toMatch(/line\(s\) name Sam-Okoro or Sam-Whitlock by first name without saying which/u);
  });

  it("my sister Jo keeps the first name's page; Jo Fairley and 'Jo F' get their own", async () => {
    const [sister, secretary] = [await fx.page("Jo"), await fx.page("Jo-Fairley")];
    for (const line of ["09-06.md#L7", "09-17.md#L5", "09-20.md#L7", "09-27.md#L7", "10-06.md#L9"]) {
      expect(cites(sister, line), line).toBe(true);
      expect(cites(secretary, line), line).toBe(false);
    }
    for (const line of ["09-10.md#L5", "09-27.md#L3"]) {
      expect(cites(secretary, line), line).toBe(true);
      expect(cites(sister, line), line).toBe(false);
    }
  });

  it("a tally line is cited on the pages of the people it counts", async () => {
    expect(cites(await fx.page("Maya"), "09-06.md#L3")).toBe(true); // "Scorers (Maya 2, Nadia 1)"
    for (const name of ["Lou", "Kat"]) expect(cites(await fx.page(name), "09-17.md#L3"), name).toBe(true);
    expect(cites(await fx.page("Ellie"), "09-27.md#L3")).toBe(true); // "Scorers (Nadia 1, Ellie 1)"
  });

  it("no page for surnames, labels, tallies or weekdays", () => {
    const junk = [
      ...["Sam", "Whitlock", "Okoro", "Nowak", "Fairley", "Flynn", "Update", "Progress", "Subs", "Scorers"],
      ...["Goals", "Tally", "Note", "Bag", "Tues", "Thurs", "Sunday", "Saturday", "Sat", "October"],
    ];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });
});

describe("recall finds the line for a football manager's questions (no model)", () => {
  recallTop3(questions, () => mb);
});
