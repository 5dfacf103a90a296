// End to end on fixtures/choir: six weeks of a community-choir organiser's notes with no
// `## Retain` (rehearsal headings, "Attendance:"/"Progress:"/"Note to self:" labels, a committee
// list, song titles), one nightly run through the built CLI with no model. The writer's mother
// is "mum", "my mum", "Mum", "mother", "mom" in the logs and "Mum (Rita)" in MEMORY.md; two Pats
// (Dave's sister, and the allotment neighbour with a minibus) are told apart by context only.
// fixtures/choir/EXPECTED.md was written before the first run. Measured (scored against
// EXPECTED.md, 111 checks): 90 on the first run; 101 after the writer's kin words count for the
// person MEMORY.md ties them to (9 lines cited on Rita's page, no "Mum" page); 102 after a
// `Word:` before a count is a label ("Attendance: 31"), not a chat speaker. Then two Pat pages,
// 9 of the 10 Pat lines on the right one (09-05#L3 on the wrong one), after a first name told by
// where from ("Pat from the allotment") is a person of its own beside a kin word's.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureAfterNightly, type NightlyFixture } from "./prose-fixture-support.js";
import { git, membank } from "./reflect-support.js";

let fx: NightlyFixture;
let pages: string[];
const cites = (text: string, line: string) => text.includes(`(../../memory/2026-${line})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("choir");
  ({ pages } = fx);
  await fx.mb.close();
}, 90_000);

const onPage = async (name: string, lines: string[]) => {
  const text = await fx.page(name);
  for (const line of lines) expect(cites(text, line), `${name}: ${line}`).toBe(true);
};

describe("entity pages from a choir organiser's prose", () => {
  it("the people the logs name get pages", () => {
    for (const name of ["Kwame", "Lowri", "Okafor", "Graham", "Imogen", "Sunita", "Femi", "Dave", "Stuart", "Rita"])
      expect(pages).toContain(name);
  });

  it("the writer's mother, however written, is on Rita's page (MEMORY.md: Mum (Rita)); Femi's mum is not", async () => {
    const rita = ["09-01.md#L10", "09-05.md#L6", "09-13.md#L1", "09-13.md#L3", "09-20.md#L4", "09-24.md#L5"];
    await onPage("Rita", [...rita, "09-27.md#L9", "10-04.md#L6", "10-11.md#L3"]);
    expect(cites(await fx.page("Rita"), "10-06.md#L9")).toBe(false);
    for (const kin of ["Mum", "Mom", "Mother"]) expect(pages).not.toContain(kin);
  });

  it("each page cites the lines that name its person", async () => {
    await onPage("Kwame", ["09-01.md#L6", "09-08.md#L7", "09-10.md#L6", "09-15.md#L3", "09-15.md#L5"]);
    await onPage("Kwame", ["09-27.md#L5", "10-06.md#L6", "10-06.md#L10", "10-08.md#L4"]);
    await onPage("Lowri", ["09-08.md#L11", "09-17.md#L1", "10-01.md#L10", "10-11.md#L6", "10-13.md#L9"]);
    await onPage("Okafor", ["09-02.md#L5", "09-24.md#L1", "10-08.md#L1"]);
  });

  it("no page for surnames, kin words, labels, titles, day words, openers, brands or places named in passing", () => {
    const junk = [
      ...["Bevan", "Thwaite", "Pike", "Hollis", "Attendance", "Update", "Note", "Reminder", "Action", "Setlist"],
      ...["Present", "Self", "Dr", "Tue", "Sun", "Sat", "Sept", "Oct", "Emailed", "Rang", "Took", "Picked", "Gave"],
      ...["Started", "Coffee", "Physio", "Allotment", "Afternoon", "Quiet", "Lunch", "Committee", "Went", "New"],
      ...["Last", "Got", "Read", "Did", "Worked", "Relief", "Agreed", "Fine", "Canva", "Musescore", "Yamaha"],
      ...["Instagram", "Shell", "Marketplace", "Mytholmroyd", "Todmorden", "Calderdale", "Shenandoah", "Lean"],
    ];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // A city after "to" ("moving to Leeds", "off to Leeds") and a song after "in" ("in Bring Him
  // Home"), never a person's: no page (prose-uses.ts).
  it("no page for a city or a song written only after place words", () => {
    const junk = ["Leeds", "Bring"];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // Known misses (EXPECTED.md): a label before words ("Progress: Bring Him Home ...") in a log with
  // no lower-case "progress", a word MEMORY.md opens a sentence with ("Subs are £4"), a song title,
  // a shop and a site after "the" ("the Tesco hamper", "the Facebook page": "the Grafana board" is
  // a tool's page, so "the" is no place word).
  it.fails("still missed: no page for a label of no count, a sentence opener of MEMORY.md, a song, a shop", () => {
    const junk = ["Progress", "Subs", "Africa", "Tesco", "Facebook"];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // The two Pats have no surname; "Pat (my sister-in-law)" / "Pat (Dave's sister)" is a kin word,
  // and "Pat from the allotment" (MEMORY.md and 10-13) a descriptor: a page each (shared-names.ts).
  it("two Pats told apart by context, each on a page of their own, never citing the other's lines", async () => {
    expect(pages.filter((p) => p === "Pat" || p.startsWith("Pat-")).sort()).toEqual(["Pat", "Pat-from-allotment"]);
    const family = ["09-08.md#L10", "09-17.md#L6", "09-20.md#L1", "09-20.md#L2", "09-22.md#L11", "10-04.md#L2"];
    const allotment = ["09-24.md#L3", "10-04.md#L4", "10-13.md#L11"];
    await onPage("Pat", family);
    await onPage("Pat-from-allotment", allotment);
    const [pat, plot] = [await fx.page("Pat"), await fx.page("Pat-from-allotment")];
    for (const line of allotment) expect(cites(pat, line), line).toBe(false);
    for (const line of family) expect(cites(plot, line), line).toBe(false);
  });

  // Known miss: "Pat was at his plot, said the minibus is free" names neither Pat by itself; a
  // bare line goes to the one a kin word names, so it is on the sister-in-law's page.
  it.fails("still missed: a bare line only its context ties to Pat from the allotment", async () => {
    expect(cites(await fx.page("Pat-from-allotment"), "09-05.md#L3")).toBe(true);
  });
});

describe("a kin tie taken out of MEMORY.md", () => {
  it("gives the lines back to the kin word's own page on the next night; Rita's page keeps none", async () => {
    const memory = path.join(fx.dir, "MEMORY.md");
    await writeFile(memory, (await readFile(memory, "utf8")).replace("- Mum (Rita) lives", "- Mum lives"));
    git(fx.dir, "commit", "-q", "-am", "user: no names in MEMORY.md");
    const run = await membank("run", "nightly", "--workspace", fx.dir);
    expect(run.code, run.stderr).toBe(0);
    const rita = await fx.page("Rita");
    for (const line of ["09-05.md#L6", "09-13.md#L3", "09-20.md#L4"]) expect(cites(rita, line), line).toBe(false);
    const mum = await fx.page("Mum");
    for (const line of ["09-13.md#L3", "09-27.md#L9", "10-04.md#L6"]) expect(cites(mum, line), line).toBe(true);
  }, 60_000);
});
