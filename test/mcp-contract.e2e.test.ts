// What an MCP client (OpenClaw 2026.9's `openclaw mcp doctor`, a model behind Tool Search)
// sees of `membank mcp`: annotations, schemas, instructions, compact answers, clean entity
// pages and progress. The real MCP SDK client over stdio, spawning the BUILT CLI.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

const dirs: string[] = [];
const clients: Client[] = [];

async function start(dir: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--workspace", dir, "--provider", "none"],
    stderr: "pipe",
  });
  const client = new Client({ name: "membank-contract-test", version: "0.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function exampleCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-mcp-contract-"));
  dirs.push(dir);
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  return dir;
}

// A page as reflect leaves it, plus a person's note and the template's help text (templates/entity.md).
const MARA_PAGE = `---
aliases: [M. Okonkwo]
---
# Mara

<!-- membank:begin summary -->
@Mara: 9 facts on 7 days, first seen 2026-03-02, last seen 2026-03-15.
<!-- membank:end summary sha=a51b38948daf -->

## Facts

<!-- membank:begin facts -->
### World

- 2026-03-05 — Berlin offsite with the platform leads on Mar 20–22, 2026. ([memory/2026-03-05.md#L20](../../memory/2026-03-05.md#L20))
<!-- membank:end facts sha=da5e9b9d1287 -->

## Opinions

<!-- membank:begin opinions -->
<!-- membank:end opinions -->

## Related

<!-- membank:begin related -->
- [Ines](Ines.md) — 1 shared fact
<!-- membank:end related sha=b1770bf269b2 -->

## Notes

Your own notes go here. membank only writes between its \`membank:begin\` / \`membank:end\`
markers; to hand an edited region back to membank, delete the \`sha=...\` of its end marker.
Add \`aliases: [Jo]\` to the front matter above to file \`@Jo\` under this page.

Desk moved to the 4th floor, by the window — ask before booking her for anything before 10.
`;

let client: Client;

beforeAll(async () => {
  const dir = await exampleCopy();
  await mkdir(path.join(dir, "bank/entities"), { recursive: true });
  await writeFile(path.join(dir, "bank/entities/Mara.md"), MARA_PAGE);
  client = await start(dir);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("membank mcp, as a client sees it", () => {
  it("annotates every tool as read-only and closed-world, with a title", async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(4);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.annotations?.openWorldHint, t.name).toBe(false);
      expect(t.annotations?.destructiveHint, t.name).toBe(false);
      expect(t.annotations?.title, t.name).toMatch(/\w+ \w+/);
      expect(t.title, t.name).toBe(t.annotations?.title);
    }
  });

  it("gives input schemas without $ref, dates as YYYY-MM-DD with a pattern and format", async () => {
    const { tools } = await client.listTools();
    for (const t of tools) expect(JSON.stringify(t.inputSchema), t.name).not.toContain("$ref");
    const props = tools.find((t) => t.name === "memory_recall")!.inputSchema.properties as Record<
      string,
      { type?: string; pattern?: string; format?: string; description?: string }
    >;
    for (const key of ["since", "until", "asOf"]) {
      expect(props[key]!.type, key).toBe("string");
      expect(props[key]!.description, key).toContain("YYYY-MM-DD");
      expect(props[key]!.format, key).toBe("date");
      expect(new RegExp(props[key]!.pattern!).test("2026-03-12"), key).toBe(true);
      expect(new RegExp(props[key]!.pattern!).test("last week"), key).toBe(false);
    }
  });

  it("says in its instructions what each tool is for and when to call it", () => {
    const text = client.getInstructions() ?? "";
    for (const tool of ["memory_recall", "memory_entity", "memory_search", "memory_get"]) expect(text).toContain(tool);
    expect(text).toMatch(/FIRST/);
    expect(text).toContain("YYYY-MM-DD");
  });

  it("answers with compact JSON, one line", async () => {
    const r = (await client.callTool({
      name: "memory_recall",
      arguments: { query: "what does Mara prefer for status updates?", asOf: "2026-03-16", k: 3 },
    })) as TextResult;
    expect(r.isError ?? false).toBe(false);
    const text = r.content[0]!.text;
    expect(text).not.toContain("\n  ");
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(JSON.parse(text).results.length).toBeGreaterThan(0);
  });

  it("memory_entity gives the page's content without markers, front matter or template help, keeping the person's note", async () => {
    const r = (await client.callTool({ name: "memory_entity", arguments: { name: "mara", limit: 2 } })) as TextResult;
    expect(r.isError ?? false).toBe(false);
    const { page } = JSON.parse(r.content[0]!.text) as { page: { path: string; text: string } };
    expect(page.path).toBe("bank/entities/Mara.md");
    expect(page.text).not.toContain("membank:");
    expect(page.text).not.toContain("aliases:");
    expect(page.text).not.toContain("Your own notes go here");
    expect(page.text).not.toContain("## Opinions"); // its region is empty
    expect(page.text).toContain("# Mara");
    expect(page.text).toContain("- 2026-03-05 — Berlin offsite with the platform leads");
    expect(page.text).toContain("Desk moved to the 4th floor");
  });

  it("sends progress notifications while it indexes a cold workspace, when the client asks", async () => {
    const cold = await start(await exampleCopy());
    const seen: Progress[] = [];
    const r = (await cold.callTool({ name: "memory_search", arguments: { query: "FJD-482" } }, undefined, {
      onprogress: (p) => seen.push(p),
    })) as TextResult;
    expect(r.isError ?? false).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    const last = seen[seen.length - 1]!;
    expect(last.total).toBeGreaterThan(5);
    expect(last.progress).toBe(last.total);
    expect(last.message).toMatch(/indexing memory files/);
  });
});
