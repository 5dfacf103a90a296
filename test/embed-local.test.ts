import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLocalEmbedder, dot, type Embedder, readGgufHeader, resolveEmbedder } from "../src/embed/index.js";
import { createCachedEmbedder } from "../src/index/embedding-cache.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { writeTinyBertGguf } from "./support/gguf-writer.js";

/**
 * The `local` provider through the real node-llama-cpp / llama.cpp path, with a tiny
 * BERT embedding model (32 dims, mean pooling) that the test generates itself.
 */
let dir: string;
let modelPath: string;
let embedder: Embedder;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "membank-embed-local-"));
  mkdirSync(path.join(dir, "memory"));
  mkdirSync(path.join(dir, ".memory", "models"), { recursive: true });
  modelPath = writeTinyBertGguf(path.join(dir, ".memory", "models", "embedding.gguf"), { dims: 32, seed: 7 });
  embedder = createLocalEmbedder({ modelPath, threads: 1 });
});

afterAll(async () => {
  await embedder?.close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("local provider (node-llama-cpp, generated GGUF)", () => {
  test("knows its dims from the GGUF header before loading the model", () => {
    expect(readGgufHeader(modelPath)).toEqual({
      architecture: "bert",
      name: "membank-tiny-bert-test",
      embeddingLength: 32,
    });
    expect(embedder.id).toBe("local");
    expect(embedder.model).toBe("embedding.gguf");
    expect(embedder.dims).toBe(32);
  });

  test("embeds: right dims, unit length, deterministic, different texts differ", async () => {
    const texts = ["We moved the ledger to Postgres", "The dog needs a walk", "We moved the ledger to Postgres"];
    const [a, b, a2] = await embedder.embed(texts);
    expect(a!.length).toBe(32);
    expect(b!.length).toBe(32);
    expect(dot(a!, a!)).toBeCloseTo(1, 4);
    expect(Array.from(a2!)).toEqual(Array.from(a!));
    expect(dot(a!, b!)).toBeLessThan(0.999);
    // Reused context: a second call gives the same bytes.
    const [again] = await embedder.embed([texts[0]!]);
    expect(Array.from(again!)).toEqual(Array.from(a!));
  });

  test("survives empty text and text longer than the context", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const [empty, big] = await embedder.embed(["", long]);
    expect(empty!.length).toBe(32);
    expect(big!.length).toBe(32);
    expect(dot(big!, big!)).toBeCloseTo(1, 4);
  });

  test("a second embedder on the same file gives the same vectors", async () => {
    const other = createLocalEmbedder({ modelPath, threads: 1 });
    try {
      const [x] = await other.embed(["hello world"]);
      const [y] = await embedder.embed(["hello world"]);
      expect(Array.from(x!)).toEqual(Array.from(y!));
    } finally {
      await other.close?.();
    }
  });

  test("auto resolves to local when the model file exists, and the cache stores its vectors", async () => {
    const ws = await openWorkspace(dir);
    const choice = await resolveEmbedder(ws, { env: {}, threads: 1 });
    expect(choice.provider).toBe("local");
    expect(choice.model).toBe("embedding.gguf");
    expect(choice.fallback).toBeUndefined();
    const db = new Database(":memory:");
    try {
      const cached = createCachedEmbedder(choice.embedder!, db);
      const [v] = await cached.embed(["cached text"]);
      const row = db.prepare("SELECT provider, model, dims FROM embedding_cache").get();
      expect(row).toEqual({ provider: "local", model: "embedding.gguf", dims: 32 });
      const [w] = await cached.embed(["cached text"]);
      expect(Array.from(w!)).toEqual(Array.from(v!));
    } finally {
      db.close();
      await choice.embedder?.close?.();
    }
  });

  test("a corrupt model file fails with a message naming it", async () => {
    const bad = path.join(dir, "bad.gguf");
    writeFileSync(bad, "not a model");
    const e = createLocalEmbedder({ modelPath: bad, threads: 1 });
    expect(e.dims).toBe(0);
    await expect(e.embed(["x"])).rejects.toThrow(/Cannot load the local embedding model .*bad\.gguf/);
  });

  test("a truncated model file fails instead of hanging", async () => {
    const whole = readFileSync(modelPath);
    for (const [name, bytes] of [
      ["header-only.gguf", whole.subarray(0, 200)],
      ["half.gguf", whole.subarray(0, Math.floor(whole.length / 2))],
    ] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      const e = createLocalEmbedder({ modelPath: file, threads: 1 });
      await expect(e.embed(["x"])).rejects.toThrow(new RegExp(`Cannot load the local embedding model .*${name}`));
    }
  });
});
