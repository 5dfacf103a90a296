// `get` (memory_get) and the index follow one rule (memoryFileRefusal): no hidden path
// segments, no file with a second hard link (it may be a file outside the workspace).
import { execFile } from "node:child_process";
import { link, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const cli = MEMBANK_BIN;
let dir: string;
let outside: string;

async function membank(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args, "--workspace", dir], {
      env: { ...process.env, MEMBANK_WORKSPACE: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-getrules-"));
  outside = await mkdtemp(path.join(tmpdir(), "membank-private-"));
  await writeFile(path.join(dir, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  await mkdir(path.join(dir, "memory/.drafts"), { recursive: true });
  await writeFile(path.join(dir, "memory/2026-03-10.md"), "# Tue\n\nWalked to the quarry with Ana.\n");
  await writeFile(path.join(dir, "memory/.hidden.md"), "zebra notes I keep to myself\n");
  await writeFile(path.join(dir, "memory/.drafts/x.md"), "zebra draft, not ready\n");
  // ~/private/passwords.md hard-linked into memory/ (same file system, so `ln` works).
  await writeFile(
    path.join(outside, "passwords.md"),
    "# Private\n\nquokka bank pin 4711\n\n## Retain\n- W @Bank: PIN is 4711.\n",
  );
  await link(path.join(outside, "passwords.md"), path.join(dir, "memory/2026-03-11.md"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("get and the index agree", () => {
  it.each([
    ["memory/.hidden.md", /memory\/\.hidden\.md is hidden/],
    ["memory/.drafts/x.md", /memory\/\.drafts\/x\.md is hidden/],
    ["memory/2026-03-11.md", /memory\/2026-03-11\.md has 2 hard links, and one may be outside the workspace/],
  ])("get refuses %s", async (rel, message) => {
    const res = await membank("get", rel);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).not.toMatch(/zebra|quokka/);
  });

  it("get still reads an ordinary log", async () => {
    const res = await membank("get", "memory/2026-03-10.md");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Walked to the quarry with Ana.");
  });

  it("the index skips the same files, and says why for the hard link", async () => {
    const res = await membank("index");
    expect(res.code).toBe(0);
    expect(`${res.stdout}${res.stderr}`).toContain(
      "memory/2026-03-11.md: not indexed: has 2 hard links, and one may be outside the workspace",
    );
    for (const word of ["zebra", "quokka"]) {
      const found = await membank("search", word, "--json");
      expect(found.code).toBe(0);
      expect(found.stdout).not.toContain(word);
    }
    const facts = await membank("facts", "--json");
    expect(facts.stdout).not.toContain("4711");
  });
});
