import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chronoEn } from "../retain/chrono.js";
import { mayNameTime, parseTimeWindow } from "./timewindow.js";

const asOf = new Date("2026-06-30T12:00:00Z");

// Words near the edge of what chrono reads: connectives it pairs with dates, number words,
// single-letter units, clock words, and the plain words of questions.
const WORDS = [
  "ago",
  "later",
  "earlier",
  "within",
  "in",
  "for",
  "last",
  "next",
  "past",
  "this",
  "after",
  "before",
  "since",
  "until",
  "around",
  "about",
  "the",
  "a",
  "an",
  "few",
  "couple",
  "of",
  "several",
  "half",
  "one",
  "two",
  "twelve",
  "early",
  "late",
  "recently",
  "lately",
  "summer",
  "winter",
  "christmas",
  "o'clock",
  "am",
  "pm",
  "a.m.",
  "GMT",
  "UTC",
  "EST",
  "T",
  "x",
  "m",
  "h",
  "d",
  "w",
  "y",
  "s",
  "+",
  "-",
  "/",
  ":",
  ",",
  ".",
  "?",
  "Mara",
  "tea",
  "merge",
  "what",
  "did",
  "say",
  "Jonas",
  "prefer",
  "now",
  "today",
  "tonight",
  "tomorrow",
  "yesterday",
  "noon",
  "midday",
  "midnight",
  "morning",
  "evening",
  "night",
  "goodnight",
  "weekend",
  "week",
  "month",
  "quarter",
  "year",
  "hour",
  "min",
  "sec",
  "fortnight",
  "march",
  "May",
  "sept",
  "Mon",
  "tues",
  "Friday",
  "sat",
  "3",
  "14th",
  "2025",
  "5pm",
  "12:30",
  "2026-03-02",
  "3/4",
  "first",
  "fifth",
  "twenty-first",
];

describe("mayNameTime (the gate before chrono in parseTimeWindow)", () => {
  it("lets through every text in which chrono finds anything", () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(" ", "  ", ", ", "-", "\n", "/", ". ")), {
        maxLength: 8,
      })
      .map((parts) => parts.map(([w, sep]) => w + sep).join(""));
    fc.assert(
      fc.property(text, (t) => {
        if (mayNameTime(t)) return;
        expect(chronoEn().parse(t, { instant: asOf, timezone: 0 }, { forwardDate: false })).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("skips questions that name no time, and the window stays the same either way", () => {
    expect(mayNameTime("what does Mara prefer for status updates?")).toBe(false);
    expect(mayNameTime("who reviewed the FJD-482 migration")).toBe(true); // a digit: chrono decides
    expect(parseTimeWindow("what does Mara prefer for status updates?", asOf)).toBeUndefined();
    expect(parseTimeWindow("what did Priya merge last week?", asOf)).toEqual({
      text: "last week",
      from: "2026-06-22",
      to: "2026-06-28",
    });
    expect(parseTimeWindow("what is Jonas doing now?", asOf)?.from).toBe("2026-06-30");
    expect(parseTimeWindow("what did we eat last night", asOf)?.from).toBe("2026-06-29");
  });
});
