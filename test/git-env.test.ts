// membank run the way people wire it into git: from a hook or an alias of another repository
// (git then exports GIT_DIR, GIT_INDEX_FILE, GIT_PREFIX, ...), or next to a submodule. Real
// git, the real CLI, an ordinary shell (EDITOR, PAGER, LANG=C) and no global git identity.
import { execFile } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN, ordinaryShellEnv } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-gitenv-"));
  // An ordinary shell, and no identity anywhere in git's config.
  env = await ordinaryShellEnv(tmp, {
    // Allowed for `git submodule add` of a local folder (git 2.38+ refuses file:// by default).
    GIT_ALLOW_PROTOCOL: "file",
  });
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", ["-c", "user.name=Dana", "-c", "user.email=dana@example.org", ...args], { cwd, env }))
    .stdout;
}

let n = 0;
/** A workspace of the example logs, committed by its owner. */
async function workspace(): Promise<string> {
  const ws = path.join(tmp, `notes ${n++}`);
  await mkdir(ws, { recursive: true });
  await cp(path.join(ROOT, "bank.example/memory"), path.join(ws, "memory"), { recursive: true });
  await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  await git(ws, "init", "-q", "-b", "main");
  await git(ws, "add", "-A");
  await git(ws, "commit", "-qm", "my notes");
  return ws;
}

/** A code repository checked out as a linked worktree (git exports an absolute GIT_DIR to its hooks and aliases). */
async function codeWorktree(): Promise<{ main: string; linked: string }> {
  const main = path.join(tmp, `code${n++}`);
  await mkdir(main);
  await git(main, "init", "-q", "-b", "main");
  await writeFile(path.join(main, "app.js"), "console.log('hi');\n");
  await git(main, "add", "app.js");
  await git(main, "commit", "-qm", "app");
  const linked = path.join(tmp, `code-feature${n++}`);
  await git(main, "worktree", "add", "-q", "-b", "feature", linked);
  return { main, linked };
}

const log = async (cwd: string) => (await git(cwd, "log", "--format=%an: %s")).trim().split("\n");

describe("membank started by git", () => {
  it("from a post-commit hook of another repository's worktree: commits into the workspace's repository, not the hook's", async () => {
    const ws = await workspace();
    const code = await codeWorktree();
    const hook = path.join(code.main, ".git", "hooks", "post-commit");
    const out = path.join(tmp, `hook${n++}.out`);
    await writeFile(
      hook,
      `#!/bin/sh\n"${process.execPath}" "${CLI}" run nightly --workspace "${ws}" > "${out}" 2>&1\necho "exit $?" >> "${out}"\n`,
    );
    await chmod(hook, 0o755);
    await writeFile(path.join(code.linked, "app.js"), "console.log('feature');\n");
    await git(code.linked, "commit", "-qam", "feature work");
    const hookOut = await readFile(out, "utf8");
    expect(hookOut).toMatch(/exit 0/);
    expect(await log(code.linked)).toEqual(["Dana: feature work", "Dana: app"]);
    expect(await git(code.linked, "status", "--porcelain")).toBe("");
    const wsLog = await log(ws);
    expect(wsLog).toHaveLength(2);
    expect(wsLog[0]).toMatch(/^membank: membank nightly/);
    expect(await git(ws, "status", "--porcelain")).toBe("");
  });

  it("from a git alias run in a subfolder of another repository's worktree: the same", async () => {
    const ws = await workspace();
    const code = await codeWorktree();
    await git(
      code.linked,
      "config",
      "alias.nightly",
      `!"${process.execPath}" "${CLI}" run nightly --workspace "${ws}"`,
    );
    await mkdir(path.join(code.linked, "src"));
    const run = await git(path.join(code.linked, "src"), "nightly");
    expect(run).toMatch(/commit: [0-9a-f]{12}/);
    expect(await log(code.linked)).toEqual(["Dana: app"]);
    expect(await git(code.linked, "status", "--porcelain")).toBe("");
    expect((await log(ws))[0]).toMatch(/^membank: membank nightly/);
  });

  it("GIT_DIR exported by the user's shell for a dotfiles-style repository (git dir elsewhere, no .git in the workspace): says it does not follow it, commits into neither", async () => {
    const ws = path.join(tmp, `dotfiles-ws${n++}`);
    await mkdir(ws, { recursive: true });
    await cp(path.join(ROOT, "bank.example/memory"), path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
    const bare = path.join(tmp, `dotfiles${n++}.git`);
    await git(tmp, "init", "-q", "--bare", "-b", "main", bare);
    const shell = { ...env, GIT_DIR: bare, GIT_WORK_TREE: ws };
    await exec("git", ["-c", "user.name=Dana", "-c", "user.email=d@e", "add", "memory"], { cwd: ws, env: shell });
    await exec("git", ["-c", "user.name=Dana", "-c", "user.email=d@e", "commit", "-qm", "notes"], {
      cwd: ws,
      env: shell,
    });
    const run = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell });
    expect(run.stdout).toContain(
      `commit: none (${ws} is not a git repository (GIT_DIR=${bare} is set in this shell; membank does not follow it`,
    );
    expect(run.stdout).not.toMatch(/nothing changed/);
    expect(await log(bare)).toEqual(["Dana: notes"]);
    // The pages are written all the same.
    expect((await readFile(path.join(ws, "bank/opinions.md"), "utf8")).length).toBeGreaterThan(0);
  });
});

describe("a repository's own settings", () => {
  it("i18n.commitEncoding=ISO-8859-1: membank's UTF-8 message is labelled UTF-8, so a clone reads @Zoë as written", async () => {
    const ws = await workspace();
    await git(ws, "config", "i18n.commitEncoding", "ISO-8859-1");
    await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env });
    const raw = await git(ws, "cat-file", "-p", "HEAD");
    expect(raw).not.toMatch(/^encoding /m);
    const shown = await git(ws, "-c", "i18n.logOutputEncoding=UTF-8", "log", "-1", "--format=%B");
    expect(shown).toContain("@Zoë");
  });
});

describe("a workspace that the user pushes to a remote", () => {
  it("membank commits locally and never pushes or fetches: the remote and the tracking branch stay where the user left them", async () => {
    const remote = path.join(tmp, `remote${n++}.git`);
    await exec("git", ["init", "-q", "--bare", "-b", "main", remote], { env });
    const ws = await workspace();
    await git(ws, "remote", "add", "origin", remote);
    await git(ws, "push", "-q", "-u", "origin", "main");
    await git(ws, "config", "push.autoSetupRemote", "true");
    const hook = path.join(ws, ".git", "hooks", "pre-push");
    const pushed = path.join(tmp, `pushed${n++}`);
    await writeFile(hook, `#!/bin/sh\ntouch "${pushed}"\nexit 1\n`);
    await chmod(hook, 0o755);
    const remoteHead = (await exec("git", ["rev-parse", "main"], { cwd: remote, env })).stdout;
    await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env });
    expect((await log(ws))[0]).toMatch(/^membank: membank nightly/);
    expect((await exec("git", ["rev-parse", "main"], { cwd: remote, env })).stdout).toBe(remoteHead);
    expect(await git(ws, "rev-parse", "origin/main")).toBe(remoteHead);
    await expect(readFile(pushed)).rejects.toThrow();
    expect(await git(ws, "status", "-sb")).toMatch(/^## main\.\.\.origin\/main \[ahead 1\]/);
  });
});

describe("a repository git does not trust", () => {
  it("owned by another user (safe.directory): stops before writing anything and says how to trust it", async () => {
    const ws = await workspace();
    // git's own switch for "this repository belongs to someone else" (what a shared or restored folder looks like).
    const run = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], {
      env: { ...env, GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/dubious ownership/);
    expect(run.stderr).toContain(`git config --global --add safe.directory '${ws}'`);
    await expect(readFile(path.join(ws, "bank", "opinions.md"))).rejects.toThrow();
  });
});

describe("a submodule in the workspace", () => {
  it("bank/ kept as a submodule: the run does not fail, the pages are written and said to be left for that repository", async () => {
    const bankRepo = path.join(tmp, `bank-repo${n++}`);
    await mkdir(bankRepo);
    await git(bankRepo, "init", "-q", "-b", "main");
    await writeFile(path.join(bankRepo, "README.md"), "# Our bank\n");
    await git(bankRepo, "add", "-A");
    await git(bankRepo, "commit", "-qm", "start the bank");
    const ws = await workspace();
    await git(ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", bankRepo, "bank");
    await git(ws, "commit", "-qm", "bank lives in its own repository");
    const before = await log(ws);
    const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env });
    expect(stdout).toMatch(
      /bank\/opinions\.md: written, not committed: it is inside bank\/, a git repository of its own/,
    );
    expect(stdout).toMatch(/^index: /m);
    expect(await log(ws)).toEqual(before);
    expect(await readFile(path.join(ws, "bank", "opinions.md"), "utf8")).toMatch(/membank:begin/);
    // Nothing of membank's was staged in either repository.
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("");
    expect(await git(path.join(ws, "bank"), "diff", "--cached", "--name-only")).toBe("");
  });

  it("bank/ a repository of its own, not registered as a submodule: nothing of it goes into the workspace's repository", async () => {
    const ws = await workspace();
    const bank = path.join(ws, "bank");
    await mkdir(bank);
    await git(bank, "init", "-q", "-b", "main");
    await writeFile(path.join(bank, "README.md"), "Curated by hand and by membank; pushed to the family server.\n");
    await git(bank, "add", "-A");
    await git(bank, "commit", "-qm", "start");
    const before = await log(ws);
    const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env });
    expect(stdout).toMatch(
      /bank\/opinions\.md: written, not committed: it is inside bank\/, a git repository of its own/,
    );
    expect(await log(ws)).toEqual(before);
    expect(await git(ws, "ls-files", "--", "bank")).toBe("");
    expect(await git(bank, "diff", "--cached", "--name-only")).toBe("");
  });
});
