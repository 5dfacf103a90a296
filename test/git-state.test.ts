/** gitState reads HEAD in one git call in the usual case; every state must read as before. */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitState, repoInfo } from "../src/workspace/git.js";

const exec = promisify(execFile);
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-git-state-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function repo(name: string): Promise<{ dir: string; git: (...a: string[]) => Promise<string> }> {
  const dir = path.join(tmp, name);
  const git = async (...a: string[]) =>
    (await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: dir })).stdout.trim();
  await exec("git", ["init", "-q", "-b", "trunk", dir]);
  return { dir, git };
}

const stateOf = async (dir: string) => gitState((await repoInfo(dir))!);

describe("gitState", () => {
  it("a branch with commits, even with a file named HEAD at the top: normal, its commit and ref", async () => {
    const { dir, git } = await repo("normal");
    await writeFile(path.join(dir, "HEAD"), "a user's file\n");
    await git("add", "HEAD");
    await git("commit", "-qm", "one");
    expect(await stateOf(dir)).toEqual({
      kind: "normal",
      head: await git("rev-parse", "HEAD"),
      branch: "refs/heads/trunk",
    });
  });

  it("no commit yet: unborn, with its branch", async () => {
    const { dir } = await repo("unborn");
    expect(await stateOf(dir)).toEqual({ kind: "unborn", branch: "refs/heads/trunk" });
  });

  it("a detached HEAD: busy, saying so", async () => {
    const { dir, git } = await repo("detached");
    await git("commit", "-q", "--allow-empty", "-m", "one");
    await git("checkout", "-q", "--detach");
    expect(await stateOf(dir)).toMatchObject({ kind: "busy", what: "HEAD is detached (no branch is checked out)" });
  });
});
