/**
 * The nightly as cron and hardened shells start it, through the real bin: `umask 077`, cron's
 * bare environment (no HOME, no LANG, PATH=/usr/bin:/bin), started from another folder, on a
 * workspace path with spaces, `#` and non-ASCII letters. membank's rewrite of a page must not
 * change the page's permissions, which the user (or their sync tool, or web server) set.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BinRun, collectRun, MEMBANK_BIN, ordinaryShellEnv } from "./cli-bin.js";

let tmp: string;
let env: NodeJS.ProcessEnv;
let n = 0;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "membank-shell-"));
  env = await ordinaryShellEnv(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, encoding: "utf8" });

/** `membank run nightly` started by sh with `umask` set first, in `cwd`, with `runEnv`. */
function nightlyIn(dir: string, umask: string, runEnv: NodeJS.ProcessEnv, cwd = tmp): Promise<BinRun> {
  return collectRun(
    spawn(
      "/bin/sh",
      ["-c", `umask ${umask}; exec "$0" "$@"`, process.execPath, MEMBANK_BIN, "run", "nightly", "--workspace", dir],
      { env: runEnv, cwd, stdio: "pipe" },
    ),
  );
}

/** A choir's notes in git under an odd path, one night run with the usual umask 022. */
async function notes(): Promise<string> {
  const dir = path.join(tmp, `Chor #${n++} – Notizen`);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  writeFileSync(path.join(dir, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  writeFileSync(path.join(dir, ".gitignore"), ".memory/\n");
  writeFileSync(
    path.join(dir, "memory/2026-06-01.md"),
    "rehearsal ran late again\n\n## Retain\n- W @Bärbel: sings alto, drives the minibus to concerts\n- W @Tomasz: new accompanist from September\n",
  );
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "choir");
  const first = await nightlyIn(dir, "022", env);
  expect(first.code, first.stderr).toBe(0);
  return dir;
}

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe("the nightly from cron under umask 077", () => {
  it("rewrites pages keeping each one's permissions, new pages follow the umask, and commits", async () => {
    const dir = await notes();
    const baerbel = path.join(dir, "bank/entities/Bärbel.md");
    const tomasz = path.join(dir, "bank/entities/Tomasz.md");
    expect(modeOf(baerbel)).toBe("644");
    chmodSync(tomasz, 0o664); // a group-shared page
    writeFileSync(
      path.join(dir, "memory/2026-06-08.md"),
      "## Retain\n- W @Bärbel: can't make the June 20 concert\n- B @Tomasz: I sent him the Brahms scores\n- W @Ines: joins the sopranos\n",
    );
    // cron: no HOME, no LANG, no TERM, a short PATH with git and node's folder, another cwd.
    const cron = {
      PATH: `/usr/bin:/bin:${path.dirname(process.execPath)}`,
      GIT_CONFIG_GLOBAL: env.GIT_CONFIG_GLOBAL,
      GIT_CONFIG_NOSYSTEM: "1",
    } as NodeJS.ProcessEnv;
    const run = await nightlyIn(dir, "077", cron, "/");
    expect(run.code, run.stderr).toBe(0);
    expect(git(dir, "show", "HEAD:bank/entities/Bärbel.md")).toMatch(/June 20 concert/);
    expect(modeOf(baerbel)).toBe("644");
    expect(modeOf(tomasz)).toBe("664");
    expect(modeOf(path.join(dir, "bank/entities/Ines.md"))).toBe("600");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  });
});

describe("the nightly while the user's own git holds the index", () => {
  it("a `git commit` whose editor is still open: the nightly waits for it, then commits; both commits land, the user's with only their file", async () => {
    const dir = await notes();
    writeFileSync(path.join(dir, "memory/2026-06-09.md"), "## Retain\n- W @Tomasz: wants the tenors louder\n");
    appendFileSync(path.join(dir, "memory/2026-06-01.md"), "\nPS: the hall key is with the sacristan now.\n");
    // `git commit -a` holds index.lock while its editor is open: here two seconds.
    const user = spawn("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-a"], {
      cwd: dir,
      env: { ...env, GIT_EDITOR: "sleep 2; echo 'Choir time' >" },
      stdio: "ignore",
    });
    const userDone = new Promise<number | null>((r) => user.on("close", r));
    const lock = path.join(dir, ".git/index.lock");
    for (let i = 0; i < 100 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(lock)).toBe(true);
    const run = await nightlyIn(dir, "022", env);
    expect(await userDone).toBe(0);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(git(dir, "log", "--format=%s", "-2").trim().split("\n")).toEqual([
      expect.stringMatching(/^membank nightly/),
      "Choir time",
    ]);
    expect(git(dir, "show", "--name-only", "--format=", "HEAD~1").trim()).toBe("memory/2026-06-01.md");
    expect(git(dir, "show", "HEAD:bank/entities/Tomasz.md")).toMatch(/tenors louder/);
    expect(git(dir, "status", "--porcelain")).toBe("?? memory/2026-06-09.md\n");
  });
});

describe("a repository with the git config a power user has", () => {
  it("fsmonitor, index v4 with manyFiles, untracked files hidden, colours forced, an external diff, failing hooks, auto-gc: the nightly commits just its pages and leaves the config as it was", async () => {
    const dir = await notes();
    const hooks = path.join(dir, "..", `hooks-${path.basename(dir)}`);
    mkdirSync(hooks);
    for (const hook of ["post-commit", "post-index-change", "pre-auto-gc", "post-rewrite"]) {
      writeFileSync(path.join(hooks, hook), "#!/bin/sh\necho 'hook says no' >&2\nexit 1\n");
      chmodSync(path.join(hooks, hook), 0o755);
    }
    const config: [string, string][] = [
      ["core.fsmonitor", "true"],
      ["feature.manyFiles", "true"],
      ["index.version", "4"],
      ["status.showUntrackedFiles", "no"],
      ["color.ui", "always"],
      ["diff.external", "/bin/false"],
      ["log.showSignature", "true"],
      ["gc.auto", "1"],
      ["gc.autoDetach", "false"],
      ["commit.cleanup", "strip"],
      ["core.commentChar", "auto"],
      ["core.hooksPath", hooks],
      ["core.pager", "less -FRX"],
      ["status.short", "true"],
    ];
    for (const [k, v] of config) git(dir, "config", k, v);
    git(dir, "update-index", "--index-version", "4");
    writeFileSync(path.join(dir, "memory/2026-06-15.md"), "## Retain\n- W @Ines: new soprano, sight-reads well\n");
    const run = await nightlyIn(dir, "022", env);
    expect(run.code, run.stderr).toBe(0);
    expect(git(dir, "show", "HEAD:bank/entities/Ines.md")).toMatch(/sight-reads well/);
    expect(git(dir, "show", "--name-only", "--format=", "HEAD").split("\n").filter(Boolean).sort()).toEqual([
      "bank/entities/Ines.md",
      "bank/world.md",
    ]);
    expect(git(dir, "-c", "color.ui=never", "status", "--porcelain", "-uall")).toBe("?? memory/2026-06-15.md\n");
    for (const [k, v] of config) expect(git(dir, "config", "--get", k).trim()).toBe(v);
    // The index file's header: "DIRC", then its version.
    expect(readFileSync(path.join(dir, ".git/index")).readUInt32BE(4)).toBe(4);
  });
});
