/**
 * A pipeline run starts its git processes through one small shell (src/workspace/git-shell.ts):
 * every answer must be the one git gives when Node starts it directly.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIT_FAILED, GIT_MISSING, GIT_SIGNAL, runGit, withRepoMemo } from "../src/workspace/git.js";

const exec = promisify(execFile);
let tmp: string;
let repo: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-git-shell-"));
  repo = path.join(tmp, "notes");
  await mkdir(path.join(repo, "bank"), { recursive: true });
  await writeFile(path.join(repo, "bank", "Zoë's page.md"), "# Zoë\r\n\nbytes \u00e9\n");
  await writeFile(path.join(repo, "it's.bin"), Buffer.from([0, 255, 10, 13, 0]));
  const git = (...args: string[]) => exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
  await git("init", "-q", "-b", "main");
  await git("add", "-A");
  await git("commit", "-qm", "start");
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** What a call gives, as data: the result or the error's code and message. */
async function outcome(args: string[], opts: Parameters<typeof runGit>[1]) {
  try {
    const r = await runGit(args, opts);
    return { code: r.code, stdout: r.stdout, raw: r.raw.toString("base64"), stderr: r.stderr };
  } catch (error) {
    return { error: (error as { code?: string }).code, message: (error as Error).message };
  }
}

describe("git calls of a run, through the helper shell", () => {
  const calls: [string, string[], Omit<Parameters<typeof runGit>[1], "cwd">][] = [
    ["binary object bytes", ["cat-file", "--batch"], { input: "HEAD:it's.bin\nHEAD:bank/Zoë's page.md\nHEAD:nope\n" }],
    [
      "paths with quotes and non-ASCII, NUL-separated on stdin",
      ["check-ignore", "-z", "--stdin"],
      { input: "bank/Zoë's page.md\0", okCodes: [1] },
    ],
    ["an answer that is an ok exit code", ["diff", "--quiet", "HEAD", "--", "nothing"], { okCodes: [1] }],
    ["a failure: git's fatal line", ["rev-parse", "--verify", "no-such-ref"], {}],
    ["a failure with exit code 128 accepted", ["rev-parse", "--show-toplevel"], { okCodes: [128] }],
    [
      "extra environment with quotes and newlines",
      ["var", "GIT_AUTHOR_IDENT"],
      { env: { GIT_AUTHOR_NAME: "O'Brien\nJr", GIT_AUTHOR_EMAIL: "o@x", GIT_AUTHOR_DATE: "@0 +0000" } },
    ],
    ["an argument with a newline and a dollar", ["log", "-1", "--format=%s$HOME\n%an", "HEAD"], {}],
  ];
  for (const [what, args, opts] of calls) {
    it(`${what}: the same answer as git started directly`, async () => {
      const cwd = what.startsWith("a failure with") ? tmpdir() : repo;
      const direct = await outcome(args, { cwd, ...opts });
      const viaShell = await withRepoMemo(() => outcome(args, { cwd, ...opts }));
      expect(viaShell).toEqual(direct);
      if (what.startsWith("a failure:")) expect(viaShell.error).toBe(GIT_FAILED);
    });
  }

  it("runs calls at once, each with its own input and output, and removes its temp folder after the run", async () => {
    const temp = await mkdtemp(path.join(tmp, "tmpdir-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    let answers: string[];
    try {
      answers = await withRepoMemo(async () => {
        const all = Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            runGit(["hash-object", "--stdin"], { cwd: repo, input: `text ${i}\n` }).then((r) => r.stdout.trim()),
          ),
        );
        expect(await readdir(temp)).toHaveLength(1); // the shell's folder, in TMPDIR
        return all;
      });
    } finally {
      process.env.TMPDIR = saved;
    }
    const direct = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        exec("sh", ["-c", `printf 'text ${i}\\n' | git hash-object --stdin`]).then((r) => r.stdout.trim()),
      ),
    );
    expect(answers).toEqual(direct);
    // The shell removes its folder once its input is closed (it is not waited for).
    for (let i = 0; i < 100 && (await readdir(temp)).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await readdir(temp)).toEqual([]);
  });

  it("git missing from PATH and a folder that does not exist read as they do without the shell", async () => {
    const bin = path.join(tmp, "empty-bin");
    await mkdir(bin, { recursive: true });
    const temp = await mkdtemp(path.join(tmp, "tmpdir-"));
    const [saved, savedTemp] = [process.env.PATH, process.env.TMPDIR];
    process.env.PATH = bin;
    process.env.TMPDIR = temp;
    try {
      const viaShell = await withRepoMemo(() => outcome(["status"], { cwd: repo }));
      expect(viaShell).toEqual(await outcome(["status"], { cwd: repo }));
      expect(viaShell.error).toBe(GIT_MISSING);
      // The shell's PATH has no rm either: its folder goes all the same.
      expect(await readdir(temp)).toEqual([]);
    } finally {
      process.env.PATH = saved;
      process.env.TMPDIR = savedTemp;
    }
    const gone = path.join(tmp, "no-such-folder");
    expect(await withRepoMemo(() => outcome(["status"], { cwd: gone }))).toEqual(
      await outcome(["status"], { cwd: gone }),
    );
  });

  it("a git stopped by a signal is said as such", async () => {
    const bin = path.join(tmp, "killed-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, "git"), "#!/bin/sh\nkill -TERM $$\n");
    await chmod(path.join(bin, "git"), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      const viaShell = await withRepoMemo(() => outcome(["write-tree"], { cwd: repo }));
      expect(viaShell).toEqual({ error: GIT_SIGNAL, message: `git write-tree in ${repo} was stopped by SIGTERM` });
      expect(await outcome(["write-tree"], { cwd: repo })).toEqual(viaShell);
    } finally {
      process.env.PATH = saved;
    }
  });
});
