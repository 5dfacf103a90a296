import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createGeminiEmbedder, createOpenAiEmbedder, dot } from "../src/embed/index.js";
import { createCachedEmbedder } from "../src/index/embedding-cache.js";

/** A recorded request to the test server. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/** A deterministic fake "model": a vector from character codes, so equal texts give equal vectors. */
function vectorOf(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0.01);
  for (let i = 0; i < text.length; i++) {
    const slot = (text.charCodeAt(i) * 31 + i) % dims;
    v[slot] = (v[slot] ?? 0) + 1;
  }
  return v;
}

const KEY = "sk-test-SECRET-0123456789";
const DIMS = 8;

let server: Server;
let base = "";
let seen: Seen[] = [];
/** Statuses to answer before answering normally (one per request). */
let failures: number[] = [];

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const fail = failures.shift();
      if (fail !== undefined) {
        // Echo the key back, as a careless proxy might: it must not reach our error messages.
        send(res, fail, { error: { message: `rate limited for key ${req.headers.authorization ?? ""}` } });
        return;
      }
      if (req.url === "/v1/embeddings") {
        const input = body.input as string[];
        const dims = typeof body.dimensions === "number" ? body.dimensions : DIMS;
        // Answer out of order: the client must sort by index.
        const data = input.map((t, index) => ({ object: "embedding", index, embedding: vectorOf(t, dims) })).reverse();
        send(res, 200, { object: "list", data, model: body.model });
        return;
      }
      const gem = /^\/v1beta\/models\/([^:]+):batchEmbedContents$/.exec(req.url ?? "");
      if (gem) {
        const requests = body.requests as Array<{ content: { parts: Array<{ text: string }> } }>;
        send(res, 200, { embeddings: requests.map((r) => ({ values: vectorOf(r.content.parts[0]!.text, DIMS) })) });
        return;
      }
      send(res, 404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  failures = [];
});

const fastRetry = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

function openai(extra: Partial<Parameters<typeof createOpenAiEmbedder>[0]> = {}) {
  return createOpenAiEmbedder({
    baseUrl: `${base}/v1`,
    model: "test-embed",
    apiKey: KEY,
    headers: { "x-team": "membank" },
    batchSize: 2,
    retry: fastRetry,
    ...extra,
  });
}

describe("openai-compatible provider", () => {
  test("sends the OpenAI request shape with key and custom headers, in batches, and keeps input order", async () => {
    const e = openai();
    const texts = ["alpha", "beta", "gamma", "delta", "epsilon"];
    const vectors = await e.embed(texts);
    expect(seen.map((s) => (s.body.input as string[]).length)).toEqual([2, 2, 1]);
    const first = seen[0]!;
    expect(first.method).toBe("POST");
    expect(first.url).toBe("/v1/embeddings");
    expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.headers["x-team"]).toBe("membank");
    expect(first.headers["content-type"]).toContain("application/json");
    expect(first.body).toEqual({ model: "test-embed", input: ["alpha", "beta"], encoding_format: "float" });
    expect(vectors).toHaveLength(5);
    expect(e.dims).toBe(DIMS);
    for (const [i, v] of vectors.entries()) {
      expect(v.length).toBe(DIMS);
      expect(dot(v, v)).toBeCloseTo(1, 5);
      // Same text embedded alone gives the same vector: order survived the reversed answer.
      const [alone] = await e.embed([texts[i]!]);
      expect(Array.from(alone!)).toEqual(Array.from(v));
    }
  });

  test("requests configured dimensions", async () => {
    const e = openai({ dims: 4 });
    expect(e.dims).toBe(4);
    const [v] = await e.embed(["x"]);
    expect(seen[0]!.body.dimensions).toBe(4);
    expect(v!.length).toBe(4);
  });

  test("retries after 429 and 500, then succeeds", async () => {
    failures = [429, 500];
    const vectors = await openai().embed(["one"]);
    expect(seen).toHaveLength(3);
    expect(vectors).toHaveLength(1);
  });

  test("gives up after the bounded retries with a clear error that never contains the key", async () => {
    failures = [503, 503, 503, 503, 503];
    const error = await openai()
      .embed(["one"])
      .catch((e: Error) => e);
    expect(seen).toHaveLength(4); // 1 attempt + 3 retries
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain("HTTP 503");
    expect(message).toContain(`${base}/v1/embeddings`);
    expect(message).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(String((error as Error).stack)).not.toContain(KEY);
  });

  test("does not retry a 401", async () => {
    failures = [401];
    const error = await openai()
      .embed(["one"])
      .catch((e: Error) => e);
    expect(seen).toHaveLength(1);
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain(KEY);
  });

  test("retries network errors and reports them without the key", async () => {
    // A port nobody listens on: connection refused on every attempt.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const started = Date.now();
    const error = await openai({ baseUrl: `http://127.0.0.1:${port}/v1` })
      .embed(["one"])
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/network error/);
    expect((error as Error).message).not.toContain(KEY);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("gemini provider", () => {
  test("calls batchEmbedContents with the key in x-goog-api-key, never in the URL", async () => {
    const e = createGeminiEmbedder({
      baseUrl: `${base}/v1beta`,
      model: "text-embedding-004",
      apiKey: KEY,
      batchSize: 2,
      retry: fastRetry,
    });
    expect(e.dims).toBe(768); // known model size before any call
    failures = [500];
    const vectors = await createGeminiEmbedder({
      baseUrl: `${base}/v1beta`,
      model: "models/custom-embed",
      apiKey: KEY,
      batchSize: 2,
      retry: fastRetry,
    }).embed(["a", "b", "c"]);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]!.length).toBe(DIMS);
    const ok = seen.slice(1);
    expect(ok).toHaveLength(2);
    expect(ok[0]!.url).toBe("/v1beta/models/custom-embed:batchEmbedContents");
    expect(ok[0]!.headers["x-goog-api-key"]).toBe(KEY);
    expect(seen.every((s) => !s.url.includes(KEY))).toBe(true);
    expect(ok[0]!.body).toEqual({
      requests: [
        { model: "models/custom-embed", content: { parts: [{ text: "a" }] } },
        { model: "models/custom-embed", content: { parts: [{ text: "b" }] } },
      ],
    });
  });

  test("errors name the provider and hide the key", async () => {
    failures = [400];
    const error = await createGeminiEmbedder({ baseUrl: `${base}/v1beta`, model: "m", apiKey: KEY, retry: fastRetry })
      .embed(["a"])
      .catch((e: Error) => e);
    expect((error as Error).message).toContain("gemini embeddings (m)");
    expect((error as Error).message).not.toContain(KEY);
  });
});

describe("embedding cache", () => {
  test("a second embed of the same texts calls the provider zero times", async () => {
    const db = new Database(":memory:");
    const texts = ["We moved the ledger to Postgres", "The dog needs a walk", "We moved the ledger to Postgres", "x"];
    const first = await createCachedEmbedder(openai(), db).embed(texts);
    // Duplicates are embedded once; batches of 2 -> 3 distinct texts = 2 requests.
    expect(seen).toHaveLength(2);
    expect(seen.flatMap((s) => s.body.input as string[])).toEqual([
      "We moved the ledger to Postgres",
      "The dog needs a walk",
      "x",
    ]);
    seen = [];
    // A fresh wrapper over the same database (as in a new process).
    const again = await createCachedEmbedder(openai(), db).embed(texts);
    expect(seen).toHaveLength(0);
    expect(again.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    // Only the new text reaches the provider.
    await createCachedEmbedder(openai(), db).embed(["The dog needs a walk", "new text"]);
    expect(seen.flatMap((s) => s.body.input as string[])).toEqual(["new text"]);
    const rows = db.prepare("SELECT provider, model, dims, COUNT(*) AS n FROM embedding_cache GROUP BY 1, 2, 3").all();
    expect(rows).toEqual([{ provider: "openai", model: "test-embed", dims: DIMS, n: 4 }]);
    db.close();
  });

  test("a different model or dims does not reuse cached vectors", async () => {
    const db = new Database(":memory:");
    await createCachedEmbedder(openai(), db).embed(["same text"]);
    seen = [];
    await createCachedEmbedder(openai({ dims: 4 }), db).embed(["same text"]);
    await createCachedEmbedder(openai({ model: "other-model" }), db).embed(["same text"]);
    expect(seen).toHaveLength(2);
    db.close();
  });
});
