import { describe, expect, it } from "vitest";
import { extractValidity, parseSinceDate } from "./dates.js";

describe("parseSinceDate", () => {
  const today = "2025-12-10";
  it("accepts a date or an age in days/weeks", () => {
    expect(parseSinceDate("2025-11-27", today)).toBe("2025-11-27");
    expect(parseSinceDate("7d", today)).toBe("2025-12-03");
    expect(parseSinceDate("2w", today)).toBe("2025-11-26");
    expect(parseSinceDate("0d", today)).toBe("2025-12-10");
  });
  it("rejects anything else with the accepted forms", () => {
    for (const v of ["yesterday", "2025-02-30", "7", "7m", ""]) {
      expect(() => parseSinceDate(v, today)).toThrow(/--since must be a date YYYY-MM-DD or an age like 7d or 2w/);
    }
  });
});

describe("extractValidity (relative to the log date)", () => {
  const day = "2025-11-27"; // a Thursday
  it.each([
    [
      "Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
      { validFrom: "2025-11-27", validTo: "2025-12-01" },
    ],
    ["Berlin offsite on Mar 20–22, 2026.", { validFrom: "2026-03-20", validTo: "2026-03-22" }],
    ["Offsite 20–22 March 2026.", { validFrom: "2026-03-20", validTo: "2026-03-22" }],
    ["We meet next Tuesday.", { validFrom: "2025-12-02", validTo: "2025-12-02" }],
    ["On call since last week.", { validFrom: "2025-11-20" }],
    ["Works from home since Nov 3.", { validFrom: "2025-11-03" }],
    ["Scaffolding stays until Friday.", { validTo: "2025-11-28" }],
    ["Busy during November 2025.", { validFrom: "2025-11-01", validTo: "2025-11-30" }],
    ["Invoice due on 2025-12-15.", { validFrom: "2025-12-15", validTo: "2025-12-15" }],
  ])("%s", (text, expected) => {
    expect(extractValidity(text, day)).toEqual(expected);
  });

  it("ignores text without dates, times alone, mentions, paths and code", () => {
    for (const text of [
      "Prefers concise replies (<1500 chars) on WhatsApp.",
      "Call at 5pm.",
      "Ask @May about it.",
      "Fixed the crash (see memory/2025-11-27.md).",
      "Run `deploy 2025-01-01` again.",
      "Version 2.3 released.",
    ]) {
      expect(extractValidity(text, day)).toEqual({});
    }
  });

  it("a weekday that names a kind of thing is no date; one that names a day still is", () => {
    for (const text of [
      "Moved his Friday 1:1 with Dana to Thursdays.",
      "the Saturday shift pays double now",
      "Her Tuesday pottery class got cancelled.",
      "Skipped my Wednesday swim, knee again.",
    ]) {
      expect(extractValidity(text, "2026-03-03")).toEqual({});
    }
    expect(extractValidity("On Friday we finally shipped it.", "2026-03-03")).toEqual({
      validFrom: "2026-02-27",
      validTo: "2026-02-27",
    });
    expect(extractValidity("Dentist on the Friday after next", "2026-03-03")).not.toEqual({});
  });

  it("does not depend on the process time zone (log date read at noon UTC)", () => {
    expect(extractValidity("today", "2025-01-01")).toEqual({ validFrom: "2025-01-01", validTo: "2025-01-01" });
  });
});

// The error classes of issue 10, written the way people write them in a log. The log is
// memory/2026-03-03.md, a Tuesday.
describe("extractValidity on natural writing", () => {
  const day = "2026-03-03";
  const table: Array<[string, string, { validFrom?: string; validTo?: string }]> = [
    // A start date is open-ended from then, even when "today" is said too.
    ["starting", "Starting Mar 9, Tomasz owns the ledger-sync rollout", { validFrom: "2026-03-09" }],
    ["starting, after today", "agreed today: starting 9 March Tomasz is on call", { validFrom: "2026-03-09" }],
    ["effective", "new pricing effective March 9th.", { validFrom: "2026-03-09" }],
    ["kicks off", "Migration kicks off on Mar 9 (finally)", { validFrom: "2026-03-09" }],
    ["onwards", "Mar 16 onwards the office is closed on fridays", { validFrom: "2026-03-16" }],
    // A duration counts from the start it follows, else from the log date.
    [
      "for a month after a start",
      "starting Mar 9 covers for Mara for a month",
      { validFrom: "2026-03-09", validTo: "2026-04-09" },
    ],
    [
      "for two weeks after from",
      "from 9 March for two weeks Jonas runs standup",
      { validFrom: "2026-03-09", validTo: "2026-03-23" },
    ],
    ["for N days after a date", "In Lisbon on Mar 20 for 3 days", { validFrom: "2026-03-20", validTo: "2026-03-23" }],
    ["for a month, no start", "Out on parental leave for a month.", { validFrom: "2026-03-03", validTo: "2026-04-03" }],
    ["for a week, past tense", "Was off sick for a week, back now", { validFrom: "2026-02-24", validTo: "2026-03-03" }],
    // An end written as "the end of" a month is an end, not a day of its own.
    ["until the end of", "contract runs until the end of April 2026.", { validTo: "2026-04-30" }],
    ["through the end of", "Contract got extended through the end of June", { validTo: "2026-06-30" }],
    ["from the start of", "from the start of April she works remotely", { validFrom: "2026-04-01" }],
    // "after three weeks" in a report is time that had passed, not a date three weeks on.
    ["elapsed, not a date", "signups only up 4% after three weeks, meh", {}],
    [
      "after N weeks, planned",
      "We'll revisit the pricing after two weeks",
      { validFrom: "2026-03-17", validTo: "2026-03-17" },
    ],
    ["next 18 months", "budget frozen for the next 18 months", { validFrom: "2026-03-03", validTo: "2027-09-03" }],
    ["next 18 months, bare", "Next 18 months: no new hires", { validFrom: "2026-03-03", validTo: "2027-09-03" }],
    [
      "coming two weeks",
      "over the coming two weeks we migrate the ledger",
      { validFrom: "2026-03-03", validTo: "2026-03-17" },
    ],
    [
      "a couple of weeks",
      "Heads-down on billing in the next couple of weeks",
      { validFrom: "2026-03-03", validTo: "2026-03-17" },
    ],
    ["past 6 months", "churn was flat over the past 6 months", { validFrom: "2025-09-03", validTo: "2026-03-03" }],
    ["a fortnight", "Zoë is covering on-call for a fortnight", { validFrom: "2026-03-03", validTo: "2026-03-17" }],
    // A bare weekday is the coming one, unless the clause reports the past.
    ["weekday possessive", "Monday's digest goes to Mara", { validFrom: "2026-03-09", validTo: "2026-03-09" }],
    ["weekday, reminder", "remind him about Monday's digest!!", { validFrom: "2026-03-09", validTo: "2026-03-09" }],
    ["weekday abbreviation", "demo Fri w/ the design folks", { validFrom: "2026-03-06", validTo: "2026-03-06" }],
    ["weekday, scheduled", "the review got scheduled for Thursday", { validFrom: "2026-03-05", validTo: "2026-03-05" }],
    ["weekday, past tense", "On Monday we shipped the importer", { validFrom: "2026-03-02", validTo: "2026-03-02" }],
    [
      "weekday, irregular past",
      "met Jonas on sunday about the lease",
      { validFrom: "2026-03-01", validTo: "2026-03-01" },
    ],
    ["weekday = log day", "Tuesday standup moved to 10:00", { validFrom: "2026-03-03", validTo: "2026-03-03" }],
    ["last weekday", "last Friday he said yes", { validFrom: "2026-02-27", validTo: "2026-02-27" }],
    ["next weekday", "retro next Monday", { validFrom: "2026-03-09", validTo: "2026-03-09" }],
    // A past-tense report keeps its own day; a future date in a later clause is another event.
    [
      "event + next review",
      "Shipped the fix today; next review on the 14th",
      { validFrom: "2026-03-03", validTo: "2026-03-03" },
    ],
    ["event — retest date", "Fixed the login bug — retest on Mar 14", {}],
    ["event, next review", "Deployed v2.3, next review on the 14th", {}],
    ["event; a past start stays", "Moved to Berlin; living there since Feb 1", { validFrom: "2026-02-01" }],
    [
      "no report: the date is the fact's",
      "Review of the fix on the 14th",
      { validFrom: "2026-03-14", validTo: "2026-03-14" },
    ],
    [
      "day of month already past = next month's",
      "rent due on the 1st",
      { validFrom: "2026-04-01", validTo: "2026-04-01" },
    ],
    ["day of month, past tense", "paid the invoice on the 28th", { validFrom: "2026-02-28", validTo: "2026-02-28" }],
    ["event + next review, no 'today'", "Shipped the fix; next review on Mar 14", {}],
  ];
  it.each(table)("%s: %s", (_name, text, expected) => {
    expect(extractValidity(text, day)).toEqual(expected);
  });
});
