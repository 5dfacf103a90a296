import { describe, expect, it } from "vitest";
import { parseTimeWindow } from "./timewindow.js";

const asOf = new Date("2026-05-27T12:00:00Z");
const w = (q: string) => {
  const t = parseTimeWindow(q, asOf);
  return [t?.from, t?.to];
};

describe("a part of a named month is that part, not the whole month", () => {
  it("reads early / mid / late as the month's thirds, fuzzy at their inner edges", () => {
    expect(w("what went wrong at the wedding in late April?")).toEqual(["2026-04-18", "2026-04-30"]);
    expect(w("what was the knee news in mid-March?")).toEqual(["2026-03-08", "2026-03-23"]);
    expect(w("anything in early Feb")).toEqual(["2026-02-01", "2026-02-13"]);
    expect(w("what happened late in February 2024?")).toEqual(["2024-02-18", "2024-02-29"]);
  });

  it("reads the start and end of a month", () => {
    expect(w("what happened at the end of April?")).toEqual(["2026-04-18", "2026-04-30"]);
    expect(w("the beginning of March")).toEqual(["2026-03-01", "2026-03-13"]);
  });

  it("puts a month without a year in the past, and keeps since / until", () => {
    expect(w("what did we do in late June?")).toEqual(["2025-06-18", "2025-06-30"]);
    expect(w("what changed since mid-April?")).toEqual(["2026-04-08", "2026-05-27"]);
    expect(w("what was due by the end of March?")).toEqual([undefined, "2026-03-31"]);
  });

  it("is no time without a month name", () => {
    // "late" with no month is no part of one: the same window as without the word.
    expect(parseTimeWindow("running late in the morning", asOf)).toEqual(
      parseTimeWindow("running in the morning", asOf),
    );
    expect(parseTimeWindow("the early bird", asOf)).toBeUndefined();
  });

  it("keeps the whole month as the bound a result is outside of", () => {
    expect(parseTimeWindow("what went wrong in late April?", asOf)?.month).toEqual({
      from: "2026-04-01",
      to: "2026-04-30",
    });
    expect(parseTimeWindow("what changed since mid-April?", asOf)?.month).toBeUndefined();
  });
});
