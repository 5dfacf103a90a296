// The MCP server end to end: the real MCP SDK client over stdio, spawning the BUILT CLI
// (`membank mcp`) on a copy of bank.example.
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;

let dir: string;
let client: Client;

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

async function call(name: string, args: Record<string, unknown>): Promise<TextResult> {
  try {
    return (await client.callTool({ name, arguments: args })) as TextResult;
  } catch (error) {
    // Some SDK versions report invalid arguments as a protocol error instead of a tool error.
    return { content: [{ type: "text", text: (error as Error).message }], isError: true };
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tool answers are JSON checked field by field below
function json(r: TextResult): any {
  expect(r.isError ?? false).toBe(false);
  return JSON.parse(r.content[0]!.text);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-mcp-"));
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--workspace", dir, "--provider", "none"],
    stderr: "pipe",
  });
  client = new Client({ name: "membank-test", version: "0.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("membank mcp", () => {
  it("lists the four tools with descriptions and input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["memory_entity", "memory_get", "memory_recall", "memory_search"]);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe("object");
    }
    const recallTool = tools.find((t) => t.name === "memory_recall")!;
    expect(recallTool.inputSchema.required).toEqual(["query"]);
  });

  it("memory_recall answers with cited results", async () => {
    const r = json(
      await call("memory_recall", { query: "what does Mara prefer for status updates?", asOf: "2026-03-16", k: 3 }),
    );
    expect(r.intent.entities).toEqual(["Mara"]);
    expect(r.results[0].kind).toBe("opinion");
    expect(r.results[0].source).toMatch(/^memory\/2026-03-\d\d\.md#L\d+-L\d+$/);
  });

  it("memory_search keeps the OpenClaw contract", async () => {
    const r = json(await call("memory_search", { query: "FJD-482", maxResults: 3 }));
    expect(r.provider).toBe("none");
    expect(r.results.length).toBeGreaterThan(0);
    expect(Object.keys(r.results[0]).sort()).toEqual(["endLine", "path", "score", "snippet", "source", "startLine"]);
  });

  it("memory_get reads lines and refuses paths outside the memory files", async () => {
    const r = json(await call("memory_get", { path: "memory/2026-03-09.md", from: 1, lines: 2 }));
    expect(r).toEqual({ path: "memory/2026-03-09.md", text: "# 2026-03-09 (Monday)\n" });
    const bad = await call("memory_get", { path: "../etc/passwd" });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text.length).toBeGreaterThan(10);
  });

  it("memory_entity returns an entity's facts by alias, and a clear error for an unknown one", async () => {
    const r = json(await call("memory_entity", { name: "ledger sync", limit: 5 }));
    expect(r.entity).toBe("ledger-sync");
    expect(r.facts.length).toBe(5);
    expect(r.facts[0].timestamp >= r.facts[4].timestamp).toBe(true);
    const bad = await call("memory_entity", { name: "Nobody-Here" });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/no entity named "Nobody-Here"/);
  });

  it("survives bad arguments and keeps answering", async () => {
    const wrongType = await call("memory_recall", { query: 42 });
    expect(wrongType.isError).toBe(true);
    const badDate = await call("memory_recall", { query: "x", since: "last week" });
    expect(badDate.isError).toBe(true);
    const missing = await call("memory_search", {});
    expect(missing.isError).toBe(true);
    const r = json(await call("memory_recall", { query: "a91f3c2", k: 1 }));
    expect(r.results[0].source).toMatch(/^memory\/2026-03-09\.md/);
  });

  it("keeps the index fresh: a line written now is found on the next call", async () => {
    await appendFile(path.join(dir, "memory/2026-03-15.md"), "\n- Mara booked room Orca-77 for the offsite.\n");
    const r = json(await call("memory_recall", { query: "Orca-77", k: 1 }));
    expect(r.results[0].content).toContain("Orca-77");
  });
});
