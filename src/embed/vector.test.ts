import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { batches, blobToVector, dot, l2normalize, textHash, vectorToBlob } from "./vector.js";

const finiteVector = fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), {
  minLength: 1,
  maxLength: 64,
});

describe("vector helpers", () => {
  test("property: l2normalize gives unit length (or stays zero) and keeps direction", () => {
    fc.assert(
      fc.property(finiteVector, (values) => {
        const v = l2normalize(values);
        const norm = Math.sqrt(dot(v, v));
        if (values.every((x) => Math.abs(x) < 1e-30)) return;
        expect(norm).toBeCloseTo(1, 3);
        values.forEach((x, i) => {
          if (x !== 0 && v[i] !== 0) expect(Math.sign(v[i]!)).toBe(Math.sign(x));
        });
      }),
    );
    expect(Array.from(l2normalize([0, 0, 0]))).toEqual([0, 0, 0]);
  });

  test("property: blob round trip is exact, also from an unaligned buffer", () => {
    fc.assert(
      fc.property(finiteVector, (values) => {
        const v = Float32Array.from(values);
        const blob = vectorToBlob(v);
        expect(blob.length).toBe(v.length * 4);
        const shifted = Buffer.concat([Buffer.from([7]), blob]).subarray(1);
        expect(Array.from(blobToVector(shifted))).toEqual(Array.from(v));
      }),
    );
  });

  test("textHash is stable and content-sensitive", () => {
    expect(textHash("a")).toBe(textHash("a"));
    expect(textHash("a")).not.toBe(textHash("a "));
    expect(textHash("")).toMatch(/^[0-9a-f]{64}$/);
  });

  test("property: batches keep order and bound the size", () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 10 }), (items, size) => {
        const groups = batches(items, size);
        expect(groups.flat()).toEqual(items);
        for (const g of groups) expect(g.length).toBeGreaterThan(0);
        for (const g of groups) expect(g.length).toBeLessThanOrEqual(size);
      }),
    );
  });
});
