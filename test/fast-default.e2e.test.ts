// Fast by default, through the BUILT CLI: with nothing configured the index is BM25 +
// structure; a configured provider embeds only in `membank index` (never in a query), only
// logs and MEMORY.md, with progress lines when stderr is not a terminal.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;

/** An OpenAI-compatible /v1/embeddings that records every text it is asked to embed. */
let server: Server;
let base = "";
const asked: string[][] = [];
let delayMs = 0;

// No provider keys from the developer's shell: `auto` must see a bare machine.
const env = { ...process.env, OPENAI_API_KEY: "", GEMINI_API_KEY: "" };

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const input = (JSON.parse(raw) as { input: string[] }).input;
      asked.push(input);
      const data = input.map((t, index) => ({
        index,
        embedding: Array.from({ length: 8 }, (_, i) => 1 + ((t.charCodeAt(i % t.length) * (i + 1)) % 7)),
      }));
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function exampleWorkspace(config?: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-fast-"));
  dirs.push(dir);
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  await mkdir(path.join(dir, "bank"), { recursive: true });
  await writeFile(
    path.join(dir, "bank", "world.md"),
    "# World\n\n- Zanzibar ferry timetable changes every Thursday (from memory/2026-03-04.md).\n",
  );
  if (config) await writeFile(path.join(dir, "membank.config.json"), JSON.stringify(config, null, 2));
  return dir;
}

const membank = (args: string[]) => run(process.execPath, [cli, ...args], { env });

describe("fast by default", () => {
  it("with nothing configured, index and recall are BM25 + structure, quietly", async () => {
    const dir = await exampleWorkspace();
    const { stdout } = await membank(["index", "-w", dir, "--json"]);
    const report = JSON.parse(stdout) as { provider: string; embedded: number; fallback?: string };
    expect(report).toMatchObject({ provider: "none", embedded: 0 });
    expect(report.fallback).toBeUndefined();
    const r = JSON.parse((await membank(["recall", "-w", dir, "--json", "Zanzibar ferry"])).stdout);
    expect(r.provider).toBe("none");
    expect(r.results[0].source).toMatch(/^bank\/world\.md#L3/);
    const doctor = (await membank(["doctor", "-w", dir])).stdout;
    expect(doctor).toMatch(/embedding +auto -> none \(BM25 \+ structure: the fast default/);
  });

  it("a configured provider embeds in `index` only: recall and search never embed the corpus", async () => {
    const dir = await exampleWorkspace({
      embedding: { provider: "openai", batchSize: 4, openai: { baseUrl: base, model: "fake-embed", dims: 8 } },
    });
    asked.length = 0;
    await membank(["index", "-w", dir, "--provider", "none"]);
    const question = "what does Mara prefer for status updates?";
    const bare = JSON.parse((await membank(["recall", "-w", dir, "--json", question])).stdout);
    expect(asked).toEqual([]);
    expect(bare.provider).toBe("none");
    expect(bare.fallback).toMatch(/no openai vectors in the index yet \(`membank index` embeds\); vector arm skipped/);
    expect(bare.results.length).toBeGreaterThan(0);
    const found = JSON.parse((await membank(["search", "-w", dir, "--json", "status updates"])).stdout);
    expect(asked).toEqual([]);
    expect(found.fallback).toMatch(/vector arm skipped/);

    // Piped (no terminal): the embedding pass reports progress lines with counts and an estimate.
    delayMs = 700;
    let indexed: { stdout: string; stderr: string };
    try {
      indexed = await membank(["index", "-w", dir, "--json"]);
    } finally {
      delayMs = 0;
    }
    const report = JSON.parse(indexed.stdout) as { provider: string; embedded: number; chunks: number };
    expect(report.provider).toBe("openai");
    expect(report.embedded).toBe(report.chunks - 1); // every chunk but the bank page's
    expect(indexed.stderr).toMatch(/^membank: embedding with openai: \d+\/\d+ \(\d+%\), \d+ s elapsed, ~\d+ s left$/m);
    expect(indexed.stderr).toMatch(/^membank: embedding with openai: (\d+)\/\1 done in \d+ s$/m);
    const sent = asked.flat();
    expect(sent.some((t) => t.includes("Zanzibar"))).toBe(false);
    // Batches go shortest text first.
    const lengths = sent.map((t) => t.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));

    asked.length = 0;
    const hybrid = JSON.parse((await membank(["recall", "-w", dir, "--json", question])).stdout);
    expect(hybrid.provider).toBe("openai");
    expect(hybrid.fallback).toBeUndefined();
    expect(asked[0]).toEqual([question]);
  });

  it("a big embedding pass is announced with its size before it starts", async () => {
    const dir = await exampleWorkspace({
      embedding: { provider: "openai", openai: { baseUrl: base, model: "fake-embed", dims: 8 } },
    });
    const topics = ["standup", "gym", "groceries", "release train", "dentist", "reading", "call with Mara"];
    for (let i = 0; i < 120; i++) {
      const day = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
      await writeFile(path.join(dir, "memory", `${day}.md`), `# ${day}\n\n- ${topics[i % topics.length]}; note ${i}\n`);
    }
    const { stderr, stdout } = await membank(["index", "-w", dir, "--json"]);
    const total = (JSON.parse(stdout) as { embedded: number }).embedded;
    expect(total).toBeGreaterThanOrEqual(120);
    expect(stderr).toContain(`membank: embedding ${total} chunks with openai (vectors are cached`);
  });
});
