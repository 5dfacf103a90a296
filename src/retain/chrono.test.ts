import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chronoEn, chronoParse } from "./chrono.js";

// What a result says, comparable across two parser instances.
const said = (results: ReturnType<typeof chronoParse>) =>
  results.map((r) => ({
    index: r.index,
    text: r.text,
    start: r.start.date().toISOString(),
    certain: ["day", "month", "year", "weekday", "hour"].filter((c) => r.start.isCertain(c as "day")),
    end: r.end?.date().toISOString(),
  }));

const ref = { instant: new Date(Date.UTC(2025, 10, 27, 12)), timezone: 0 };

describe("chronoParse (parsers left out when their pattern cannot match)", () => {
  it.each([
    "Moved to the platform team on Feb 14, 2026.",
    "Priya is out in two weeks; Yusuf covers the pager.",
    "Quit the gym 3 months ago, back since last Tuesday",
    "renewal due within 30 days - reminder set for next Fri",
    "we agreed two weeks later to ship +2d after the freeze",
    "Lease ends 31/08/2026, deposit back a fortnight after that",
    "HENCEFORTH meetings every other Thursday, 10am",
    "Anniversary 2025-12-03; dinner booked for the 3rd at 7pm",
    "Release 5.6 is planned for Mar 7, 2026.",
    "lease signed the twenty-first of sept. - keys 5jan",
    "back in 2026 December, or maybe early May",
    "25 incidents this week, all minor.",
    "Thinks the scaffolding can come down a month early.",
    "retro moved to next month; budget after this quarter",
    "flight EARLIER than planned, 5 hrs before the talk",
    "",
  ])("reads %j as chrono does", (text) => {
    expect(said(chronoParse(text, ref))).toEqual(said(chronoEn().parse(text, ref)));
  });

  it("reads any mix of time words as chrono does", () => {
    const words = [
      "ago",
      "before",
      "earlier",
      "later",
      "after",
      "from now",
      "out",
      "this",
      "last",
      "past",
      "next",
      "within",
      "in",
      "for",
      "3",
      "two",
      "a few",
      "days",
      "weeks",
      "month",
      "yr",
      "hrs",
      "Mon",
      "Friday",
      "Mar",
      "June",
      "12th",
      "2026",
      "9/3",
      "at",
      "5pm",
      "on",
      "the",
      "-",
      "+",
      "since",
      "until",
      "tomorrow",
      "tonight",
      "Berlin",
      "Mara",
      "shipped",
      ",",
      "weekend",
      "Jan.",
      "sept.",
      "December",
      "may",
      "5jan",
      "twenty-first",
      "of",
      "week",
      "quarter",
      "1st",
      "through",
    ];
    const seps = fc.constantFrom(" ", "", "-", "/", ", ");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { maxLength: 9 }),
        seps,
        fc.boolean(),
        (parts, sep, forwardDate) => {
          const text = parts.join(sep);
          const option = { forwardDate };
          expect(said(chronoParse(text, ref, option))).toEqual(said(chronoEn().parse(text, ref, option)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("still finds the parsers it gates (a renamed class in a chrono upgrade would run them on every fact again)", () => {
    const names = chronoEn().casual.parsers.map((p) => p.constructor.name);
    for (const name of [
      "ENTimeUnitAgoFormatParser",
      "ENTimeUnitLaterFormatParser",
      "ENTimeUnitCasualRelativeFormatParser",
      "ENTimeUnitWithinFormatParser",
      "ENMonthNameLittleEndianParser",
      "ENMonthNameMiddleEndianParser",
      "ENMonthNameParser",
      "ENYearMonthNameParser",
      "ENRelativeDateFormatParser",
    ])
      expect(names).toContain(name);
  });

  it("leaves the month-name and relative parsers out of a text without their words, and runs them on one with", () => {
    // Counts calls of the parsers' own pattern() (chrono calls it once per parse it runs).
    const gated = [
      "ENMonthNameLittleEndianParser",
      "ENMonthNameMiddleEndianParser",
      "ENMonthNameParser",
      "ENYearMonthNameParser",
      "ENRelativeDateFormatParser",
    ];
    const runs = new Map<string, number>();
    const parsers = chronoEn().casual.parsers.filter((p) => gated.includes(p.constructor.name));
    const restore = parsers.map((p) => {
      const q = p as unknown as { pattern: (c: unknown) => RegExp };
      const own = Object.hasOwn(q, "pattern");
      const before = q.pattern;
      q.pattern = function (this: unknown, c: unknown) {
        runs.set(p.constructor.name, (runs.get(p.constructor.name) ?? 0) + 1);
        return before.call(this, c);
      };
      return () => {
        if (own) q.pattern = before;
        else delete (q as { pattern?: unknown }).pattern;
      };
    });
    try {
      chronoParse("Owns the on-call rotation tomorrow at 9am, 2026-01-14.", ref);
      expect([...runs.keys()]).toEqual([]);
      chronoParse("Release 5.6 is planned for Mar 7, 2026; retro next week.", ref);
      expect([...runs.keys()].sort()).toEqual([...gated].sort());
    } finally {
      for (const r of restore) r();
    }
  });
});
