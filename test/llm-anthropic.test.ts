import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlm } from "../src/llm/index.js";
import type { Fact } from "../src/retain/types.js";
import { MembankError } from "../src/workspace/errors.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { type MessagesServer, startMessagesServer } from "./llm-messages-server.js";

const KEY = "sk-ant-test-SECRET-5f1e2d3c4b5a69788796";
const ENV = { ANTHROPIC_API_KEY: KEY };

let dir: string;
let server: MessagesServer;

async function workspace(llm: object): Promise<Workspace> {
  await writeFile(path.join(dir, "membank.config.json"), JSON.stringify({ llm }));
  return openWorkspace(dir);
}

async function anthropicWs(extra: object = {}): Promise<Workspace> {
  return workspace({ provider: "anthropic", anthropic: { baseUrl: server.baseUrl, model: "claude-test", ...extra } });
}

const fact: Fact = {
  id: "f1",
  kind: "world",
  entities: ["Jonas"],
  content: "Jonas said ledger-sync slipped to May.",
  date: "2026-03-04",
  source: { path: "memory/2026-03-04.md", line: 12 },
};
const opinion = { statement: "ledger-sync ships in March", entities: ["Jonas"], confidence: 0.8 };

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-llm-"));
  await mkdir(path.join(dir, "memory"));
  server = await startMessagesServer();
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("anthropic provider with the real SDK against a local Messages API", () => {
  it("judges, summarises and extracts from valid JSON answers", async () => {
    server.queue.push(
      { text: '{"stance":"contradict","strength":0.8,"reason":"It slipped past March."}' },
      { text: '```json\n{"summary": "Jonas leads ledger-sync. He expects it in May."}\n```' },
      {
        text: JSON.stringify({
          facts: [
            { kind: "W", entities: ["@Jonas"], confidence: null, content: "Jonas leads the ledger-sync project." },
            { kind: "O", entities: ["Priya Sharma"], confidence: 0.7, content: "Priya prefers short   stand-ups." },
            { kind: "S", entities: [], confidence: 0.5, content: "A quiet planning day." },
          ],
        }),
      },
    );
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 0 });
    expect(llm.provider).toBe("anthropic");
    expect(llm.model).toBe("claude-test");

    const judgement = await llm.judge!.judge(opinion, fact);
    expect(judgement).toEqual({ stance: "contradict", strength: 0.8, reason: "It slipped past March." });
    expect(await llm.summarizeEntity!("Jonas", [fact])).toBe("Jonas leads ledger-sync. He expects it in May.");
    expect(await llm.extractFacts!("2026-03-04", "Talked to Jonas and Priya.")).toEqual([
      { kind: "world", entities: ["Jonas"], content: "Jonas leads the ledger-sync project." },
      { kind: "opinion", entities: ["Priya Sharma"], confidence: 0.7, content: "Priya prefers short stand-ups." },
      { kind: "observation", entities: [], content: "A quiet planning day." },
    ]);
    expect(llm.warnings).toEqual([]);

    expect(server.requests).toHaveLength(3);
    const first = server.requests[0]!;
    expect(first.url).toBe("/v1/messages");
    expect(first.body.model).toBe("claude-test");
    expect(first.headers["x-api-key"] ?? first.headers.authorization).toContain(KEY);
    expect(first.body.system).toContain("supports the opinion");
    expect(first.body.messages[0]!.content).toContain("ledger-sync ships in March");
    expect(first.body.messages[0]!.content).toContain("Jonas said ledger-sync slipped to May.");
    expect(server.requests[2]!.body.messages[0]!.content).toContain("Memory log of 2026-03-04");
  });

  it("retries an invalid answer once, telling the model why, and uses the second answer", async () => {
    server.queue.push(
      { text: "Sure! The stance is support." },
      { text: '{"stance":"support","strength":0.4,"reason":"ok"}' },
    );
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 0 });
    expect(await llm.judge!.judge(opinion, fact)).toEqual({ stance: "support", strength: 0.4, reason: "ok" });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages[0]!.content).toContain(
      "previous answer was rejected (answer is not JSON)",
    );
    expect(llm.warnings).toEqual([]);
  });

  it("skips an answer that is invalid twice, with a warning, and moves no confidence", async () => {
    server.queue.push(
      { text: '{"stance":"maybe","strength":0.5,"reason":"x"}' },
      { text: '{"stance":"support","strength":3,"reason":"x"}' },
      { text: '{"facts":[{"kind":"X","entities":[],"confidence":null,"content":"c"}]}' },
      { text: '{"facts":[{"kind":"W","entities":[],"confidence":null,"content":""}]}' },
    );
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 0 });
    const judgement = await llm.judge!.judge(opinion, fact);
    expect(judgement).toMatchObject({ stance: "unrelated", strength: 0, skipped: true });
    expect(await llm.extractFacts!("2026-03-04", "text")).toBeNull();
    expect(server.requests).toHaveLength(4);
    expect(llm.warnings).toHaveLength(2);
    expect(llm.warnings![0]).toMatch(/^judge memory\/2026-03-04\.md#L12: invalid LLM answer twice \(strength: /);
    expect(llm.warnings![1]).toMatch(/^extract 2026-03-04: invalid LLM answer twice \(facts\.0\.content: /);
  });

  it("lets the SDK retry a 500 and then succeeds", async () => {
    server.queue.push(
      { status: 500, headers: { "retry-after-ms": "5" } },
      { text: '{"summary":"Jonas leads ledger-sync."}' },
    );
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 1 });
    expect(await llm.summarizeEntity!("Jonas", [fact])).toBe("Jonas leads ledger-sync.");
    expect(server.requests).toHaveLength(2);
    expect(llm.warnings).toEqual([]);
  });

  it("skips with a warning when the API keeps failing, and keeps going", async () => {
    server.queue.push(
      { status: 500, headers: { "retry-after-ms": "5" } },
      { status: 500, headers: { "retry-after-ms": "5" } },
      { text: '{"summary":"Back again."}' },
    );
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 1 });
    expect(await llm.summarizeEntity!("Jonas", [fact])).toBeNull();
    expect(llm.warnings).toHaveLength(1);
    expect(llm.warnings![0]).toMatch(/^summary @Jonas: anthropic LLM call failed, skipped: 500/);
    // A server error is not fatal: the next call is made.
    expect(await llm.summarizeEntity!("Jonas", [fact])).toBe("Back again.");
  });

  it("stops calling after an authentication error, and never shows the key", async () => {
    server.queue.push({
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } },
    });
    const llm = await createLlm(await anthropicWs(), { env: ENV, maxRetries: 0 });
    expect(await llm.extractFacts!("2026-03-04", "text")).toBeNull();
    expect(await llm.judge!.judge(opinion, fact)).toMatchObject({ skipped: true });
    expect(server.requests).toHaveLength(1);
    expect(llm.warnings).toHaveLength(1);
    expect(llm.warnings![0]).toContain("no further LLM calls this run");
    expect(llm.warnings![0]).toContain("[redacted]");
    expect(JSON.stringify(llm.warnings)).not.toContain(KEY);
  });

  it("fails clearly, naming the env var and never a key, when the key is missing", async () => {
    const ws = await anthropicWs({ apiKeyEnv: "MY_CLAUDE_KEY" });
    const error = await createLlm(ws, { env: { ANTHROPIC_API_KEY: KEY } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MembankError);
    expect((error as MembankError).message).toContain("MY_CLAUDE_KEY");
    expect((error as MembankError).message).not.toContain(KEY);
    expect(String((error as Error).stack)).not.toContain(KEY);
    await expect(createLlm(ws, { env: { MY_CLAUDE_KEY: "  " } })).rejects.toThrow(/MY_CLAUDE_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it("answers a question asked before from the workspace's answer cache, without a call", async () => {
    // (The opinion's confidence is not part of the question: same stance whatever c is now.)
    server.fallback = { text: '{"stance":"support","strength":0.5,"reason":"Same."}' };
    const ws = await anthropicWs();
    const first = await createLlm(ws, { env: ENV, maxRetries: 0 });
    const a = await first.judge!.judge(opinion, fact);
    expect(await first.judge!.judge(opinion, fact)).toEqual(a);
    await first.close!();
    const second = await createLlm(ws, { env: ENV, maxRetries: 0 });
    expect(await second.judge!.judge(opinion, fact)).toEqual(a);
    expect(await second.judge!.judge({ ...opinion, confidence: 0.3 }, fact)).toEqual(a);
    await second.close!();
    expect(server.requests).toHaveLength(1);
    // Another question, or the cache turned off, does call.
    const other = await createLlm(ws, { env: ENV, maxRetries: 0 });
    await other.judge!.judge({ ...opinion, statement: "ledger-sync ships in April" }, fact);
    await other.close!();
    const uncached = await createLlm(ws, { env: ENV, maxRetries: 0, cache: false });
    await uncached.judge!.judge(opinion, fact);
    expect(server.requests).toHaveLength(3);
  });

  it("provider none offers no LLM abilities and contacts nothing", async () => {
    const llm = await createLlm(await workspace({ provider: "none" }));
    expect(llm.provider).toBe("none");
    expect(llm.judge).toBeUndefined();
    expect(llm.extractFacts).toBeUndefined();
    expect(llm.summarizeEntity).toBeUndefined();
    const forced = await createLlm(await anthropicWs(), { provider: "none" });
    expect(forced.provider).toBe("none");
  });
});
