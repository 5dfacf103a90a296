import { type ChildProcess, execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Workspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";
import { makeWorkspace } from "./index-support.js";

// End to end through the built CLI (`pnpm build` first; `pnpm test` does it).
const cli = MEMBANK_BIN;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, MEMBANK_WORKSPACE: "" } },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

let w: Workspace;
beforeAll(async () => {
  w = await makeWorkspace({
    "MEMORY.md": "# Core\n\nThe home server is atlas.\n",
    "memory/2026-03-10.md":
      "# 2026-03-10\n\n- Ticket FJD-482 tracks the flaky checkout.\n\n## Retain\n\n- W @Wei: 数据库迁移已经完成。\n",
  });
});
afterAll(() => rmSync(w.root, { recursive: true, force: true }));

describe("membank index / search / get / doctor / watch", () => {
  it("index --json reports the sync; a second run changes nothing", async () => {
    const a = await run(["index", "-w", w.root, "--provider", "none", "--json"]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ rebuilt: true, scanned: 2, changed: 2, facts: 1, provider: "none" });
    const b = await run(["index", "-w", w.root, "--provider", "none"]);
    expect(b.stdout).toMatch(/2 scanned, 0 changed, 0 removed/);
  });

  it("search --json keeps the memory_search contract", async () => {
    const r = await run(["search", "-w", w.root, "--provider", "none", "--json", "FJD-482"]);
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res).toMatchObject({ provider: "none" });
    expect(res.results[0]).toMatchObject({ path: "memory/2026-03-10.md", startLine: 1, endLine: 7, source: "memory" });
    const cjk = JSON.parse((await run(["search", "-w", w.root, "--provider", "none", "--json", "数据库"])).stdout);
    expect(cjk.results[0].path).toBe("memory/2026-03-10.md");
    const human = await run(["search", "-w", w.root, "--provider", "none", "home", "server"]);
    expect(human.stdout).toMatch(/^MEMORY\.md:1-3 {2}score 1\.000/);
    const bad = await run(["search", "-w", w.root, "--max-results", "0", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-results must be an integer >= 1/);
  });

  it("get prints lines and refuses paths outside the memory files with exit 2", async () => {
    const ok = await run(["get", "-w", w.root, "memory/2026-03-10.md", "--from", "3", "--lines", "1", "--json"]);
    expect(JSON.parse(ok.stdout)).toEqual({
      path: "memory/2026-03-10.md",
      text: "- Ticket FJD-482 tracks the flaky checkout.",
    });
    const bad = await run(["get", "-w", w.root, "../etc/passwd.md"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/leaves the workspace/);
  });

  it("doctor --json reports SQLite, FTS5, sqlite-vec, the provider and index freshness", async () => {
    const a = JSON.parse((await run(["doctor", "-w", w.root, "--json"])).stdout);
    expect(a.sqlite.fts5).toBe(true);
    expect(a.sqliteVec.loaded).toBe(true);
    expect(a.index).toMatchObject({ present: true, fresh: true, stale: 0 });
    expect(typeof a.embedding.provider).toBe("string");
    expect(a.git.present).toBe(true);
    await writeFile(path.join(w.root, "memory/2026-03-11.md"), "# new\n");
    const b = JSON.parse((await run(["doctor", "-w", w.root, "--json"])).stdout);
    expect(b.index).toMatchObject({ fresh: false, stale: 1 });
  });

  it("watch syncs and stops on SIGINT with exit 0", async () => {
    const child: ChildProcess = spawn(process.execPath, [cli, "watch", "-w", w.root, "--provider", "none"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout!.on("data", (d) => {
      stdout += String(d);
    });
    child.stderr!.on("data", (d) => {
      stderr += String(d);
    });
    const deadline = Date.now() + 20_000;
    while (!stderr.includes("watching") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(stderr).toMatch(/watching/);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", (c) => resolve(c));
      child.kill("SIGINT");
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/stopped/);
    expect(stdout).toMatch(/start: 1 changed/);
  });
});
