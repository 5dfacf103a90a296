import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireWorkspaceLock } from "../src/workspace/lock.js";
import { EVOLVING, git, membank, workspaceFrom } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("membank reflect", () => {
  it("dry-runs, writes, commits, and then has nothing to do", async () => {
    const { dir } = await workspaceFrom(EVOLVING);
    dirs.push(dir);

    const dry = await membank("reflect", "--workspace", dir, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("+++ b/bank/opinions.md");
    expect(dry.stdout).toMatch(/pages? would change/);
    expect(dry.stderr).toContain("memory/2026-01-10.md:6:");
    expect(existsSync(path.join(dir, "bank"))).toBe(false);

    const noCommit = await membank("reflect", "--workspace", dir, "--no-commit", "--json");
    expect(noCommit.code).toBe(0);
    const report = JSON.parse(noCommit.stdout);
    expect(report.commitsOff).toBe("--no-commit");
    expect(report.pagesWritten).toContain("bank/opinions.md");
    expect(report.diagnostics).toHaveLength(2);
    expect(git(dir, "log", "--format=%s")).not.toContain("reflect:");

    // Files are written but not committed: the next run sees nothing new to write, so no commit either.
    const human = await membank("reflect", "--workspace", dir);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("nothing changed, no commit");
  });

  it("commits with a readable summary, and --json reports the hash", async () => {
    const { dir } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    const res = await membank("reflect", "--workspace", dir, "--json", "--all");
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.commit).toBe(git(dir, "rev-parse", "HEAD").trim());
    expect(report.mode).toBe("full");
    expect(report.opinionsCreated.map((o: { entities: string[] }) => o.entities[0]).sort()).toEqual([
      "Ana",
      "Ben",
      "Cy",
    ]);

    const since = await membank("reflect", "--workspace", dir, "--since", "2026-01-10");
    expect(since.code).toBe(0);
    expect(since.stdout).toContain("(logs since 2026-01-10)");
  });

  it("rejects bad flags with a clear message and exit code 2", async () => {
    const { dir } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    const both = await membank("reflect", "--workspace", dir, "--since", "7d", "--all");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--since and --all exclude each other");
    const bad = await membank("reflect", "--workspace", dir, "--since", "last spring");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be a date YYYY-MM-DD or an age like 7d/);
    expect(existsSync(path.join(dir, "bank"))).toBe(false);
  });

  it("waits for nobody: exits 4 while another run holds the workspace lock", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    const lock = await acquireWorkspaceLock(ws, { purpose: "test holds it" });
    try {
      const res = await membank("reflect", "--workspace", dir);
      expect(res.code).toBe(4);
      expect(res.stderr).toContain("test holds it");
      expect(existsSync(path.join(dir, "bank"))).toBe(false);
    } finally {
      await lock.release();
    }
  });
});
