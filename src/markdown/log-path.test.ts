import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDailyLog, isIsoDate, logDate, logNameProblem } from "./log-path.js";

describe("logDate: the one rule for the date of a log path", () => {
  it("reads YYYY-MM-DD.md and YYYY-MM-DD-<slug>.md, anywhere under memory/", () => {
    expect(logDate("memory/2025-11-27.md")).toBe("2025-11-27");
    expect(logDate("memory/2025-11-27-sessions.md")).toBe("2025-11-27");
    expect(logDate("memory/2025/2025-11-27.MD")).toBe("2025-11-27");
    expect(logDate("memory\\2025-11-27.md")).toBe("2025-11-27");
    expect(logDate("memory/2024-02-29-leap day notes.md")).toBe("2024-02-29");
  });

  it("gives no date to impossible days, other names, or dated files outside memory/", () => {
    for (const p of [
      "MEMORY.md",
      "memory/notes.md",
      "memory/2025-13-01.md",
      "memory/2026-02-30.md",
      "memory/2025-02-29.md",
      "memory/2025-11-27x.md",
      "memory/2025-11-27.txt",
      "memory/2025-11-27.md/notes.md",
      "bank/2026-03-01.md",
      "notes/2026-03-01.md",
      "2026-03-01.md",
      "archive/memory/2026-03-01.md",
      // OpenClaw 2026.9's dreaming reports (storage "separate", its default).
      "memory/dreaming/light/2026-09-15.md",
      "memory/dreaming/rem/2026-09-15.md",
      "memory/dreaming/deep/2026-09-15.md",
      "memory/dreaming/2026-09-15.md",
    ]) {
      expect(logDate(p), p).toBeUndefined();
      expect(isDailyLog(p), p).toBe(false);
    }
  });

  const day = fc
    .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  const slug = fc.stringMatching(/^[a-z0-9 _.-]{0,12}$/);
  const dirs = fc.array(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { maxLength: 3 }).filter((sub) => sub[0] !== "dreaming"); // OpenClaw's dreaming reports (above)

  it("every real day under memory/ is read back, whatever the folder and slug (property)", () => {
    fc.assert(
      fc.property(day, slug, dirs, fc.boolean(), (d, s, sub, upper) => {
        const name = `${d}${s ? `-${s}` : ""}.${upper ? "MD" : "md"}`;
        expect(logDate(["memory", ...sub, name].join("/"))).toBe(d);
        expect(logDate(["bank", ...sub, name].join("/"))).toBeUndefined();
      }),
    );
  });

  // The Gregorian calendar written out, independent of Date.
  const daysIn = (y: number, m: number) =>
    m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

  it("a path has a date exactly when its YYYY-MM-DD is a calendar day (property)", () => {
    const parts = fc.tuple(
      fc.integer({ min: 1000, max: 9999 }),
      fc.integer({ min: 0, max: 19 }),
      fc.integer({ min: 0, max: 39 }),
    );
    fc.assert(
      fc.property(parts, ([y, m, d]) => {
        const iso = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
        const real = m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
        expect(isIsoDate(iso)).toBe(real);
        expect(logDate(`memory/${iso}.md`)).toBe(real ? iso : undefined);
      }),
      { numRuns: 500 },
    );
  });
});

describe("logNameProblem: a file under memory/ that looks like a log and is none", () => {
  it("names sync tools' conflicted copies and near-miss names of a real day, with the log to merge into", () => {
    for (const [p, log] of [
      ["memory/2026-03-16 (Lena's conflicted copy 2026-03-16).md", "memory/2026-03-16.md"],
      ["memory/2026-03-16.sync-conflict-20260316-201455-ABCDEF7.md", "memory/2026-03-16.md"],
      ["memory/2026/2026-03-16 2.md", "memory/2026/2026-03-16.md"],
      ["memory/2026-03-16 (1).MD", "memory/2026-03-16.md"],
      ["memory/2026-03-16_standup.md", "memory/2026-03-16.md"],
    ] as const) {
      expect(logNameProblem(p), p).toContain(
        `not read (a sync tool's conflicted copy?): move what it adds into ${log}`,
      );
    }
  });

  it("is silent for logs, other notes, editor leftovers and files outside memory/", () => {
    for (const p of [
      "memory/2026-03-16.md",
      "memory/2026-03-16-sessions.md",
      "memory/2026-03-16-trip (draft).md",
      "memory/notes 2026-03-16.md",
      "memory/.2026-03-16.md.swp",
      "memory/2026-03-16.md~",
      "memory/#2026-03-16.md#",
      "memory/2026-13-16 copy.md",
      "bank/2026-03-16 (conflicted copy).md",
    ]) {
      expect(logNameProblem(p), p).toBeUndefined();
    }
  });
});
