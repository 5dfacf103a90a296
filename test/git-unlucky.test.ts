// More unlucky git states a user's nightly meets, driven through the CLI in a shell with an
// editor and a pager set and no global git identity: membank commits only its own pages,
// or stops with one line saying what to do, and the next run catches up.
import { execFile, spawn } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BinRun, MEMBANK_BIN, ordinaryShellEnv, runBin } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-unlucky-"));
  // An ordinary shell, and no identity anywhere in git's config.
  env = await ordinaryShellEnv(tmp);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (
    await exec(
      "git",
      ["-c", "user.name=Dana", "-c", "user.email=dana@example.org", "-c", "core.quotepath=false", ...args],
      { cwd, env },
    )
  ).stdout;
}

type Run = BinRun;

function nightly(ws: string): Promise<Run> {
  return runBin(["run", "nightly", "--workspace", ws], env);
}

let n = 0;
/** bank.example's logs (no bank yet) in `dir` (default a fresh folder); not a repository yet. */
async function notes(dir?: string): Promise<string> {
  const ws = dir ?? path.join(tmp, `ws${n++}`);
  await mkdir(ws, { recursive: true });
  await cp(path.join(ROOT, "bank.example/memory"), path.join(ws, "memory"), { recursive: true });
  await cp(path.join(ROOT, "bank.example/MEMORY.md"), path.join(ws, "MEMORY.md"));
  await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  return ws;
}

async function committed(ws: string): Promise<string> {
  const ws0 = await notes(ws);
  await git(ws0, "init", "-q", "-b", "main");
  await git(ws0, "add", "-A");
  await git(ws0, "commit", "-qm", "my notes");
  return ws0;
}

const filesOf = async (cwd: string, rev = "HEAD") =>
  (await git(cwd, "show", "--name-only", "--format=", rev)).trim().split("\n").filter(Boolean).sort();
const author = async (cwd: string) => (await git(cwd, "log", "-1", "--format=%an <%ae>")).trim();

describe("unlucky git states", () => {
  it("a repository with no commit yet: membank's pages become the first commit, the user's staged log stays staged", async () => {
    const ws = await notes();
    await git(ws, "init", "-q", "-b", "main");
    await git(ws, "add", "memory/2026-03-02.md");
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect(await author(ws)).toBe("membank <membank@localhost>");
    const files = await filesOf(ws);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith("bank/"))).toBe(true);
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("memory/2026-03-02.md\n");
  });

  it("a workspace in a subfolder of a bigger repository: only its bank pages are committed, the user's staged code stays staged", async () => {
    const repo = path.join(tmp, `big${n++}`);
    const ws = await notes(path.join(repo, "notes", "agent memory"));
    await writeFile(path.join(repo, "app.js"), "console.log(1);\n");
    await git(repo, "init", "-q", "-b", "main");
    await git(repo, "add", "-A");
    await git(repo, "commit", "-qm", "app and notes");
    await writeFile(path.join(repo, "app.js"), "console.log(2); // wip\n");
    await git(repo, "add", "app.js");
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    const files = await filesOf(repo);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith("notes/agent memory/bank/"))).toBe(true);
    expect(await git(repo, "status", "--porcelain")).toBe("M  app.js\n");
  });

  it("a linked git worktree: commits on the worktree's branch, the main checkout is untouched", async () => {
    const main = await committed(path.join(tmp, `main${n++}`));
    const linked = path.join(tmp, `linked${n++}`);
    await git(main, "worktree", "add", "-q", "-b", "nightly", linked);
    const run = await nightly(linked);
    expect(run.code, run.stderr).toBe(0);
    expect(await author(linked)).toBe("membank <membank@localhost>");
    expect((await git(main, "log", "-1", "--format=%s")).trim()).toBe("my notes");
    expect(await git(main, "status", "--porcelain")).toBe("");
    expect(await git(linked, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("bank/ in .gitignore: pages written, nothing committed, no failure", async () => {
    const ws = await committed(path.join(tmp, `ign${n++}`));
    await writeFile(path.join(ws, ".gitignore"), "bank/\n");
    await git(ws, "add", ".gitignore");
    await git(ws, "commit", "-qm", "keep the bank out of git");
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect((await git(ws, "log", "-1", "--format=%s")).trim()).toBe("keep the bank out of git");
    expect(run.stdout).toMatch(/bank\/opinions\.md: written, not committed: git ignores it/);
  });

  it("user.useConfigOnly, commit.gpgsign with no gpg, failing pre-commit and commit-msg hooks: membank commits as itself", async () => {
    const ws = await committed(path.join(tmp, `strict${n++}`));
    const hooks = path.join(tmp, `hooks${n++}`);
    await mkdir(hooks);
    for (const h of ["pre-commit", "commit-msg", "prepare-commit-msg", "post-commit"]) {
      await writeFile(path.join(hooks, h), `#!/bin/sh\necho "${h}: no" >&2\nexit 1\n`);
      await chmod(path.join(hooks, h), 0o755);
    }
    await git(ws, "config", "user.useConfigOnly", "true");
    await git(ws, "config", "commit.gpgsign", "true");
    await git(ws, "config", "gpg.program", path.join(tmp, "no-such-gpg"));
    await git(ws, "config", "core.hooksPath", hooks);
    const run = await nightly(ws);
    expect(run.code, run.stderr).toBe(0);
    expect(await author(ws)).toBe("membank <membank@localhost>");
    expect(await git(ws, "status", "--porcelain")).toBe("");
  });

  it("a reference-transaction hook that refuses: says git refused and names the hook, commits nothing; the next run commits", async () => {
    const ws = await committed(path.join(tmp, `reftx${n++}`));
    const hooks = path.join(tmp, `hooks${n++}`);
    await mkdir(hooks);
    await writeFile(path.join(hooks, "reference-transaction"), "#!/bin/sh\necho 'branch is frozen' >&2\nexit 1\n");
    await chmod(path.join(hooks, "reference-transaction"), 0o755);
    await git(ws, "config", "core.hooksPath", hooks);
    const before = (await git(ws, "rev-parse", "HEAD")).trim();
    const run = await nightly(ws);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/git refused to move HEAD \(fatal: ref updates aborted by hook/);
    expect(run.stderr).toMatch(/reference-transaction hook/);
    expect(run.stderr).not.toMatch(/HEAD moved/);
    expect((await git(ws, "rev-parse", "HEAD")).trim()).toBe(before);
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("");
    await git(ws, "config", "--unset", "core.hooksPath");
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("a commit stopped by a stale index.lock: the commit that finally takes the pages says which facts they hold", async () => {
    const ws = await committed(path.join(tmp, `lock${n++}`));
    expect((await nightly(ws)).code).toBe(0);
    await writeFile(
      path.join(ws, "memory", "2026-03-24.md"),
      "# Tue\n\nLong call with Priya.\n\n## Retain\n- W @Priya: Moves the ledger team to Lisbon in May.\n",
    );
    await git(ws, "add", "memory/2026-03-24.md");
    await git(ws, "commit", "-qm", "log 2026-03-24");
    await writeFile(path.join(ws, ".git", "index.lock"), "");
    const stopped = await nightly(ws);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/index\.lock exists/);
    await rm(path.join(ws, ".git", "index.lock"));
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    expect(await filesOf(ws)).toContain("bank/entities/Priya.md");
    const message = await git(ws, "log", "-1", "--format=%B");
    expect(message.split("\n")[0]).toMatch(/with the changes of 1 earlier run whose commit did not go through/);
    expect(message).toContain("W @Priya: Moves the ledger team to Lisbon in May. (memory/2026-03-24.md#L6)");
    expect(message).toContain("- bank/entities/Priya.md");
    // Told once: the run after that describes only its own changes.
    await writeFile(
      path.join(ws, "memory", "2026-03-25.md"),
      "# Wed\n\n## Retain\n- W @Jonas: Back from leave on Monday.\n",
    );
    const third = await nightly(ws);
    expect(third.code, third.stderr).toBe(0);
    const last = await git(ws, "log", "-1", "--format=%B");
    expect(last).not.toMatch(/earlier run/);
    expect(last).toContain("@Jonas: Back from leave on Monday.");
  });

  it("an earlier run's message is not told again once `membank reflect` has committed its pages", async () => {
    const ws = await committed(path.join(tmp, `lock${n++}`));
    expect((await nightly(ws)).code).toBe(0);
    await writeFile(
      path.join(ws, "memory", "2026-03-24.md"),
      "# Tue\n\n## Retain\n- W @Priya: Moves the ledger team to Lisbon in May.\n",
    );
    await writeFile(path.join(ws, ".git", "index.lock"), "");
    expect((await nightly(ws)).code).toBe(1);
    await rm(path.join(ws, ".git", "index.lock"));
    const reflect = spawn(process.execPath, [CLI, "reflect", "--workspace", ws], { env, stdio: "ignore" });
    expect(await new Promise((resolve) => reflect.on("close", resolve))).toBe(0);
    expect(await filesOf(ws)).toContain("bank/entities/Priya.md");
    await writeFile(path.join(ws, "memory", "2026-03-25.md"), "# Wed\n\n## Retain\n- W @Priya: Flies out on Sunday.\n");
    const next = await nightly(ws);
    expect(next.code, next.stderr).toBe(0);
    const message = await git(ws, "log", "-1", "--format=%B");
    expect(message).toContain("@Priya: Flies out on Sunday.");
    expect(message).not.toMatch(/earlier run|Lisbon/);
  });
});
