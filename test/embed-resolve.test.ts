import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { resolveEmbedder } from "../src/embed/index.js";
import { MembankError } from "../src/workspace/errors.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { writeTinyBertGguf } from "./support/gguf-writer.js";

const dirs: string[] = [];

/** A temp workspace with an optional config and an optional generated local model. */
async function workspace(options: { config?: unknown; model?: string } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "membank-embed-resolve-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "memory"));
  if (options.config) writeFileSync(path.join(dir, "membank.config.json"), JSON.stringify(options.config));
  if (options.model) {
    mkdirSync(path.dirname(path.join(dir, options.model)), { recursive: true });
    writeTinyBertGguf(path.join(dir, options.model), { dims: 32 });
  }
  return openWorkspace(dir);
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("auto resolution order", () => {
  test("local first when its model file exists, even with keys set", async () => {
    const ws = await workspace({ model: ".memory/models/embedding.gguf" });
    const choice = await resolveEmbedder(ws, { env: { OPENAI_API_KEY: "k", GEMINI_API_KEY: "g" } });
    expect(choice).toMatchObject({ provider: "local", model: "embedding.gguf" });
    expect(choice.fallback).toBeUndefined();
    expect(choice.embedder!.dims).toBe(32);
  });

  test("the configured model path is used", async () => {
    const ws = await workspace({
      model: "models/mini.gguf",
      config: { embedding: { local: { modelPath: "models/mini.gguf" } } },
    });
    expect((await resolveEmbedder(ws, { env: {} })).provider).toBe("local");
  });

  test("then openai when its key is set; a missing model at the default path is no news", async () => {
    const ws = await workspace();
    const choice = await resolveEmbedder(ws, { env: { OPENAI_API_KEY: "k", GEMINI_API_KEY: "g" } });
    expect(choice).toMatchObject({ provider: "openai", model: "text-embedding-3-small" });
    expect(choice.embedder!.dims).toBe(1536);
    expect(choice.fallback).toBeUndefined();
  });

  test("a configured model path that is missing is reported", async () => {
    const ws = await workspace({ config: { embedding: { local: { modelPath: "models/gone.gguf" } } } });
    const choice = await resolveEmbedder(ws, { env: { OPENAI_API_KEY: "k" } });
    expect(choice.provider).toBe("openai");
    expect(choice.fallback).toBe("local model file models/gone.gguf not found; using openai");
  });

  test("then gemini when only its key is set", async () => {
    const ws = await workspace();
    const choice = await resolveEmbedder(ws, { env: { GEMINI_API_KEY: "g", OPENAI_API_KEY: "  " } });
    expect(choice).toMatchObject({ provider: "gemini", model: "text-embedding-004" });
  });

  test("key variable names come from config", async () => {
    const ws = await workspace({ config: { embedding: { openai: { apiKeyEnv: "MY_EMBED_KEY" } } } });
    expect((await resolveEmbedder(ws, { env: { OPENAI_API_KEY: "k", MY_EMBED_KEY: "m" } })).provider).toBe("openai");
    const ws2 = await workspace({ config: { embedding: { openai: { apiKeyEnv: "MY_EMBED_KEY" } } } });
    expect((await resolveEmbedder(ws2, { env: { OPENAI_API_KEY: "k" } })).provider).toBe("none");
  });

  test("auto ignores a keyless custom openai endpoint", async () => {
    const ws = await workspace({ config: { embedding: { openai: { baseUrl: "http://127.0.0.1:9/v1" } } } });
    expect((await resolveEmbedder(ws, { env: {} })).provider).toBe("none");
  });

  test("with nothing configured: none (BM25 + structure), quietly, even though USE is installed", async () => {
    const ws = await workspace();
    const choice = await resolveEmbedder(ws, { env: {}, useAvailable: true });
    expect(choice).toEqual({ embedder: null, provider: "none" });
  });

  test("a configured model that is missing and no key: none, with the reason", async () => {
    const ws = await workspace({ config: { embedding: { local: { modelPath: "models/gone.gguf" } } } });
    const choice = await resolveEmbedder(ws, { env: {} });
    expect(choice.embedder).toBeNull();
    expect(choice.fallback).toBe("local model file models/gone.gguf not found; BM25 only");
  });

  test("is cheap: resolving does not load the model (a broken file only fails at embed time)", async () => {
    const ws = await workspace();
    mkdirSync(path.join(ws.root, ".memory", "models"), { recursive: true });
    writeFileSync(path.join(ws.root, ".memory", "models", "embedding.gguf"), "GGUF but not really");
    const choice = await resolveEmbedder(ws, { env: {}, threads: 1 });
    expect(choice.provider).toBe("local");
    expect(choice.embedder!.dims).toBe(0);
    await expect(choice.embedder!.embed(["x"])).rejects.toThrow(/Cannot load the local embedding model/);
  });
});

describe("explicit providers", () => {
  test("provider option overrides config", async () => {
    const ws = await workspace({ config: { embedding: { provider: "use" } } });
    expect((await resolveEmbedder(ws, { env: {} })).provider).toBe("use");
    expect((await resolveEmbedder(ws, { env: {}, provider: "none" })).provider).toBe("none");
  });

  test("an unusable explicit provider falls back to BM25 and says why", async () => {
    const ws = await workspace({ config: { embedding: { provider: "gemini" } } });
    const choice = await resolveEmbedder(ws, { env: {} });
    expect(choice).toEqual({ embedder: null, provider: "none", fallback: "gemini: GEMINI_API_KEY not set; BM25 only" });
  });

  test("with fallback=error an unusable provider is an error", async () => {
    const ws = await workspace({ config: { embedding: { provider: "local", fallback: "error" } } });
    await expect(resolveEmbedder(ws, { env: {} })).rejects.toThrow(
      /Embedding provider local is not usable: local model file .memory\/models\/embedding.gguf not found/,
    );
  });

  test("explicit openai on a custom endpoint needs no key; on api.openai.com it does", async () => {
    const custom = await workspace({
      config: { embedding: { provider: "openai", openai: { baseUrl: "http://127.0.0.1:9/v1", dims: 64 } } },
    });
    const choice = await resolveEmbedder(custom, { env: {} });
    expect(choice.provider).toBe("openai");
    expect(choice.embedder!.dims).toBe(64);
    const official = await workspace({ config: { embedding: { provider: "openai" } } });
    expect((await resolveEmbedder(official, { env: {} })).fallback).toBe("openai: OPENAI_API_KEY not set; BM25 only");
  });

  test("an unknown provider name is a clear user error", async () => {
    const ws = await workspace();
    const error = await resolveEmbedder(ws, { provider: "word2vec" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MembankError);
    expect((error as MembankError).message).toContain('Unknown embedding provider "word2vec"');
    expect((error as MembankError).exitCode).toBe(2);
  });
});
