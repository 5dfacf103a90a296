// Repository shapes and settings a user's nightly meets that the other git tests do not:
// a .git file whose folder has gone, filters on bank pages (git-crypt's kind), index flags.
// Driven through the CLI in an ordinary shell with no git identity.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BinRun, ordinaryShellEnv, runBin } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-shapes-"));
  env = await ordinaryShellEnv(tmp);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", ["-c", "user.name=Ola", "-c", "user.email=ola@example.net", ...args], { cwd, env })).stdout;
}

const nightly = (ws: string): Promise<BinRun> => runBin(["run", "nightly", "--workspace", ws], env);

let n = 0;
/** bank.example's logs (no bank yet), committed by the user on main. */
async function committed(): Promise<string> {
  const ws = path.join(tmp, `ws${n++}`);
  await mkdir(ws, { recursive: true });
  await cp(path.join(ROOT, "bank.example/memory"), path.join(ws, "memory"), { recursive: true });
  await cp(path.join(ROOT, "bank.example/MEMORY.md"), path.join(ws, "MEMORY.md"));
  await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  await git(ws, "init", "-q", "-b", "main");
  await git(ws, "add", "-A");
  await git(ws, "commit", "-qm", "notes so far");
  return ws;
}

const subject = async (ws: string) => (await git(ws, "log", "-1", "--format=%s")).trim();

describe("repository shapes", () => {
  it("a .git file pointing to a folder that was moved away: one line saying so, nothing written; after the repair the run commits", async () => {
    const ws = await committed();
    // A linked worktree (or a submodule) whose repository was moved: its .git file points nowhere.
    const away = path.join(tmp, `away${n++}`);
    await cp(path.join(ws, ".git"), away, { recursive: true });
    await rm(path.join(ws, ".git"), { recursive: true });
    await writeFile(path.join(ws, ".git"), `gitdir: ${path.join(tmp, "old-place", ".git")}\n`);
    const run = await nightly(ws);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(path.join(tmp, "old-place", ".git"));
    expect(run.stderr).toMatch(/\.git file .*(moved|gone)/);
    await expect(readFile(path.join(ws, "bank", "opinions.md"))).rejects.toThrow();
    await writeFile(path.join(ws, ".git"), `gitdir: ${away}\n`);
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });
});
