// End to end on fixtures/sparks: nine days of an electrician's work notes with no `## Retain`,
// shops, towns and labels written the way a tradesman writes them ("Screwfix had none", "Popped
// into Screwfix", "a flat white at Costa", "Leeds was heaving", "Update: first fix done", "Van: MOT
// booked") beside people named the same ways ("Met Jordan at Screwfix", "round to Kev at the
// garage"), one nightly run through the built CLI with no model. fixtures/sparks/EXPECTED.md was
// written before the first run. Measured (55 checks: 6 pages, 25 cited lines, 24 pages that must
// not exist): 50 on the first run (held out: Screwfix, Halfords, Wakefield, Castleford, Van had
// pages); 53 after a name only ever after place words, and never a person's, is a place, and a
// log's lone `Word:` line whose word the writer also writes in lower case is a label.
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureAfterNightly, type NightlyFixture } from "./prose-fixture-support.js";

let fx: NightlyFixture;
let pages: string[];
const cites = (text: string, line: string) => text.includes(`(../../memory/2026-03-${line})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("sparks");
  ({ pages } = fx);
  await fx.mb.close();
}, 90_000);

describe("entity pages from an electrician's work notes", () => {
  it("the people get pages citing their lines, also where they are named 'at' or 'to' a place", async () => {
    const want: Record<string, string[]> = {
      Dale: ["02.md#L2", "05.md#L3", "09.md#L2", "12.md#L3", "14.md#L3"],
      Jordan: ["03.md#L3", "05.md#L2", "10.md#L3", "16.md#L3"],
      Kev: ["06.md#L3", "09.md#L3", "14.md#L2", "14.md#L3"],
      Shaz: ["05.md#L3", "12.md#L2", "16.md#L1"],
      Mia: ["03.md#L4", "06.md#L2", "10.md#L1", "12.md#L2"],
      Okafor: ["02.md#L1", "03.md#L2", "09.md#L1", "16.md#L1"],
    };
    for (const [name, lines] of Object.entries(want)) {
      expect(pages).toContain(name);
      const text = await fx.page(name);
      for (const line of lines) expect(cites(text, line), `${name}: ${line}`).toBe(true);
    }
  });

  it("no page for a shop, a town or a label", () => {
    const junk = ["Costa", "Screwfix", "Toolstation", "Halfords", "Wickes", "Nando", "Leeds", "Wakefield", "Beech"];
    junk.push("Update", "Chem", "Rewire", "Grabbed", "Popped", "Met", "Went", "Dropped", "Back", "Started", "Tea");
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // Known misses: a town MEMORY.md lists after a comma ("electrician, Castleford"), and a label
  // whose word the writer never writes in lower case ("Van: MOT booked").
  it.fails("still missed: no page for a town MEMORY.md lists or a label never written in lower case", () => {
    expect(pages.filter((p) => p === "Castleford" || p === "Van")).toEqual([]);
  });
});
