// End to end on fixtures/mocks: six weeks of a Year 11 student's revision diary with no
// `## Retain` (mostly lower case, "To do:"/"Revision:"/"Progress:"/"Mood:" labels, subject names,
// set texts, a Saturday job at Costa), one nightly run through the built CLI with no model. Two
// Jesses with no surname are told apart only by context ("Jess from netball" / "netball Jess", and
// "Idris's girlfriend Jess"); "Mr K" and "Dr N" are Mr Kowalski and Dr Nwosu; "Bex" is MEMORY.md's
// "Rebecca Shaw (Bex)", "Rebecca" where her mum speaks. fixtures/mocks/EXPECTED.md was written
// before the first run. Measured (scored against EXPECTED.md, 159 checks): 121 on the first run
// (held out); 137 after "Miss" is a title and a line-start nickname ties the first name; 141
// after "Mr K"/"Dr N" count for the one titled surname with that initial; 150 after a first name
// told by where from ("Jess from netball", twice) is a person of its own beside a kin word's;
// 152 after a `Word:` with nothing after ("Progress:") and its list's `- Word:` items are labels.
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureAfterNightly, type NightlyFixture } from "./prose-fixture-support.js";

let fx: NightlyFixture;
let pages: string[];
const cites = (text: string, line: string) => text.includes(`(../../memory/2026-${line})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("mocks");
  ({ pages } = fx);
  await fx.mb.close();
}, 90_000);

const onPage = async (name: string, lines: string[]) => {
  const text = await fx.page(name);
  for (const line of lines) expect(cites(text, line), `${name}: ${line}`).toBe(true);
};

describe("entity pages from a student's revision diary", () => {
  it("the people the logs name get pages", () => {
    for (const name of ["Bex", "Kowalski", "Nwosu", "Freya", "Ahmed", "Idris", "Patel", "Tomasz", "Callum"])
      expect(pages).toContain(name);
  });

  it('"Bex" and "Rebecca" are one page (MEMORY.md: "- Rebecca Shaw (Bex)")', async () => {
    expect(pages).not.toContain("Rebecca");
    await onPage("Bex", ["01-05.md#L6", "01-10.md#L3", "01-14.md#L4", "01-21.md#L3", "01-26.md#L4"]);
    await onPage("Bex", ["01-26.md#L6", "02-02.md#L5", "02-07.md#L3", "02-09.md#L5"]);
  });

  it('"Mr K" and "Dr N" are on the pages of Mr Kowalski and Dr Nwosu', async () => {
    await onPage("Kowalski", [
      "01-05.md#L5",
      "01-14.md#L3",
      "01-16.md#L5",
      "01-23.md#L5",
      "02-02.md#L3",
      "02-05.md#L3",
    ]);
    await onPage("Nwosu", ["01-12.md#L3", "01-19.md#L9", "02-02.md#L8", "02-09.md#L3", "02-09.md#L4"]);
  });

  it("each page cites the lines that name its person", async () => {
    await onPage("Freya", ["01-06.md#L4", "01-10.md#L4", "01-16.md#L3", "01-21.md#L6", "01-26.md#L6", "02-05.md#L6"]);
    await onPage("Ahmed", ["01-12.md#L5", "01-21.md#L5", "01-30.md#L5", "02-12.md#L5"]);
    await onPage("Idris", ["01-05.md#L10", "01-06.md#L6", "01-10.md#L5", "01-17.md#L5", "01-17.md#L6"]);
    await onPage("Idris", ["01-23.md#L4", "01-23.md#L6", "01-30.md#L6", "02-05.md#L5", "02-07.md#L5"]);
    await onPage("Patel", ["01-05.md#L4", "01-12.md#L6", "01-19.md#L8", "01-28.md#L5", "02-12.md#L4"]);
    await onPage("Tomasz", ["01-08.md#L3", "01-14.md#L7", "01-17.md#L4", "01-28.md#L3", "02-02.md#L7", "02-07.md#L4"]);
    await onPage("Callum", ["01-08.md#L5", "01-12.md#L4", "01-16.md#L5", "01-19.md#L8", "01-26.md#L5"]);
    await onPage("Callum", ["02-02.md#L5", "02-12.md#L5"]);
  });

  it("two Jesses, each on a page of her own: Jess from netball, and Idris's girlfriend", async () => {
    expect(pages.filter((p) => p === "Jess" || p.startsWith("Jess-")).sort()).toEqual(["Jess", "Jess-from-netball"]);
    const netball = ["01-06.md#L3", "01-14.md#L5", "01-23.md#L3", "01-30.md#L4", "02-12.md#L3"];
    const girlfriend = ["01-10.md#L5", "01-17.md#L5", "01-23.md#L6", "01-30.md#L6", "02-07.md#L5"];
    await onPage("Jess-from-netball", netball);
    await onPage("Jess", girlfriend);
    const [net, gf] = [await fx.page("Jess-from-netball"), await fx.page("Jess")];
    for (const line of girlfriend) expect(cites(net, line), line).toBe(false);
    for (const line of netball) expect(cites(gf, line), line).toBe(false);
  });

  // Known miss: "Jess got into the county squad" names neither by itself; a bare line goes to the
  // one a kin word names (shared-names.ts rule 2), so it is on the girlfriend's page.
  it.fails("still missed: a bare line only its context ties to Jess from netball", async () => {
    await onPage("Jess-from-netball", ["02-02.md#L4"]);
  });

  it("no page for surnames, titles, short forms, day words, openers, brands or set texts", () => {
    const junk = [
      ...["Shaw", "Lloyd", "Rebecca", "Miss-Patel", "Mr", "Miss", "Dr", "Mme", "K", "N", "Mr-K", "Dr-N"],
      ...["Revision", "Mood", "Homework", "Chemistry", "English", "Bio", "French", "Do", "Mon", "Tues"],
      ...["Weds", "Thurs", "Fri", "Sat", "Saturday", "Jan", "Feb", "Tesco", "Primark", "Spotify", "Quizlet"],
      ...["Seneca", "TikTok", "Facebook", "Nando", "Headingley", "Roundhay", "Macbeth", "Lady", "Inspector"],
      ...["Calls", "Mice", "Men", "Coach", "Results", "Afterwards", "Shift", "Watched", "Read", "Texted"],
      ...["Went", "Revised", "Last", "First", "Missed", "Bought", "Manager", "Target", "Mocks", "MOCKS"],
      ...["Said", "Told", "Legend", "Year", "Progress", "Maths"],
    ];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // A log's lone `Word:` line whose word the writer also writes in lower case ("Netball: lost 14-9"
  // beside "netball Jess"), and shops only ever after a place word ("Shift at Costa", "stopped at
  // Greggs") and never a person's, get no page (prose-uses.ts).
  it("no page for a label before words, nor a shop written only after place words", () => {
    const junk = ["Netball", "Chem", "Costa", "Greggs"];
    expect(pages.filter((p) => junk.includes(p))).toEqual([]);
  });

  // Known miss: MEMORY.md's "Roundhay High, Leeds" is a list item, not a place word's name.
  it.fails("still missed: no page for a city MEMORY.md lists after a comma", () => {
    expect(pages).not.toContain("Leeds");
  });
});
