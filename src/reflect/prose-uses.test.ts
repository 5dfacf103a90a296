// Shops, towns and labels are written with capitals as people are, but not the same ways
// (prose-uses.ts): a name only ever after a place word and never a person's, and a log's lone
// `Word:` line whose word the writer also writes in lower case, get no page; people do.
import { describe, expect, it } from "vitest";
import { type ProseLog, scanProse } from "./prose.js";
import { proseNames } from "./prose-names.js";
import { lowerWords } from "./prose-uses.js";

const log = (path: string, text: string): ProseLog => ({
  path,
  date: path.slice(7, 17),
  lines: scanProse(text),
  w: lowerWords(text),
});
const pages = (logs: ProseLog[]) => [...proseNames(logs, new Map()).names.values()].sort();

describe("names that are places, shops or labels", () => {
  it("a shop or a town only ever after a place word gets no page; a person there too does", () => {
    const logs = [
      log("memory/2026-03-02.md", "Grabbed a flat white at Costa. Met Jordan at Screwfix, busy day."),
      log("memory/2026-03-03.md", "Popped into Screwfix again. Drove to Leeds, then back to Costa."),
      log("memory/2026-03-05.md", "Jordan rang about the kitchen job. Dropped the quote round to Kev."),
      log("memory/2026-03-06.md", "Parked outside Screwfix for an hour. Kev said start Monday."),
    ];
    expect(pages(logs)).toEqual(["Jordan", "Kev"]);
  });

  it("someone 'married to' or 'talked to' is a person, and a place of two words keeps its page", () => {
    const logs = [
      log("memory/2026-04-01.md", "Helen is married to Graham now. Coffee at Little Fern."),
      log("memory/2026-04-02.md", "Talked to Graham about the gate. Met Kofi at Little Fern after."),
    ];
    expect(pages(logs)).toEqual(["Graham", "Little-Fern"]);
  });

  it("a lone `Word:` line is a label when the word is also written in lower case; a terse speaker stays", () => {
    const logs = [
      log("memory/2026-01-14.md", "Netball: lost 14-9, then Ines rang."),
      log("memory/2026-01-20.md", "Netball: won, finally, and Ines rang again."),
      log("memory/2026-01-22.md", "no netball this week, pitch flooded"),
      log("memory/2026-01-23.md", "Olek: ok"),
      log("memory/2026-01-24.md", "Olek: running late"),
    ];
    expect(pages(logs)).toEqual(["Ines", "Olek"]);
  });
});
