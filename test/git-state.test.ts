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

  it("a cherry-pick of several commits stopped at a conflict that was committed by hand: busy, as git status says", async () => {
    const { dir, git } = await repo("series");
    await writeFile(path.join(dir, "notes.md"), "one\n");
    await git("add", "notes.md");
    await git("commit", "-qm", "one");
    await git("switch", "-q", "-c", "side");
    for (const line of ["two", "three"]) {
      await writeFile(path.join(dir, "notes.md"), `one\n${line}\n`);
      await git("commit", "-qam", line);
    }
    await git("switch", "-q", "trunk");
    await writeFile(path.join(dir, "notes.md"), "one\nuno\n");
    await git("commit", "-qam", "uno");
    await git("cherry-pick", "side~1", "side").catch(() => undefined); // stops at the conflict
    await writeFile(path.join(dir, "notes.md"), "one\nuno\ntwo\n");
    await git("add", "notes.md");
    await git("commit", "-qm", "two, by hand");
    expect(await git("status")).toMatch(/cherry-pick/i);
    expect(await stateOf(dir)).toMatchObject({
      kind: "busy",
      what: "a cherry-pick or revert of several commits is in progress",
    });
  });
});
