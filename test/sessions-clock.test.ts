import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createClock } from "../src/workspace/clock.js";

/** The day and time straight from Intl, one formatToParts per call: what the clock must agree with. */
function reference(zone: string, ts: number): { day: string; time: string } {
  const fmt = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(new Date(ts))) p[part.type] = part.value;
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

// Zones with whole-hour, half-hour and 45-minute offsets and DST steps at odd minutes (UTC).
const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "Africa/Casablanca",
  "America/Santiago",
];

// Instants around DST changes people have lived through (UTC): a message sent in the hour of a change.
const TRANSITIONS = [
  Date.UTC(2025, 2, 30, 1, 0, 0), // Berlin, spring forward
  Date.UTC(2025, 9, 26, 1, 0, 0), // Berlin, fall back
  Date.UTC(2025, 2, 9, 7, 0, 0), // New York
  Date.UTC(2025, 10, 2, 6, 0, 0),
  Date.UTC(2025, 3, 5, 14, 30, 0), // Lord Howe: a half-hour step at 2:00 local
  Date.UTC(2025, 9, 4, 15, 30, 0),
  Date.UTC(2025, 3, 5, 14, 0, 0), // Chatham
  Date.UTC(2025, 8, 27, 14, 0, 0),
  Date.UTC(2025, 2, 9, 5, 30, 0), // St John's
];

describe("session clock", () => {
  it("gives the same day and time as Intl for any instant, in zones with odd offsets and across DST changes", () => {
    const clocks = new Map(ZONES.map((z) => [z, createClock(z)]));
    const near = fc
      .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
      .map(([t, d]) => t + d);
    const any = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.oneof(near, any), (zone, ts) => {
        const clock = clocks.get(zone)!;
        const want = reference(zone, ts);
        expect({ day: clock.day(ts), time: clock.time(ts) }).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });

  it("walks through a fall-back night in Berlin second by second without a wrong minute", () => {
    const clock = createClock("Europe/Berlin");
    // 2025-10-26: 03:00 CEST becomes 02:00 CET at 01:00 UTC; messages every 7 s for two hours.
    const start = Date.UTC(2025, 9, 26, 0, 0, 0);
    const got: string[] = [];
    const want: string[] = [];
    for (let ts = start; ts < start + 2 * 3_600_000; ts += 7_000) {
      got.push(`${clock.day(ts)} ${clock.time(ts)}`);
      const r = reference("Europe/Berlin", ts);
      want.push(`${r.day} ${r.time}`);
    }
    expect(got).toEqual(want);
    // The local hour 02:00-03:00 happens twice: once in summer time, once in winter time.
    const half = got.length / 2;
    expect(got.slice(0, half).some((g) => g.startsWith("2025-10-26 02:30"))).toBe(true);
    expect(got.slice(half).some((g) => g.startsWith("2025-10-26 02:30"))).toBe(true);
  });

  it("UTC under any of its names gives Intl's day and time, far years included", () => {
    for (const zone of ["UTC", "Etc/UTC", "gmt", "Zulu", "etc/uct"]) {
      const clock = createClock(zone);
      expect(clock.zone).toBe(zone);
      const instants = [
        ...TRANSITIONS,
        ...Array.from({ length: 200 }, (_, i) => Date.UTC(1969, 11, 31) + i * 9_876_543_210.25),
        Date.UTC(-50, 0, 1),
        Date.UTC(12_000, 5, 1),
      ];
      for (const ts of instants) expect({ day: clock.day(ts), time: clock.time(ts) }).toEqual(reference(zone, ts));
    }
  });

  it("in the machine's zone (no zone configured) gives Intl's day and time too, whatever TZ is", () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ZONES) {
        // Node re-reads TZ when it is set: Date's local fields and Intl's default zone follow it.
        process.env.TZ = zone;
        const clock = createClock();
        expect(clock.zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
        const near = TRANSITIONS.flatMap((t) => [-3_601_000, -1000, 0, 999, 1800_000, 3_599_000].map((d) => t + d));
        const any = Array.from({ length: 300 }, (_, i) => Date.UTC(1990, 0, 1) + i * 7_654_321_987.5);
        // Years a four-digit formatting does not cover go by Intl.
        const far = [Date.UTC(-50, 0, 1), Date.UTC(12_000, 5, 1), -62_198_755_200_001];
        for (const ts of [...near, ...any, ...far]) {
          const want = reference(Intl.DateTimeFormat().resolvedOptions().timeZone, ts);
          expect({ zone, day: clock.day(ts), time: clock.time(ts) }).toEqual({ zone, ...want });
        }
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
