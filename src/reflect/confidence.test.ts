import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../workspace/config.js";
import { combineDay, type DayEvidence, nextConfidence } from "./confidence.js";

const k = defaultConfig().reflect.confidence;
const conf = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);
const strength = fc.double({ min: 0, max: 1, noNaN: true });
const days = fc.integer({ min: 1, max: 30 });
const evidence: fc.Arbitrary<DayEvidence> = fc.record({
  stance: fc.constantFrom("support" as const, "contradict" as const, "unrelated" as const),
  strength,
});

describe("nextConfidence", () => {
  it("is monotonic: support never lowers c, contradiction never raises it", () => {
    fc.assert(
      fc.property(conf, strength, days, (c, s, d) => {
        expect(nextConfidence(c, "support", s, d, k)).toBeGreaterThanOrEqual(c);
        expect(nextConfidence(c, "contradict", s, d, k)).toBeLessThanOrEqual(c);
        expect(nextConfidence(c, "unrelated", s, d, k)).toBe(c);
      }),
    );
  });

  it("is monotonic in strength and in agreeing days", () => {
    fc.assert(
      fc.property(conf, strength, strength, days, days, (c, s1, s2, d1, d2) => {
        const [lo, hi] = s1 <= s2 ? [s1, s2] : [s2, s1];
        const [dl, dh] = d1 <= d2 ? [d1, d2] : [d2, d1];
        expect(nextConfidence(c, "support", hi, dh, k)).toBeGreaterThanOrEqual(nextConfidence(c, "support", lo, dl, k));
        expect(nextConfidence(c, "contradict", hi, dh, k)).toBeLessThanOrEqual(
          nextConfidence(c, "contradict", lo, dl, k),
        );
      }),
    );
  });

  it("stays inside [floor, ceiling] (and inside [0, 1] for hand-set values)", () => {
    fc.assert(
      fc.property(conf, strength, days, fc.constantFrom("support" as const, "contradict" as const), (c, s, d, st) => {
        const next = nextConfidence(c, st, s, d, k);
        expect(next).toBeGreaterThanOrEqual(Math.min(c, k.floor));
        expect(next).toBeLessThanOrEqual(Math.max(c, k.ceiling));
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("moves by at most one step (of the remaining distance) for a single fact", () => {
    fc.assert(
      fc.property(conf, strength, (c, s) => {
        const up = nextConfidence(c, "support", s, 1, k) - c;
        const down = c - nextConfidence(c, "contradict", s, 1, k);
        // + 0.005: results are rounded to the 2 decimals opinions.md shows.
        expect(up).toBeLessThanOrEqual(Math.max(0, k.ceiling - c) * k.step + 0.0051);
        expect(down).toBeLessThanOrEqual(Math.max(0, c - k.floor) * k.step + 0.0051);
      }),
    );
  });

  it("rises gradually over several days of support, faster with more agreeing days", () => {
    let c = 0.6;
    const steps: number[] = [];
    for (let day = 1; day <= 5; day++) {
      const next = nextConfidence(c, "support", 0.8, day, k);
      steps.push(Math.round((next - c) * 100) / 100);
      expect(next).toBeGreaterThan(c);
      c = next;
    }
    expect(c).toBeLessThan(0.9); // five days of good evidence: clearly up, nowhere near certainty
    expect(c).toBeGreaterThan(0.75);
    expect(steps[0]).toBeLessThanOrEqual(0.05);
  });

  it("falls on contradictions on two different days", () => {
    const day1 = nextConfidence(0.8, "contradict", 0.8, 1, k);
    const day2 = nextConfidence(day1, "contradict", 0.8, 2, k);
    expect(day1).toBeLessThan(0.8);
    expect(day2).toBeLessThan(day1);
    expect(0.8 - day1).toBeLessThan(day1 - day2); // the second independent day weighs more
    expect(day2).toBeGreaterThan(0.5); // two days do not flip a strong opinion
  });

  it("is exactly the documented formula", () => {
    // w = 0.15 * 0.5 * min(2, 1 + 0.25 * 2) = 0.1125; 0.4 + (0.98 - 0.4) * 0.1125 = 0.46525 -> 0.47
    expect(nextConfidence(0.4, "support", 0.5, 3, k)).toBe(0.47);
    // 0.4 - (0.4 - 0.02) * 0.1125 = 0.357 -> 0.36
    expect(nextConfidence(0.4, "contradict", 0.5, 3, k)).toBe(0.36);
  });
});

describe("combineDay", () => {
  it("does not depend on the order of a day's facts", () => {
    const permuted = fc
      .array(evidence, { maxLength: 8 })
      .chain((items) =>
        fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length })),
      );
    fc.assert(
      fc.property(permuted, ([items, perm]) => {
        expect(combineDay(perm)).toEqual(combineDay(items));
      }),
    );
  });

  it("weighs several same-day facts like the strongest one, not their sum", () => {
    const one = combineDay([{ stance: "support", strength: 0.8 }]);
    const many = combineDay(Array.from({ length: 5 }, () => ({ stance: "support" as const, strength: 0.8 })));
    expect(many).toEqual(one);
    expect(
      combineDay([
        { stance: "support", strength: 0.8 },
        { stance: "contradict", strength: 0.3 },
      ]),
    ).toEqual({
      stance: "support",
      strength: expect.closeTo(0.5, 9),
    });
    expect(
      combineDay([
        { stance: "support", strength: 0.5 },
        { stance: "contradict", strength: 0.5 },
      ]).stance,
    ).toBe("unrelated");
  });
});

describe("streakDays", () => {
  it("counts agreeing days back to the first contrary one", async () => {
    const { streakDays } = await import("./evolve.js");
    const ev = (date: string, stance: "support" | "contradict") => ({
      factId: date + stance,
      date,
      stance,
      source: { path: `memory/${date}.md`, line: 1 },
    });
    const list = [
      ev("2026-01-01", "support"),
      ev("2026-01-02", "support"),
      ev("2026-01-03", "contradict"),
      ev("2026-01-04", "support"),
      ev("2026-01-05", "support"),
      ev("2026-01-06", "support"),
    ];
    expect(streakDays(list, "2026-01-06", "support")).toBe(3);
    expect(streakDays(list, "2026-01-06", "contradict")).toBe(1);
    expect(streakDays(list, "2026-01-02", "support")).toBe(2);
    expect(streakDays([...list, ev("2026-01-05", "contradict")], "2026-01-06", "support")).toBe(1);
  });
});
