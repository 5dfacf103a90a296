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
    // "now" asks for the latest state: a hint toward the last two weeks, not today's log alone
    expect(parseTimeWindow("what is Jonas doing now?", asOf)).toMatchObject({ from: "2026-06-16", vague: true });
    expect(parseTimeWindow("what did we eat last night", asOf)?.from).toBe("2026-06-29");
  });
});

describe("weekdays and 'now' that name no day", () => {
  it("a weekday naming a kind of thing is no time; one naming a day still is", () => {
    for (const q of [
      "who did I interview for the Saturday job",
      "my Monday class got cancelled?",
      "notes from the Friday meeting",
    ])
      expect(parseTimeWindow(q, asOf), q).toBeUndefined();
    expect(parseTimeWindow("what did I eat on the Saturday we went to the beach", asOf)?.text).toBe("on the Saturday");
    expect(parseTimeWindow("what happened on Saturday", asOf)?.from).toBe("2026-06-27");
    expect(parseTimeWindow("what did Mara do the Friday night", asOf)).toBeDefined();
  });

  it("'now' and 'currently' hint at the latest weeks; 'from now' still counts forward", () => {
    expect(parseTimeWindow("who works Saturdays now", asOf)).toMatchObject({ text: "now", vague: true });
    expect(parseTimeWindow("where does Sanna work currently?", asOf)).toMatchObject({ vague: true });
    expect(parseTimeWindow("what's due 3 days from now", asOf)).toEqual({
      text: "3 days from now",
      from: "2026-07-03",
      to: "2026-07-03",
    });
  });
});

describe("holidays name their days", () => {
  const asOf = new Date("2026-11-24T12:00:00Z");
  const days = (q: string) => {
    const w = parseTimeWindow(q, asOf);
    return [w?.from, w?.to];
  };

  it("reads Easter Monday and Good Friday as those days, not as a weekday of this week", () => {
    expect(days("what did I do on Easter Monday?")).toEqual(["2026-04-06", "2026-04-06"]);
    expect(days("who was on call on Good Friday")).toEqual(["2026-04-03", "2026-04-03"]);
  });

  it("leaves a season ('over Easter') and an occasion ('for Valentine's Day') to the words", () => {
    expect(parseTimeWindow("who was on call over Easter?", asOf)).toBeUndefined();
    expect(parseTimeWindow("what did I get for Valentine's Day?", asOf)).toBeUndefined();
  });

  it("counts 'the week before' and 'the day after' from the holiday", () => {
    expect(days("who paid up the week before Easter?")).toEqual(["2026-03-29", "2026-04-04"]);
    expect(days("what did we do the day after Boxing Day 2024?")).toEqual(["2024-12-27", "2024-12-27"]);
    expect(days("the weekend after Christmas")).toEqual(["2025-12-27", "2025-12-28"]);
  });
});

describe("weekends are Saturday and Sunday", () => {
  // asOf a Wednesday, a Saturday and a Sunday of one week (Mon 2026-10-05 .. Sun 2026-10-11).
  const wed = new Date("2026-10-07T09:00:00Z");
  const sat = new Date("2026-10-10T09:00:00Z");
  const sun = new Date("2026-10-11T20:00:00Z");
  const days = (q: string, at: Date) => {
    const w = parseTimeWindow(q, at);
    return [w?.from, w?.to];
  };

  it("last weekend is the two days of the weekend before this week's", () => {
    expect(days("how did the car boot sale go last weekend?", wed)).toEqual(["2026-10-03", "2026-10-04"]);
    expect(days("who did I see last weekend", sun)).toEqual(["2026-10-03", "2026-10-04"]);
    expect(days("anything from the past weekend?", sat)).toEqual(["2026-10-03", "2026-10-04"]);
  });

  it("this weekend is this week's, next weekend the one after", () => {
    expect(days("what's on this weekend?", wed)).toEqual(["2026-10-10", "2026-10-11"]);
    expect(days("what did we do this weekend", sun)).toEqual(["2026-10-10", "2026-10-11"]);
    expect(days("plans for next weekend", wed)).toEqual(["2026-10-17", "2026-10-18"]);
  });

  it("two weekends ago and the weekend before last count back from last weekend", () => {
    expect(days("what happened at the farm two weekends ago?", wed)).toEqual(["2026-09-26", "2026-09-27"]);
    expect(days("who was on call the weekend before last", sun)).toEqual(["2026-09-26", "2026-09-27"]);
    expect(days("where did we go 3 weekends ago", sat)).toEqual(["2026-09-19", "2026-09-20"]);
    expect(days("a couple of weekends ago, what did I buy?", wed)).toEqual(["2026-09-26", "2026-09-27"]);
  });

  it("a bare 'the weekend' is the latest one begun", () => {
    expect(days("what did I cook over the weekend?", wed)).toEqual(["2026-10-03", "2026-10-04"]);
    expect(days("who came round at the weekend", sun)).toEqual(["2026-10-10", "2026-10-11"]);
  });

  it("'a recent weekend' stays a vague hint, 'weekends' no time", () => {
    expect(parseTimeWindow("what did Evan try in a recent weekend?", wed)).toMatchObject({ vague: true });
    expect(parseTimeWindow("who do I see at weekends", wed)).toBeUndefined();
  });

  it("a weekend anchored to a month or a date keeps its own rule", () => {
    expect(days("the first weekend of August 2026", wed)).toEqual(["2026-08-01", "2026-08-02"]);
    expect(days("the weekend after 4th October, 2026", wed)).toEqual(["2026-10-10", "2026-10-11"]);
  });
});
