import { describe, expect, it } from "vitest";
import { easterSunday, holidayIn } from "./holidays.js";
import { isoDay, parseTimeWindow } from "./timewindow.js";

describe("holidays", () => {
  it("dates Easter Sunday by the Gregorian rule", () => {
    expect(["2019", "2024", "2025", "2026", "2038"].map((y) => isoDay(easterSunday(Number(y))))).toEqual([
      "2019-04-21",
      "2024-03-31",
      "2025-04-20",
      "2026-04-05",
      "2038-04-25",
    ]);
  });

  it("takes the latest one begun by asOf without a year, the named year's with one", () => {
    const span = (q: string, asOf: string) => {
      const h = holidayIn(q, new Date(`${asOf}T12:00:00Z`));
      return h && [isoDay(h.from), isoDay(h.to), h.text];
    };
    expect(span("what happened over Easter?", "2026-11-24")).toEqual(["2026-04-03", "2026-04-06", "Easter"]);
    expect(span("what happened over Easter?", "2026-03-20")).toEqual(["2025-04-18", "2025-04-21", "Easter"]);
    expect(span("on Good Friday", "2026-04-10")).toEqual(["2026-04-03", "2026-04-03", "Good Friday"]);
    expect(span("who came on Christmas Eve 2024", "2026-01-10")).toEqual([
      "2024-12-24",
      "2024-12-24",
      "Christmas Eve 2024",
    ]);
    expect(span("what did we do at christmas", "2026-01-10")).toEqual(["2025-12-24", "2025-12-26", "christmas"]);
    expect(span("New Year’s Day", "2026-01-10")).toEqual(["2026-01-01", "2026-01-01", "New Year’s Day"]);
    expect(span("what did we eat on Ascension day?", "2026-11-24")).toEqual([
      "2026-05-14",
      "2026-05-14",
      "Ascension day",
    ]);
    expect(span("where were we on Whit Monday?", "2026-11-24")).toEqual(["2026-05-25", "2026-05-25", "Whit Monday"]);
    expect(span("the Pentecost Monday market", "2026-11-24")).toEqual(["2026-05-25", "2026-05-25", "Pentecost Monday"]);
    expect(span("pancake day", "2026-11-24")).toEqual(["2026-02-17", "2026-02-17", "pancake day"]);
    expect(span("on Maundy Thursday", "2026-04-03")).toEqual(["2026-04-02", "2026-04-02", "Maundy Thursday"]);
    expect(span("what did we order for the team lunch?", "2026-01-10")).toBeUndefined();
  });

  it("knows the bank holidays of England and Wales, the latest begun by asOf for 'the bank holiday'", () => {
    const day = (q: string, asOf: string) => {
      const w = parseTimeWindow(q, new Date(`${asOf}T12:00:00Z`));
      return w && [w.from, w.to];
    };
    expect(day("what did I do on the last bank holiday?", "2026-05-27")).toEqual(["2026-05-25", "2026-05-25"]);
    expect(day("what did I do on the last bank holiday?", "2026-05-20")).toEqual(["2026-05-04", "2026-05-04"]);
    expect(day("what did I do on the last bank holiday?", "2026-04-10")).toEqual(["2026-04-06", "2026-04-06"]);
    expect(day("the bank holiday", "2026-01-01")).toEqual(["2026-01-01", "2026-01-01"]);
    expect(day("what happened over the August bank holiday?", "2026-05-27")).toEqual(["2025-08-25", "2025-08-25"]);
    expect(day("the early May bank holiday", "2026-11-24")).toEqual(["2026-05-04", "2026-05-04"]);
    expect(day("the spring bank holiday 2025", "2026-11-24")).toEqual(["2025-05-26", "2025-05-26"]);
    expect(day("the May bank holiday", "2026-05-12")).toEqual(["2026-05-04", "2026-05-04"]);
    expect(day("the bank holiday weekend", "2026-05-27")).toEqual(["2026-05-23", "2026-05-25"]);
    expect(day("the bank holiday weekend", "2026-04-04")).toEqual(["2026-04-03", "2026-04-05"]);
    expect(day("what did we do on bank holiday Monday?", "2026-04-04")).toEqual(["2025-08-25", "2025-08-25"]);
    expect(day("the day after the bank holiday", "2026-05-27")).toEqual(["2026-05-26", "2026-05-26"]);
    // Christmas 2021 fell on a Saturday: the days off were Monday 27 and Tuesday 28.
    expect(day("the last bank holiday", "2021-12-30")).toEqual(["2021-12-28", "2021-12-28"]);
    expect(day("the last bank holiday", "2022-01-02")).toEqual(["2021-12-28", "2021-12-28"]);
    expect(day("the last bank holiday", "2022-01-05")).toEqual(["2022-01-03", "2022-01-03"]);
  });
});
