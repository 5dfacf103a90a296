// Runs the BUILT CLI (`pnpm test` builds first) on a temp workspace.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatFactsTable } from "./facts.js";

const run = promisify(execFile);
const cli = path.resolve(import.meta.dirname, "../../../dist/src/cli/main.js");
let ws: string;

async function membank(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  ws = await mkdtemp(path.join(tmpdir(), "membank-facts-cli-"));
  await mkdir(path.join(ws, "memory"));
  await writeFile(path.join(ws, "memory/2025-11-27.md"), "## Retain\n- O(c=0.9) @Peter: Likes tea\n- W: plain\n");
  await writeFile(path.join(ws, "memory/2025-11-28.md"), "## Retain\n- W @Andy: Flies home (Nov 28–30, 2025)\n");
});
afterAll(async () => {
  await rm(ws, { recursive: true, force: true });
});

describe("membank facts", () => {
  it("prints JSON with only the fields a fact has", async () => {
    const r = await membank("facts", "--workspace", ws, "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { facts: Record<string, unknown>[]; diagnostics: unknown[] };
    expect(out.diagnostics).toEqual([]);
    expect(out.facts.map((f) => Object.keys(f))).toEqual([
      ["id", "kind", "entities", "confidence", "content", "date", "source"],
      ["id", "kind", "entities", "content", "date", "source"],
      ["id", "kind", "entities", "content", "date", "validFrom", "validTo", "source"],
    ]);
    expect(r.stdout).not.toContain("null");
  });

  it("filters with --since (a date or an age) and rejects a bad value clearly", async () => {
    const r = await membank("facts", "--workspace", ws, "--json", "--since", "2025-11-28");
    expect((JSON.parse(r.stdout) as { facts: unknown[] }).facts).toHaveLength(1);
    const recent = await membank("facts", "--workspace", ws, "--json", "--since", "7d");
    expect((JSON.parse(recent.stdout) as { facts: unknown[] }).facts).toHaveLength(0); // the logs are from 2025
    const bad = await membank("facts", "--workspace", ws, "--since", "last Tuesday");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be a date YYYY-MM-DD or an age like 7d or 2w, got "last Tuesday"/);
  });

  it("formats an aligned table, truncating long content", () => {
    const table = formatFactsTable(
      [
        {
          id: "a",
          kind: "opinion",
          entities: ["Peter"],
          confidence: 0.9,
          content: "x".repeat(100),
          date: "2025-11-27",
          source: { path: "memory/2025-11-27.md", line: 2 },
        },
        {
          id: "b",
          kind: "world",
          entities: [],
          content: "short",
          date: "2025-11-27",
          source: { path: "m.md", line: 3 },
        },
      ],
      20,
    );
    expect(table.split("\n")).toEqual([
      "DATE        K  C     ENTITIES  CONTENT               SOURCE",
      `2025-11-27  O  0.90  Peter     ${"x".repeat(19)}…  memory/2025-11-27.md:2`,
      "2025-11-27  W  -     -         short                 m.md:3",
    ]);
  });
});
