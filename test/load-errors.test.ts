// Errors that do happen under load (issue 17, item 4): a full disk and a killed writer
// reach the caller as one line and a non-zero exit or an MCP tool error, never a stack
// trace; after a killed build the next call takes over. The BUILT CLI, real processes.
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";
import { hasPrlimit } from "./support/prlimit.js";

const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;
const dirs: string[] = [];

afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "membank-loaderr-"));
  dirs.push(root);
  await cp(path.join(repoRoot, "bank.example"), root, { recursive: true });
  return root;
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A month of busy notes: far more index than a tight file size limit leaves room for. */
async function aMonthOfNotes(root: string): Promise<void> {
  for (let d = 1; d <= 28; d++) {
    const lines = Array.from(
      { length: 40 },
      (_, i) =>
        `- ${d}/${i}: went over invoice batch ${d * 100 + i} with Priya; the export was ${i % 3 ? "fine" : "slow"}`,
    );
    await writeFile(
      path.join(root, `memory/2026-04-${String(d).padStart(2, "0")}.md`),
      `# Apr ${d}\n\n${lines.join("\n")}\n`,
    );
  }
}

describe("errors under load", () => {
  it.skipIf(!hasPrlimit())(
    "a full disk under the MCP server: a one-line tool error, and the server keeps serving",
    async () => {
      const root = await workspace();
      expect((await run(["index", "-w", root, "--provider", "none"])).code).toBe(0);
      const limit = (await stat(path.join(root, ".memory/index.sqlite"))).size + 4096;
      const transport = new StdioClientTransport({
        command: "prlimit",
        args: [`--fsize=${limit}`, process.execPath, cli, "mcp", "--workspace", root, "--provider", "none"],
        stderr: "pipe",
      });
      let serverErr = "";
      transport.stderr?.on("data", (d) => {
        serverErr += d;
      });
      const client = new Client({ name: "membank-test", version: "0.0.0" });
      await client.connect(transport);
      try {
        await aMonthOfNotes(root);
        const calls = await Promise.all(
          ["invoice batch 1203", "Tell me about Priya", "export slow"].map(
            (query) =>
              client.callTool({ name: "memory_recall", arguments: { query } }) as Promise<{
                content: { text: string }[];
                isError?: boolean;
              }>,
          ),
        );
        for (const r of calls) {
          expect(r.isError).toBe(true);
          const text = r.content[0]!.text;
          expect(text).not.toContain("\n");
          expect(text).toMatch(/size limit|no space|disk/);
          expect(text).not.toMatch(/unexpected error|\bat /);
        }
        // Still serving: a tool that needs no write answers.
        const got = (await client.callTool({
          name: "memory_get",
          arguments: { path: "memory/2026-03-12.md", from: 1, lines: 3 },
        })) as { isError?: boolean };
        expect(got.isError ?? false).toBe(false);
      } finally {
        await client.close();
      }
      expect(serverErr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );

  it("a writer killed mid-build: readers answer meanwhile, the next call takes the build over", async () => {
    const root = await workspace();
    await aMonthOfNotes(root);
    expect((await run(["index", "-w", root, "--provider", "none"])).code).toBe(0);
    const lock = path.join(root, ".memory/index.sqlite.build-lock");
    const writer = spawn(process.execPath, [cli, "index", "-w", root, "--provider", "none", "--full"], {
      stdio: "ignore",
    });
    // Kill it once it holds the build lock (mid-build), as `kill -9` or an OOM would.
    const deadline = Date.now() + 30_000;
    while (!existsSync(lock) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const killed = existsSync(lock);
    writer.kill("SIGKILL");
    await new Promise((r) => writer.once("close", r));
    expect(killed).toBe(true);
    expect(readFileSync(lock, "utf8")).toBe(String(writer.pid));

    const reader = await run(["recall", "-w", root, "--provider", "none", "--json", "invoice batch 1203"]);
    expect(reader.code, reader.stderr).toBe(0);
    expect(JSON.parse(reader.stdout).results[0].source).toMatch(/^memory\/2026-04-12\.md#L/);
    const next = await run(["index", "-w", root, "--provider", "none", "--full", "--json"]);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).rebuilt).toBe(true);
    expect(existsSync(lock)).toBe(false);
  }, 90_000);
});
