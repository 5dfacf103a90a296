// `.memory/` is derived data: it must never show in `git status`, also in a repository that
// `membank init` did not make (no root .gitignore naming it).
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { membank } from "./reflect-support.js";

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
}

async function plainRepo(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-plain-"));
  git(dir, "init", "-q", "-b", "main");
  await mkdir(path.join(dir, "memory"));
  await writeFile(path.join(dir, "MEMORY.md"), "# Memory\n\n- Mara leads ledger-sync.\n");
  await writeFile(
    path.join(dir, "memory/2026-03-03.md"),
    "# Tue\n\nLong day.\n\n## Retain\n- W @Mara: back from Lisbon, on call until Friday\n",
  );
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "my notes");
  return dir;
}

const untracked = (dir: string) => git(dir, "status", "--porcelain", "--untracked-files=all");

describe(".memory/ in a repository not made by init", () => {
  it("never shows in git status after index, reflect and the nightly run", async () => {
    const dir = await plainRepo();
    for (const args of [["index"], ["reflect"], ["run", "nightly"]]) {
      const r = await membank(...args, "--workspace", dir);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(untracked(dir)).not.toMatch(/\.memory/);
    }
    expect(await readFile(path.join(dir, ".memory/.gitignore"), "utf8")).toMatch(/^\*$/m);
    // The root .gitignore was not touched: the user's files stay the user's.
    expect(untracked(dir)).not.toMatch(/\.gitignore/);
  });

  it("is hidden on the next command when an older run left it without a .gitignore", async () => {
    const dir = await plainRepo();
    await mkdir(path.join(dir, ".memory/runs"), { recursive: true });
    await writeFile(path.join(dir, ".memory/runs/old.json"), "{}\n");
    expect(untracked(dir)).toMatch(/\.memory\/runs\/old\.json/);
    const r = await membank("facts", "--workspace", dir);
    expect(r.code, r.stderr).toBe(0);
    expect(untracked(dir)).toBe("");
  });
});
