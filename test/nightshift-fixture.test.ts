// End to end on fixtures/nightshift: four months of a night nurse's prose-only logs (no
// `## Retain`), bullet days and paragraph days, `## Morning`/`### Calls` headings, a chat
// digest, nicknames beside full names and places of several words ("Ash Grove", "Blue
// Bottle", "St. Mary's"). One nightly run through the built CLI with no model, then checks
// that each person and place gets one page citing its lines, that surnames, wards, short
// month names and first words of places get none, and that recall puts the answering line
// in the top 3 for questions in other words than the log's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Membank } from "../src/membank.js";
import { fixtureAfterNightly, fixtureQuestions, type NightlyFixture, recallTop3 } from "./prose-fixture-support.js";

const questions = await fixtureQuestions("nightshift-questions.json");

let fx: NightlyFixture;
let pages: string[];
let mb: Membank;
const page = (name: string) => fx.page(name);
const cites = (text: string, src: string) => text.includes(`[${src}](../../${src})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("nightshift");
  ({ pages, mb } = fx);
}, 90_000);

afterAll(async () => {
  await mb?.close();
});

describe("entity pages from a nurse's prose", () => {
  it("the people the logs keep naming get pages, including those mostly seen opening a sentence", () => {
    for (const name of ["Tom", "Lulu", "Denise", "Gloria", "Kwame", "Bev", "Neil", "Iyer", "Okonjo"])
      expect(pages).toContain(name);
  });

  it("a place of several words is paged by all of them, and its lines are cited", async () => {
    expect(pages).toEqual(expect.arrayContaining(["Ash-Grove", "Blue-Bottle", "St-Mary"]));
    const school = await page("Ash-Grove");
    for (const src of ["memory/2026-01-06.md#L7", "memory/2026-01-14.md#L3", "memory/2026-04-14.md#L5"])
      expect(cites(school, src), src).toBe(true);
    expect(cites(await page("Blue-Bottle"), "memory/2026-03-22-sessions.md#L11")).toBe(true);
    // MEMORY.md's "goes to Ash Grove Montessori" is the school's line too.
    expect(cites(school, "MEMORY.md#L6")).toBe(true);
  });

  it("no page for surnames, a place's first word, wards, short month names or holidays", () => {
    for (const junk of ["Park", "Stein", "Fuentes", "Reyes", "Marchetti", "Ash", "Blue", "Grove", "Bottle", "St"])
      expect(pages).not.toContain(junk);
    for (const junk of ["West", "Feb", "Thurs", "Easter", "Pt", "Ms", "CCRN", "ICU"]) expect(pages).not.toContain(junk);
  });

  it("a nickname MEMORY.md ties to a name is one page, citing the lines of both spellings", async () => {
    for (const other of ["Rachel", "Tomás", "Lucía"]) expect(pages).not.toContain(other);
    const rach = await page("Rach");
    for (const src of ["memory/2026-01-09.md#L2", "memory/2026-03-10.md#L3"]) expect(cites(rach, src), src).toBe(true);
    expect(cites(await page("Tom"), "memory/2026-01-14.md#L11")).toBe(true);
  });

  it("a name first seen opening sentences is cited where it opens them too", async () => {
    const kwame = await page("Kwame");
    for (const src of ["memory/2026-03-03.md#L3", "memory/2026-04-09.md#L3", "memory/2026-04-11.md#L3"])
      expect(cites(kwame, src), src).toBe(true);
  });
});

describe("recall finds the line for a nurse's questions (no model)", () => {
  recallTop3(questions, () => mb);
});
