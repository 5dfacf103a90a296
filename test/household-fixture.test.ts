// End to end on fixtures/household: two months of prose-only logs (no `## Retain` anywhere)
// written the way people write (headings, lists, quotes, code fences, links, emoji, typos),
// one nightly run through the built CLI with no model, then natural questions whose words
// differ from the log's. Checks that the people get pages citing their lines, that
// surnames, streets and sentence openers get none, and that recall puts the line that
// answers each question in the top 3.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Membank } from "../src/membank.js";
import { fixtureAfterNightly, fixtureQuestions, type NightlyFixture, recallTop3 } from "./prose-fixture-support.js";

const questions = await fixtureQuestions("household-questions.json");

let fx: NightlyFixture;
let pages: string[];
let mb: Membank;
const page = (name: string) => fx.page(name);

beforeAll(async () => {
  fx = await fixtureAfterNightly("household");
  ({ pages, mb } = fx);
}, 60_000);

afterAll(async () => {
  await mb?.close();
});

describe("entity pages from prose alone", () => {
  it("the people and places the logs keep naming get pages", () => {
    for (const name of ["Ify", "Jonas", "Biscuit", "Northwind", "Brightwell"]) expect(pages).toContain(name);
  });

  it("a page lists the lines that name it, with their path#Lline", async () => {
    const ify = await page("Ify");
    for (const src of ["memory/2026-01-05.md#L5", "memory/2026-02-02.md#L3", "memory/2026-03-10.md#L3"])
      expect(ify).toContain(`[${src}](../../${src})`);
  });

  it("no page for headings' words, list openers or text in code", () => {
    for (const junk of ["Vet", "Other", "Prep", "Quiet", "Valentine", "Petplan", "Mon", "Thu", "Sat"])
      expect(pages).not.toContain(junk);
  });

  it("a full name opening a clause is its first name's page, a title or role none", async () => {
    // "(Rosa Lind)", "today: Rosa Lind", "Rosa said", "reports to Rosa"; "Uncle Tunde"; "Senior Analyst".
    expect(pages).toEqual(expect.arrayContaining(["Rosa", "Tunde"]));
    for (const junk of ["Lind", "Uncle", "Senior", "Analyst"]) expect(pages).not.toContain(junk);
    const rosa = await page("Rosa");
    for (const src of ["memory/2026-01-29.md#L3", "memory/2026-02-19.md#L3", "memory/2026-03-02.md#L7"])
      expect(rosa).toContain(`[${src}](../../${src})`);
  });
});

describe("recall finds the line for natural questions (no model)", () => {
  recallTop3(questions, () => mb);
});
