// membank commits only its own bytes and never acts on a repository in the middle of
// something: each test is an unlucky user's real git state, driven through the CLI.
import { execFile, spawn } from "node:child_process";
import { appendFile, chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BinRun, MEMBANK_BIN, runBin } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
/** An ordinary developer's shell: an editor, a pager and an askpass helper are set. */
const USER_ENV = { ...process.env, EDITOR: "vi", VISUAL: "vi", PAGER: "less", GIT_ASKPASS: "/bin/true" };

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-own-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function git(root: string, ...args: string[]): Promise<string> {
  const r = await exec(
    "git",
    ["-c", "user.name=Dana", "-c", "user.email=dana@example.org", "-c", "core.quotepath=false", ...args],
    {
      cwd: root,
      env: USER_ENV,
    },
  );
  return r.stdout;
}

let n = 0;
/** bank.example as a user keeps it: everything committed by them. */
async function workspace(): Promise<string> {
  const root = path.join(tmp, `ws${n++}`);
  await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
  await writeFile(path.join(root, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  await writeFile(path.join(root, ".gitignore"), ".memory/\n");
  await git(root, "init", "-q", "-b", "main");
  await git(root, "add", "-A");
  await git(root, "commit", "-qm", "my notes");
  return root;
}

type Run = BinRun;

function nightly(root: string, env: NodeJS.ProcessEnv = USER_ENV): Promise<Run> {
  return runBin(["run", "nightly", "--workspace", root], env);
}

async function newLog(root: string, day: string, lines: string[]): Promise<void> {
  await writeFile(path.join(root, "memory", `${day}.md`), `# ${day}\n\nBusy day.\n\n## Retain\n${lines.join("\n")}\n`);
  await git(root, "add", "--", `memory/${day}.md`);
  // Only the log: whatever else the user has staged stays staged.
  await git(root, "commit", "-qm", `log ${day}`, "--", `memory/${day}.md`);
}

const filesOf = async (root: string, rev = "HEAD") =>
  (await git(root, "show", "--name-only", "--format=", rev)).trim().split("\n").filter(Boolean).sort();
const head = async (root: string) => (await git(root, "rev-parse", "HEAD")).trim();
const author = async (root: string) => (await git(root, "log", "-1", "--format=%an <%ae>")).trim();

describe("commits only membank's own bytes", () => {
  it("after a failed commit step, the next run commits membank's pages and not the user's draft or log edit", async () => {
    const root = await workspace();
    // Someone else's git holds the index lock: the commit step fails after reflect wrote pages.
    await writeFile(path.join(root, ".git/index.lock"), "");
    const failed = await nightly(root);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/index\.lock exists/);
    expect((await git(root, "log", "--format=%an")).trim().split("\n")).toEqual(["Dana"]);
    // Meanwhile the user writes a private draft and edits an old log, and leaves both uncommitted.
    await writeFile(path.join(root, "memory/draft-for-mara.md"), "# not ready\n\nDon't tell Mara yet.\n");
    await appendFile(path.join(root, "memory/2026-03-02.md"), "\nLater thought: call the bank.\n");
    await rm(path.join(root, ".git/index.lock"));

    const next = await nightly(root);
    expect(next.code, next.stderr).toBe(0);
    const committed = await filesOf(root);
    expect(committed.length).toBeGreaterThan(5);
    expect(committed.every((f) => f.startsWith("bank/"))).toBe(true);
    expect(await author(root)).toBe("membank <membank@localhost>");
    const status = await git(root, "status", "--porcelain");
    expect(status).toContain(" M memory/2026-03-02.md");
    expect(status).toContain("?? memory/draft-for-mara.md");
    expect(status).not.toContain("bank/");
  });

  it("the user's staged edit stays staged and uncommitted; git's index holds exactly HEAD's pages afterwards", async () => {
    const root = await workspace();
    await appendFile(path.join(root, "memory/2026-03-02.md"), "\nStaged, not committed: ask Priya about the lease.\n");
    await git(root, "add", "--", "memory/2026-03-02.md");
    await newLog(root, "2026-03-09", [
      "- W @Priya: Signed the new office lease on Mar 9.",
      "- O(c=0.7) @Priya: Likes the canal view.",
    ]);

    const run = await nightly(root);
    expect(run.code, run.stderr).toBe(0);
    const committed = await filesOf(root);
    expect(committed).toContain("bank/entities/Priya.md");
    expect(committed).not.toContain("memory/2026-03-02.md");
    // The staged edit is still the only staged change; membank's pages are in step with HEAD.
    expect((await git(root, "diff", "--cached", "--name-only")).trim()).toBe("memory/2026-03-02.md");
    expect(await git(root, "status", "--porcelain", "--", "bank")).toBe("");
    for (const page of committed) {
      const staged = (await git(root, "ls-files", "-s", "--", page)).split(/\s+/)[1];
      expect(staged, page).toBe((await git(root, "rev-parse", `HEAD:${page}`)).trim());
    }
    // Plumbing that trusts the index's stat data (scripts' "is the tree dirty?") sees the pages clean too.
    expect((await git(root, "diff-files", "--name-only")).trim()).toBe("");
  });

  it("a bank page holding the user's own text outside the markers is written but left for the user to commit", async () => {
    const root = await workspace();
    expect((await nightly(root)).code).toBe(0);
    const mara = path.join(root, "bank/entities/Mara.md");
    const priya = path.join(root, "bank/entities/Priya.md");
    const note = "\nMara is out on Fridays; don't book her then.\n";
    await appendFile(mara, note); // unstaged
    await appendFile(priya, "\nPriya mentors the new hire.\n");
    await git(root, "add", "--", "bank/entities/Priya.md"); // staged
    const staged = await git(root, "show", ":bank/entities/Priya.md");
    await newLog(root, "2026-03-20", [
      "- W @Mara: Moved the retro to Thursdays.",
      "- W @Priya: Took over the FJD-482 fix.",
      "- W @Jonas: Back from leave on the 23rd.",
    ]);
    const before = await head(root);

    const run = await nightly(root);
    expect(run.code, run.stderr).toBe(0);
    expect(await head(root)).not.toBe(before);
    const committed = await filesOf(root);
    expect(committed).toContain("bank/entities/Jonas.md");
    expect(committed).not.toContain("bank/entities/Mara.md");
    expect(committed).not.toContain("bank/entities/Priya.md");
    expect(run.stdout).toMatch(/bank\/entities\/Mara\.md: written, not committed/);
    // Both pages hold membank's new fact and the user's text; the user's staged version is untouched.
    const maraNow = await readFile(mara, "utf8");
    expect(maraNow).toContain("Moved the retro to Thursdays.");
    expect(maraNow).toContain(note.trim());
    expect(await readFile(priya, "utf8")).toContain("Took over the FJD-482 fix.");
    expect(await git(root, "show", ":bank/entities/Priya.md")).toBe(staged);
    expect(await git(root, "show", "HEAD:bank/entities/Mara.md")).not.toContain("Fridays");
  });
});

describe("a repository in the middle of something", () => {
  async function conflictedMerge(root: string): Promise<void> {
    await writeFile(path.join(root, "notes.txt"), "base\n");
    await git(root, "add", "notes.txt");
    await git(root, "commit", "-qm", "notes");
    await git(root, "checkout", "-qb", "other");
    await writeFile(path.join(root, "notes.txt"), "theirs\n");
    await git(root, "commit", "-qam", "theirs");
    await git(root, "checkout", "-q", "main");
    await writeFile(path.join(root, "notes.txt"), "ours\n");
    await git(root, "commit", "-qam", "ours");
  }

  const states: [string, (root: string) => Promise<void>, RegExp, (root: string) => Promise<void>][] = [
    [
      "mid-merge",
      async (root) => {
        await conflictedMerge(root);
        await expect(git(root, "merge", "other")).rejects.toThrow();
      },
      /a merge is in progress/,
      async (root) => {
        await git(root, "merge", "--abort");
      },
    ],
    [
      "mid-rebase",
      async (root) => {
        await conflictedMerge(root);
        await expect(git(root, "rebase", "other")).rejects.toThrow();
      },
      /a rebase is in progress/,
      async (root) => {
        await git(root, "rebase", "--abort");
      },
    ],
    [
      "mid-cherry-pick",
      async (root) => {
        await conflictedMerge(root);
        await expect(git(root, "cherry-pick", "other")).rejects.toThrow();
      },
      /a cherry-pick is in progress/,
      async (root) => {
        await git(root, "cherry-pick", "--abort");
      },
    ],
    [
      "`git am` stopped at a patch that does not apply",
      async (root) => {
        await conflictedMerge(root);
        const patch = await git(root, "format-patch", "-1", "--stdout", "other");
        await writeFile(path.join(root, "..", `${path.basename(root)}.patch`), patch);
        await expect(git(root, "am", "-q", path.join(root, "..", `${path.basename(root)}.patch`))).rejects.toThrow();
      },
      /a rebase or `git am` is in progress/,
      async (root) => {
        await git(root, "am", "--abort");
      },
    ],
    [
      "`git rebase -i` stopped at an `edit` line (no conflict)",
      async (root) => {
        await conflictedMerge(root);
        await exec(
          "git",
          ["-c", "user.name=Dana", "-c", "user.email=dana@example.org", "rebase", "-q", "-i", "HEAD~2"],
          {
            cwd: root,
            env: { ...USER_ENV, GIT_SEQUENCE_EDITOR: "sed -i 1s/^pick/edit/" },
          },
        );
      },
      /a rebase is in progress/,
      async (root) => {
        await git(root, "rebase", "--continue");
      },
    ],
    [
      "a bisect in progress",
      async (root) => {
        await conflictedMerge(root);
        await git(root, "bisect", "start", "HEAD", "HEAD~2");
      },
      /a bisect is in progress/,
      async (root) => {
        await git(root, "bisect", "reset");
      },
    ],
    [
      "on a detached HEAD",
      async (root) => {
        await git(root, "checkout", "-q", "--detach");
      },
      /HEAD is detached/,
      async (root) => {
        await git(root, "checkout", "-q", "main");
      },
    ],
  ];

  for (const [name, enter, message, leave] of states) {
    it(`${name}: stages and commits nothing, exits 5, and the next run catches up`, async () => {
      const root = await workspace();
      expect((await nightly(root)).code).toBe(0);
      await newLog(root, "2026-03-21", ["- W @Priya: Shipped the FJD-482 fix."]);
      await enter(root);
      const statusBefore = await git(root, "status", "--porcelain");
      const headBefore = await head(root);
      const doctor = await exec(process.execPath, [CLI, "doctor", "--workspace", root, "--json"], { env: USER_ENV });
      expect(JSON.parse(doctor.stdout).git).toMatchObject({ busy: true, state: expect.stringMatching(message) });
      const blocked = await nightly(root);
      expect(blocked.code).toBe(5);
      expect(blocked.stderr).toMatch(message);
      expect(await git(root, "status", "--porcelain")).toBe(statusBefore);
      expect(await head(root)).toBe(headBefore);
      await leave(root);
      const next = await nightly(root);
      expect(next.code, next.stderr).toBe(0);
      expect(await filesOf(root)).toContain("bank/entities/Priya.md");
      expect(await git(root, "show", "HEAD:bank/entities/Priya.md")).toContain("Shipped the FJD-482 fix.");
      expect(await git(root, "status", "--porcelain", "--", "bank")).toBe("");
    });
  }
});

describe("signals, environment and git itself", () => {
  /** A `git` on PATH that stops at one subcommand (writing its pid) before running the real git. */
  async function slowGit(at: string): Promise<{ env: NodeJS.ProcessEnv; pidFile: string }> {
    const bin = await mkdtemp(path.join(tmp, "bin-"));
    const pidFile = path.join(bin, "pid");
    const real = (await exec("sh", ["-c", "command -v git"])).stdout.trim();
    await writeFile(
      path.join(bin, "git"),
      `#!/bin/sh\ncase " $* " in *" ${at} "*) echo $$ > "${pidFile}"; sleep 5;; esac\nexec "${real}" "$@"\n`,
    );
    await chmod(path.join(bin, "git"), 0o755);
    return { env: { ...USER_ENV, PATH: `${bin}:${process.env.PATH}` }, pidFile };
  }

  async function waitFor(file: string): Promise<number> {
    for (let i = 0; i < 600; i++) {
      try {
        return Number((await readFile(file, "utf8")).trim());
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`${file} never appeared`);
  }

  for (const [signal, at] of [
    ["SIGTERM", "update-ref"],
    // The catch-up of the user's index after the commit (`update-index --index-info`).
    ["SIGINT", "--index-info"],
  ] as const) {
    it(`${signal} to the whole process group while git runs ${at}: the record tells the truth and the next run catches up`, async () => {
      const root = await workspace();
      const { env, pidFile } = await slowGit(at);
      const child = spawn(process.execPath, [CLI, "run", "nightly", "--workspace", root, "--json"], {
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      const closed = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      const gitPid = await waitFor(pidFile);
      // As systemd or a terminal does: the signal reaches membank's group and git too.
      process.kill(-(child.pid as number), signal);
      process.kill(gitPid, signal);
      await closed;
      const record = JSON.parse(out) as { commit?: string; status: string };
      const now = await head(root);
      if (record.commit) expect(record.commit).toBe(now);
      else expect(await author(root)).toBe("Dana <dana@example.org>");
      // Nothing of membank's is left staged in the user's index as a change of theirs,
      // except an index that a stopped catch-up left behind HEAD, which the next run repairs.
      if (at === "update-ref") expect(await git(root, "diff", "--cached", "--name-only")).toBe("");
      const next = await nightly(root);
      expect([0, 3], next.stderr).toContain(next.code);
      expect(await git(root, "status", "--porcelain", "--", "bank")).toBe("");
      expect(await git(root, "diff", "--cached", "--name-only")).toBe("");
      expect((await git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", "bank")).split("\n")).toContain(
        "bank/opinions.md",
      );
    });
  }

  it("commits with EDITOR, PAGER, GIT_ASKPASS and a user's GIT_AUTHOR_NAME set, as membank", async () => {
    const root = await workspace();
    const run = await nightly(root, { ...USER_ENV, GIT_AUTHOR_NAME: "Dana", GIT_EDITOR: "false", LANG: "C" });
    expect(run.code, run.stderr).toBe(0);
    expect(await author(root)).toBe("membank <membank@localhost>");
  });

  it("git missing from PATH is said as such, writes nothing, and the next run with git commits", async () => {
    const root = await workspace();
    const bin = await mkdtemp(path.join(tmp, "nogit-"));
    await symlink(process.execPath, path.join(bin, "node"));
    const run = await nightly(root, { ...USER_ENV, PATH: bin });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/git was not found on PATH/);
    expect(run.stderr).not.toMatch(/not a git repository/);
    expect(await git(root, "status", "--porcelain")).toBe("");
    const next = await nightly(root);
    expect(next.code, next.stderr).toBe(0);
    expect(await author(root)).toBe("membank <membank@localhost>");
  });

  it("commits in a repository with core.autocrlf=true and core.safecrlf=true (a Windows user's settings)", async () => {
    const root = await workspace();
    await git(root, "config", "core.autocrlf", "true");
    await git(root, "config", "core.safecrlf", "true");
    const run = await nightly(root);
    expect(run.code, run.stderr).toBe(0);
    expect(await author(root)).toBe("membank <membank@localhost>");
    expect(await git(root, "status", "--porcelain", "--", "bank")).toBe("");
  });

  it("a bank page listed in .git/info/exclude is left out, every night, without failing", async () => {
    const root = await workspace();
    await mkdir(path.join(root, ".git/info"), { recursive: true });
    await appendFile(path.join(root, ".git/info/exclude"), "bank/proposals.md\n");
    await rm(path.join(root, "bank/proposals.md"), { force: true });
    await git(root, "rm", "-q", "--cached", "--ignore-unmatch", "bank/proposals.md");
    await git(root, "commit", "-qm", "keep proposals private", "--allow-empty");
    const first = await nightly(root);
    expect(first.code, first.stderr).toBe(0);
    expect(await filesOf(root)).not.toContain("bank/proposals.md");
    await newLog(root, "2026-03-22", ["- W @Jonas: Wants proposals reviewed weekly."]);
    const second = await nightly(root);
    expect(second.code, second.stderr).toBe(0);
  });

  it("2,000 entity pages and a 200 KB fact commit (message by stdin, capped), every night", async () => {
    const root = await workspace();
    const facts = Array.from({ length: 2000 }, (_, i) => `- W @Vendor${String(i).padStart(4, "0")}: Sent an invoice.`);
    facts.push(`- W @Priya: Pasted the whole log: ${"x".repeat(200 * 1024)}`);
    await newLog(root, "2026-03-23", facts);
    const run = await nightly(root);
    expect(run.code, run.stderr).toBe(0);
    expect((await filesOf(root)).length).toBeGreaterThan(2000);
    const message = await git(root, "log", "-1", "--format=%B");
    expect(message.length).toBeLessThan(64 * 1024);
    expect(message).toMatch(/\.\.\. and \d+ more/);
  }, 240_000);
});

describe("a full disk", () => {
  it("stops the nightly with one line naming the file, commits nothing, and the next run finishes", async () => {
    const root = await workspace();
    const before = await head(root);
    // A 3 KB file size limit (RLIMIT_FSIZE) stands in for a full disk: writes fail with EFBIG.
    const run = await new Promise<Run>((resolve) => {
      execFile(
        "prlimit",
        ["--fsize=3000", process.execPath, CLI, "run", "nightly", "--workspace", root],
        { env: USER_ENV },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/hit the file size limit/);
    expect(run.stderr).toContain(root);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await head(root)).toBe(before);
    expect(await git(root, "diff", "--cached", "--name-only")).toBe("");
    const next = await nightly(root);
    expect(next.code, next.stderr).toBe(0);
    expect(await git(root, "status", "--porcelain", "--", "bank")).toBe("");
  });
});
