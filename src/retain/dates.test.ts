import { describe, expect, it } from "vitest";
import { dateFromPath, extractValidity, isIsoDate, parseSinceDate } from "./dates.js";

describe("dateFromPath", () => {
  it("reads YYYY-MM-DD.md and YYYY-MM-DD-<slug>.md, anywhere under memory/", () => {
    expect(dateFromPath("memory/2025-11-27.md")).toBe("2025-11-27");
    expect(dateFromPath("memory/2025-11-27-sessions.md")).toBe("2025-11-27");
    expect(dateFromPath("memory/2025/2025-11-27.MD")).toBe("2025-11-27");
    expect(dateFromPath("memory\\2025-11-27.md")).toBe("2025-11-27");
  });
  it("rejects files without a (real) date", () => {
    for (const p of [
      "MEMORY.md",
      "memory/notes.md",
      "memory/2025-13-01.md",
      "memory/2025-02-30.md",
      "memory/2025-11-27x.md",
    ]) {
      expect(dateFromPath(p)).toBeUndefined();
    }
  });
});

describe("parseSinceDate", () => {
  const now = new Date("2025-12-10T23:30:00Z");
  it("accepts a date or an age in days/weeks", () => {
    expect(parseSinceDate("2025-11-27", now)).toBe("2025-11-27");
    expect(parseSinceDate("7d", now)).toBe("2025-12-03");
    expect(parseSinceDate("2w", now)).toBe("2025-11-26");
    expect(parseSinceDate("0d", now)).toBe("2025-12-10");
  });
  it("rejects anything else with the accepted forms", () => {
    for (const v of ["yesterday", "2025-02-30", "7", "7m", ""]) {
      expect(() => parseSinceDate(v, now)).toThrow(/--since must be a date YYYY-MM-DD or an age like 7d or 2w/);
    }
    expect(isIsoDate("2024-02-29")).toBe(true);
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

  it("does not depend on the process time zone (log date read at noon UTC)", () => {
    expect(extractValidity("today", "2025-01-01")).toEqual({ validFrom: "2025-01-01", validTo: "2025-01-01" });
  });
});
