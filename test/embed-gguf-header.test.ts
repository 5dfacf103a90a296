import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { readGgufHeader } from "../src/embed/index.js";
import { encodeGguf, type GgufValue, tinyBertGguf } from "./support/gguf-writer.js";

const dir = mkdtempSync(path.join(tmpdir(), "membank-gguf-header-"));
let n = 0;
function fileWith(bytes: Uint8Array): string {
  const file = path.join(dir, `f${n++}.gguf`);
  writeFileSync(file, bytes);
  return file;
}

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const key = fc.stringMatching(/^[a-z][a-z0-9_.]{0,30}$/).filter((k) => !k.startsWith("general."));
const value: fc.Arbitrary<GgufValue> = fc.oneof(
  fc.record({ type: fc.constant("u32" as const), value: fc.nat({ max: 2 ** 32 - 1 }) }),
  fc.record({ type: fc.constant("i32" as const), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
  fc.record({ type: fc.constant("f32" as const), value: fc.float({ noNaN: true }) }),
  fc.record({ type: fc.constant("bool" as const), value: fc.boolean() }),
  fc.record({ type: fc.constant("string" as const), value: fc.string({ unit: "grapheme", maxLength: 40 }) }),
  fc.record({
    type: fc.constant("string[]" as const),
    value: fc.array(fc.string({ maxLength: 12 }), { maxLength: 30 }),
  }),
  fc.record({
    type: fc.constant("i32[]" as const),
    value: fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 30 }),
  }),
);

describe("readGgufHeader", () => {
  test("reads architecture and embedding length of the generated model", () => {
    const info = readGgufHeader(fileWith(tinyBertGguf({ dims: 64, heads: 4 })));
    expect(info).toMatchObject({ architecture: "bert", embeddingLength: 64 });
  });

  test("property: finds <arch>.embedding_length among arbitrary other metadata", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
        fc.integer({ min: 1, max: 65_536 }),
        fc.array(fc.tuple(key, value), { maxLength: 12 }),
        fc.array(fc.tuple(key, value), { maxLength: 12 }),
        (arch, dims, before, after) => {
          const embKey = `${arch}.embedding_length`;
          const clean = (kvs: Array<[string, GgufValue]>) => kvs.filter(([k]) => k !== embKey);
          const metadata: Array<[string, GgufValue]> = [
            ["general.architecture", { type: "string", value: arch }],
            ...clean(before),
            [embKey, { type: "u32", value: dims }],
            ...clean(after),
          ];
          const info = readGgufHeader(fileWith(encodeGguf(metadata, [])));
          expect(info.architecture).toBe(arch);
          expect(info.embeddingLength).toBe(dims);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("a file without the key yields no length", () => {
    const info = readGgufHeader(fileWith(encodeGguf([["general.architecture", { type: "string", value: "x" }]], [])));
    expect(info).toEqual({ architecture: "x" });
  });

  test("property: truncated or corrupted headers throw or return, never hang or allocate wildly", () => {
    const whole = tinyBertGguf({ dims: 32 });
    fc.assert(
      fc.property(
        fc.nat({ max: 4096 }),
        fc.array(fc.tuple(fc.nat({ max: 4095 }), fc.nat({ max: 255 })), { maxLength: 8 }),
        (cut, flips) => {
          const bytes = Buffer.from(whole.subarray(0, cut));
          for (const [at, byte] of flips) if (at < bytes.length) bytes[at] = byte;
          try {
            const info = readGgufHeader(fileWith(bytes));
            expect(typeof info).toBe("object");
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  test("refuses non-GGUF files", () => {
    expect(() => readGgufHeader(fileWith(Buffer.from("not a model at all")))).toThrow(/not a GGUF file/);
    expect(() => readGgufHeader(fileWith(Buffer.alloc(0)))).toThrow();
  });
});
