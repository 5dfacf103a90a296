import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goneLogs, tooManyGone } from "./checkout.js";

describe("goneLogs", () => {
  it("a log not on disk is gone; one moved to another folder, emptied by hand, or not a daily log is not", () => {
    const before = [
      "memory/2024-01-02.md",
      "memory/2024-01-03.md",
      "memory/2024-01-04.md",
      "memory/notes.md",
      "MEMORY.md",
    ];
    const present = ["memory/2024/2024-01-03.md"];
    const onDisk = new Set(["memory/2024-01-04.md"]); // emptied: no facts, still there
    expect(goneLogs(before, present, (p) => onDisk.has(p))).toEqual(["memory/2024-01-02.md"]);
  });
});

describe("tooManyGone", () => {
  it("a few gone logs are a deletion; a fifth of them, or fifty, is refused", () => {
    expect(tooManyGone(2, 10)).toBe(false);
    expect(tooManyGone(4, 10)).toBe(false); // under five: always taken as meant
    expect(tooManyGone(5, 20)).toBe(true);
    expect(tooManyGone(5, 100)).toBe(false);
    expect(tooManyGone(50, 3650)).toBe(true);
  });

  it("more gone logs of the same total is never less suspicious", () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), fc.nat(5000), (a, b, known) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        if (tooManyGone(lo, known)) expect(tooManyGone(hi, known)).toBe(true);
      }),
    );
  });
});
