// Repository shapes and settings a user's nightly meets that the other git tests do not:
// a .git file whose folder has gone, filters on bank pages (git-crypt's kind), index flags.
// Driven through the CLI in an ordinary shell with no git identity.
import { execFile } from "node:child_process";
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
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
    // doctor says the same, not "git not found".
    const doctor = await runBin(["doctor", "--workspace", ws], env);
    expect(doctor.stdout).toMatch(/^-- git .*moved or deleted/m);
    await writeFile(path.join(ws, ".git"), `gitdir: ${away}\n`);
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("core.worktree naming another folder (a copied config, a script's setting): one line naming it and the fix, nothing written; after the fix the run commits", async () => {
    const ws = await committed();
    const elsewhere = path.join(tmp, `elsewhere${n++}`);
    await mkdir(elsewhere);
    await git(ws, "config", "core.worktree", elsewhere);
    const run = await nightly(ws);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${ws} is not in the work tree of its repository`);
    expect(run.stderr).toContain(`at ${elsewhere} (core.worktree)`);
    expect(run.stderr).toContain("git config --unset core.worktree");
    await expect(readFile(path.join(ws, "bank", "opinions.md"))).rejects.toThrow();
    expect(await readdir(elsewhere)).toEqual([]);
    await git(ws, "config", "--unset", "core.worktree");
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
  });

  it("bank pages under a clean/smudge filter (git-crypt's kind): each night commits membank's changes, and a page the user edited is still left", async () => {
    const ws = await committed();
    // rot13 both ways: the blobs differ from the files, as with an encrypting filter.
    const rot13 = "tr A-Za-z N-ZA-Mn-za-m";
    await git(ws, "config", "filter.scramble.clean", rot13);
    await git(ws, "config", "filter.scramble.smudge", rot13);
    await git(ws, "config", "filter.scramble.required", "true");
    await writeFile(path.join(ws, ".gitattributes"), "bank/** filter=scramble\n");
    await git(ws, "add", ".gitattributes");
    await git(ws, "commit", "-qm", "keep the bank scrambled in git");
    const first = await nightly(ws);
    expect(first.code, first.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
    expect(await git(ws, "show", "HEAD:bank/world.md")).not.toContain("Priya");
    // A new day, and a note of the user's own at the end of one page (outside membank's regions).
    await writeFile(
      path.join(ws, "memory", "2026-03-27.md"),
      "# Fri 27 March\n\nLunch w/ Priya, she is off to Porto.\n\n## Retain\n- W @Priya: Relocates to Porto over the summer.\n- W @Mara: Runs the Thursday review from now on.\n",
    );
    const mara = path.join(ws, "bank", "entities", "Mara.md");
    await writeFile(mara, `${await readFile(mara, "utf8")}\nmy own note: ask Mara about the offsite\n`);
    const second = await nightly(ws);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toMatch(/Priya\.md: written, not committed/);
    expect(second.stdout).toMatch(/Mara\.md: written, not committed: it holds changes of yours/);
    const files = (await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n");
    expect(files).toContain("bank/entities/Priya.md");
    expect(files).not.toContain("bank/entities/Mara.md");
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe(" M bank/entities/Mara.md\n");
    expect(await readFile(mara, "utf8")).toContain("my own note: ask Mara about the offsite");
  });

  it("pages marked skip-worktree or assume-unchanged are written, left out of the commit, and keep their marks", async () => {
    const ws = await committed();
    expect((await nightly(ws)).code).toBe(0);
    await git(ws, "update-index", "--skip-worktree", "bank/opinions.md");
    await git(ws, "update-index", "--assume-unchanged", "bank/entities/Priya.md");
    await writeFile(
      path.join(ws, "memory", "2026-03-28.md"),
      "# Sat\n\nquiet day\n\n## Retain\n- W @Priya: Took the Lisbon job after all.\n- O(c=0.8) @Priya: Thinks the batch size of 2000 is fine now.\n- W @Jonas: Ships ledger-sync on the 30th.\n",
    );
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/bank\/opinions\.md: written, not committed: .*skip-worktree/);
    expect(run.stdout).toMatch(/bank\/entities\/Priya\.md: written, not committed: .*assume-unchanged/);
    const files = (await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n");
    expect(files).toContain("bank/entities/Jonas.md");
    expect(files).not.toContain("bank/opinions.md");
    expect(files).not.toContain("bank/entities/Priya.md");
    expect(await readFile(path.join(ws, "bank", "entities", "Priya.md"), "utf8")).toContain("Took the Lisbon job");
    const marks = (await git(ws, "ls-files", "-v", "--", "bank/opinions.md", "bank/entities/Priya.md")).trim();
    expect(marks.split("\n").sort()).toEqual(["S bank/opinions.md", "h bank/entities/Priya.md"]);
  });

  it("a branch's lock file left by a crashed git: the run names the file to remove, commits nothing; once removed the next run commits", async () => {
    const ws = await committed();
    const lock = path.join(ws, ".git", "refs", "heads", "main.lock");
    await writeFile(lock, "");
    const before = (await git(ws, "rev-parse", "HEAD")).trim();
    const run = await nightly(ws);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`remove ${lock} and run again`);
    expect((await git(ws, "rev-parse", "HEAD")).trim()).toBe(before);
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("");
    await rm(lock);
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("an entity page that is a symbolic link to the user's own file: that file gets membank's update, the run says the link is left and why", async () => {
    const ws = await committed();
    expect((await nightly(ws)).code).toBe(0);
    // The user keeps Priya's page with their people notes and links it into the bank.
    await mkdir(path.join(ws, "people"));
    await git(ws, "mv", "bank/entities/Priya.md", "people/priya.md");
    await symlink("../../people/priya.md", path.join(ws, "bank", "entities", "Priya.md"));
    await git(ws, "add", "-A");
    await git(ws, "commit", "-qm", "priya's page lives with my people notes");
    await writeFile(
      path.join(ws, "memory", "2026-03-29.md"),
      "# Sun 29th\n\n## Retain\n- W @Priya: Starts in Lisbon on 4 May.\n- W @Noor: Adopted a second cat.\n",
    );
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "bank/entities/Priya.md: written, not committed: it is a symbolic link to ../../people/priya.md",
    );
    expect(run.stdout).not.toMatch(/Priya\.md: written, not committed: it holds changes of yours/);
    expect(await readFile(path.join(ws, "people", "priya.md"), "utf8")).toContain("Starts in Lisbon on 4 May.");
    expect((await lstat(path.join(ws, "bank", "entities", "Priya.md"))).isSymbolicLink()).toBe(true);
    expect((await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n")).toContain(
      "bank/entities/Noor.md",
    );
  });

  it("bank/ under a filter whose program is not installed (git-lfs gone, its config left): one line naming the missing program, nothing committed; the next run after the fix commits", async () => {
    const ws = await committed();
    await writeFile(path.join(ws, ".gitattributes"), "bank/** filter=lfs diff=lfs merge=lfs -text\n");
    await git(ws, "add", ".gitattributes");
    await git(ws, "commit", "-qm", "track the bank with lfs");
    // What `git lfs install` leaves in the config, with a program that is not there.
    await git(ws, "config", "filter.lfs.process", "membank-test-no-such-lfs filter-process");
    await git(ws, "config", "filter.lfs.clean", "membank-test-no-such-lfs clean -- %f");
    await git(ws, "config", "filter.lfs.required", "true");
    const run = await nightly(ws);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/membank-test-no-such-lfs is not installed.*install it/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(await subject(ws)).toBe("track the bank with lfs");
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("");
    await git(ws, "config", "--remove-section", "filter.lfs");
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await subject(ws)).toMatch(/^membank nightly/);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("a split index (core.splitIndex): membank's private index leaves no shared index file behind in .git, night after night", async () => {
    const ws = await committed();
    await git(ws, "config", "core.splitIndex", "true");
    await git(ws, "update-index", "--split-index");
    const shared = async () =>
      (await readdir(path.join(ws, ".git"))).filter((f) => f.startsWith("sharedindex.")).length;
    const counts: number[] = [];
    for (const day of ["2026-04-01", "2026-04-02", "2026-04-03"]) {
      await writeFile(
        path.join(ws, "memory", `${day}.md`),
        `# ${day}\n\n## Retain\n- W @Wei: Reviewed the ${day} release notes.\n`,
      );
      const run = await nightly(ws);
      expect(run.code, run.stderr).toBe(0);
      counts.push(await shared());
    }
    expect(counts[2]).toBe(counts[0]);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("a page whose removal the user staged (git rm --cached): membank's update is written but not committed, the removal stays staged", async () => {
    const ws = await committed();
    expect((await nightly(ws)).code).toBe(0);
    await git(ws, "rm", "-q", "--cached", "bank/entities/Priya.md");
    await writeFile(
      path.join(ws, "memory", "2026-04-04.md"),
      "# 4/4\n\n## Retain\n- W @Priya: Handed the ledger team over to Jonas.\n",
    );
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("bank/entities/Priya.md: written, not committed: you have staged its removal");
    expect(await git(ws, "show", "--name-only", "--format=", "HEAD")).not.toContain("bank/entities/Priya.md");
    expect(await git(ws, "status", "--porcelain", "--", "bank/entities/Priya.md")).toBe(
      "D  bank/entities/Priya.md\n?? bank/entities/Priya.md\n",
    );
    expect(await readFile(path.join(ws, "bank", "entities", "Priya.md"), "utf8")).toContain("Handed the ledger team");
  });

  it("core.bare = true in a checkout's config: one line saying how to fix it, nothing written", async () => {
    const ws = await committed();
    await git(ws, "config", "core.bare", "true");
    const run = await nightly(ws);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("set `git config core.bare false` and run again");
    await expect(readFile(path.join(ws, "bank", "opinions.md"))).rejects.toThrow();
  });

  it("reflect --dry-run in a shell whose git config has diff.noprefix and diff.mnemonicPrefix: the diff still names a/ and b/ paths of the workspace", async () => {
    const ws = await committed();
    expect((await nightly(ws)).code).toBe(0);
    await writeFile(
      path.join(ws, "memory", "2026-04-05.md"),
      "# Easter Sunday\n\n## Retain\n- W @Priya: Back in Berlin for a week.\n- W @Tomasz: New on the ledger team.\n",
    );
    const config = path.join(tmp, `prefix${n++}.gitconfig`);
    await writeFile(config, "[diff]\n\tnoprefix = true\n\tmnemonicPrefix = true\n");
    const dry = await runBin(["reflect", "--dry-run", "--workspace", ws], { ...env, GIT_CONFIG_GLOBAL: config });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("diff --git a/bank/entities/Priya.md b/bank/entities/Priya.md");
    expect(dry.stdout).toContain("--- a/bank/entities/Priya.md\n+++ b/bank/entities/Priya.md");
    expect(dry.stdout).toContain("diff --git a/bank/entities/Tomasz.md b/bank/entities/Tomasz.md");
    expect(dry.stdout).toContain("+++ b/bank/entities/Tomasz.md");
    expect(dry.stdout).not.toMatch(/^(diff --git|---|\+\+\+) .*\b(old|new)\//m);
  });
});
