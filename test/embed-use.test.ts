import { afterAll, describe, expect, test } from "vitest";
import { createUseEmbedder, dot, USE_DIMS, useAvailable } from "../src/embed/index.js";

/** The offline Universal Sentence Encoder (npm weights): one small real semantic check. Slow-ish: model load. */
const embedder = createUseEmbedder({ batchSize: 8 });

afterAll(async () => {
  await embedder.close?.();
});

describe("use provider (Universal Sentence Encoder lite)", () => {
  test("is installed", () => {
    expect(useAvailable()).toBe(true);
    expect(embedder.dims).toBe(USE_DIMS);
  });

  test("a database question ranks the Postgres line above an unrelated line", async () => {
    const [query, postgres, dog, postgresAgain] = await embedder.embed([
      "which database do we use?",
      "We moved the ledger to Postgres",
      "The dog needs a walk",
      "We moved the ledger to Postgres",
    ]);
    for (const v of [query, postgres, dog]) {
      expect(v!.length).toBe(512);
      expect(dot(v!, v!)).toBeCloseTo(1, 4);
    }
    expect(dot(query!, postgres!)).toBeGreaterThan(dot(query!, dog!));
    expect(Array.from(postgresAgain!)).toEqual(Array.from(postgres!));
  });

  test("keeps one vector per text, also for empty text", async () => {
    const vectors = await embedder.embed(["", "hello", "   "]);
    expect(vectors.map((v) => v.length)).toEqual([512, 512, 512]);
    // Empty texts do not shift the others: "hello" keeps its own vector.
    const [hello] = await embedder.embed(["hello"]);
    expect(dot(vectors[1]!, hello!)).toBeGreaterThan(0.999);
    expect(dot(vectors[0]!, hello!)).toBeLessThan(0.999);
  });
});
