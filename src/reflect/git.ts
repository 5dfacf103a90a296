import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { simpleGit } from "simple-git";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";

const run = promisify(execFile);

export interface CommitOptions {
  authorName?: string;
  authorEmail?: string;
}

/** Is the workspace inside a git work tree? */
export async function isGitRepo(ws: Workspace): Promise<boolean> {
  try {
    return await simpleGit(ws.root).checkIsRepo();
  } catch {
    return false;
  }
}

export async function gitInit(ws: Workspace): Promise<void> {
  await simpleGit(ws.root).init();
}

/**
 * Commit exactly `files` (workspace-relative) and nothing else: `git commit --only --
 * <paths>` takes those paths from the working tree and leaves every other staged or
 * unstaged change of the user as it was. Author and committer come from
 * config.reflect.git (default `membank <membank@localhost>`), hooks and signing are
 * skipped so a nightly run cannot hang on them. Returns the new commit's hash, or
 * undefined when none of the files differs from HEAD.
 */
export async function commitFiles(
  ws: Workspace,
  files: string[],
  message: string,
  opts: CommitOptions = {},
): Promise<string | undefined> {
  if (files.length === 0) return undefined;
  const name = opts.authorName ?? ws.config.reflect.git.authorName;
  const email = opts.authorEmail ?? ws.config.reflect.git.authorEmail;
  const git = simpleGit(ws.root).env({
    ...process.env,
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  });
  if (!(await git.checkIsRepo())) {
    throw new MembankError(`${ws.root} is not a git repository: cannot commit (run git init, or reflect --git-init)`, {
      code: "ENOGIT",
    });
  }
  const paths = [...new Set(files)].sort();
  const status = await git.raw(["status", "--porcelain", "--untracked-files=all", "--", ...paths]);
  if (status.trim() === "") return undefined;
  await git.raw(["add", "--", ...paths]);
  await git.raw(["-c", "commit.gpgsign=false", "commit", "--no-verify", "--only", "-m", message, "--", ...paths]);
  return (await git.raw(["rev-parse", "HEAD"])).trim();
}

/**
 * The unified diff between old and new texts of workspace files (`undefined` old = a new
 * file), computed by `git diff --no-index` over two temporary trees. Writes nothing in
 * the workspace.
 */
export async function unifiedDiff(changes: { path: string; before?: string; after: string }[]): Promise<string> {
  if (changes.length === 0) return "";
  const dir = await mkdtemp(path.join(tmpdir(), "membank-diff-"));
  try {
    for (const change of changes) {
      const after = path.join(dir, "new", change.path);
      await mkdir(path.dirname(after), { recursive: true });
      await writeFile(after, change.after);
      if (change.before !== undefined) {
        const before = path.join(dir, "old", change.path);
        await mkdir(path.dirname(before), { recursive: true });
        await writeFile(before, change.before);
      }
    }
    await mkdir(path.join(dir, "old"), { recursive: true });
    let out: string;
    try {
      const res = await run("git", ["diff", "--no-index", "--no-color", "--no-ext-diff", "old", "new"], {
        cwd: dir,
        maxBuffer: 512 * 1024 * 1024,
      });
      out = res.stdout;
    } catch (error) {
      // Exit code 1 means "differences found": the normal case here.
      const e = error as { code?: number; stdout?: string };
      if (e.code !== 1 || e.stdout === undefined) throw error;
      out = e.stdout;
    }
    return out
      .split("\n")
      .map((line) =>
        /^(diff --git |--- |\+\+\+ )/.test(line) ? line.replaceAll("a/old/", "a/").replaceAll("b/new/", "b/") : line,
      )
      .join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
