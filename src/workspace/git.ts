/**
 * The one git adapter: every git call membank makes goes through `runGit`.
 *
 * - The user's environment is passed through whole (EDITOR, PAGER, GIT_ASKPASS, ... are
 *   the user's business; a filtered copy is what made simple-git refuse to run). Only
 *   what membank needs is added: C locale (parseable messages), no terminal prompts,
 *   no optional locks.
 * - Input (commit messages, path lists) goes through stdin, never argv: a 128 KB message
 *   or 2,000 paths would hit E2BIG.
 * - git missing from PATH, a signal that killed git, and a failing git are three
 *   different errors; none of them reads as "not a git repository".
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn } from "node:child_process";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { MembankError } from "./errors.js";
import { GitShell } from "./git-shell.js";

export interface GitRunOptions {
  cwd: string;
  /** Written to git's stdin. */
  input?: string | Buffer;
  /** Added to (never replacing) the inherited environment. */
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: number[];
  /**
   * Run git in its own process group, so a Ctrl-C meant for membank (sent to the
   * terminal's foreground group) does not kill git halfway; membank decides what to do.
   */
  detached?: boolean;
}

export interface GitResult {
  code: number;
  stdout: string;
  /** stdout as bytes (file contents from cat-file). */
  raw: Buffer;
  stderr: string;
}

/** git is not installed or not on PATH. */
export const GIT_MISSING = "EGITMISSING";
/** git was killed by a signal. */
export const GIT_SIGNAL = "EGITSIGNAL";
/** git exited with an error. */
export const GIT_FAILED = "EGIT";

const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * What git sets for a hook or an alias to say which repository and index it means
 * (`git rev-parse --local-env-vars`, less the `-c` config it passes on). membank run from a
 * hook of another repository, or from an alias in a subfolder, would otherwise read and
 * commit into that repository's git dir and index: membank's repository is the
 * workspace's, found from its folder.
 */
const REPO_LOCAL_ENV = [
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CONFIG",
  "GIT_OBJECT_DIRECTORY",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_QUARANTINE_PATH",
  // A hook of the user's commit sets its dates: membank's commit is made now.
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_DATE",
];

/**
 * Why a workspace in no repository gets no commit; with GIT_DIR set in the user's shell (a
 * dotfiles-style git dir elsewhere), that membank does not follow it (gitEnv drops it).
 */
export function noRepositoryNote(dir: string): string {
  const gitDir = process.env.GIT_DIR;
  return gitDir
    ? `${dir} is not a git repository (GIT_DIR=${gitDir} is set in this shell; membank does not follow it, it commits only to the repository the workspace's folder is in)`
    : `${dir} is not a git repository`;
}

export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPO_LOCAL_ENV) delete env[name];
  return { ...env, LC_ALL: "C", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", ...extra };
}

/** git's own reason: its first `fatal:`/`error:` line (a hook's output may come before it), else the first line. */
function firstLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "";
}

/**
 * What to do, where git says it on a later line that firstLine drops. A lock file of a git that
 * crashed (a ref's, packed-refs') stops every run until someone removes it: say which.
 */
function hintFor(stderr: string): string {
  const lock = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  if (lock) {
    return `; another git command is running in this repository, or one crashed: if none is running, remove ${lock[1]} and run again`;
  }
  // A filter of .gitattributes (LFS, git-crypt) whose program is gone: git's own line may only
  // say "the remote end hung up unexpectedly"; sh's "<command>: 1: <program>: not found" names it.
  const filter = /(?:clean|smudge) filter '([^']+)' failed|(?:subprocess|external filter) '([^']+)' failed/.exec(
    stderr,
  );
  const missing = /^(.*?): (?:line )?\d+: ([^:\s]+): (?:command )?not found$/m.exec(stderr);
  if (filter) {
    return (
      `; the filter ${filter[1] ?? filter[2]} of .gitattributes could not run${missing ? ` (${missing[2]} is not installed)` : ""}: ` +
      "install its program, or take the filter off membank's pages (bank/), and run again"
    );
  }
  return missing
    ? `; git could not run \`${missing[1]}\` (${missing[2]} is not installed; a filter of .gitattributes?): install it, or remove it from git's config, and run again`
    : "";
}

/** git's answer as runGit reports it: resolved, or a MembankError naming what went wrong. */
function settle(
  args: string[],
  opts: GitRunOptions,
  raw: Buffer,
  stderrBytes: Buffer,
  code: number | null,
  signal: NodeJS.Signals | null,
): GitResult {
  const stdout = raw.toString("utf8");
  const stderr = stderrBytes.toString("utf8");
  const sub = args.find((a) => !a.startsWith("-") && !a.includes("=")) ?? "";
  if (signal) {
    const why =
      signal === "SIGXFSZ"
        ? "hit the file size limit (disk full or ulimit -f): free some space or raise the limit, and run again"
        : `was stopped by ${signal}`;
    throw new MembankError(`git ${sub} in ${opts.cwd} ${why}`, { code: GIT_SIGNAL });
  }
  const c = code ?? 1;
  if (c !== 0 && !(opts.okCodes ?? []).includes(c)) {
    throw new MembankError(
      `git ${sub} failed in ${opts.cwd}: ${firstLine(stderr) || `exit code ${c}`}${hintFor(stderr)}`,
      {
        code: GIT_FAILED,
      },
    );
  }
  return { code: c, stdout, raw, stderr };
}

const gitMissing = () =>
  new MembankError(
    "git was not found on PATH: install git (or fix PATH); membank's pages stay written and pending, and the next run commits them",
    { code: GIT_MISSING },
  );

/** Run `git args...`; resolves with its output, rejects with a MembankError (code GIT_*). */
export function runGit(args: string[], opts: GitRunOptions): Promise<GitResult> {
  const shell = gitShell();
  if (shell?.accepts(opts.env)) {
    return shell.run(args, opts).then(
      (o) => {
        if (o.missing) throw gitMissing();
        return settle(args, opts, o.stdout.subarray(0, MAX_OUTPUT), o.stderr, o.code, o.signal);
      },
      (error: Error) => {
        throw new MembankError(`cannot run git: ${error.message}`, { code: GIT_FAILED, cause: error });
      },
    );
  }
  return spawnGit(args, opts);
}

function spawnGit(args: string[], opts: GitRunOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd: opts.cwd,
      env: gitEnv(opts.env),
      stdio: ["pipe", "pipe", "pipe"],
      detached: opts.detached === true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on("data", (b: Buffer) => {
      size += b.length;
      if (size <= MAX_OUTPUT) out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") reject(gitMissing());
      else reject(new MembankError(`cannot run git: ${error.message}`, { code: GIT_FAILED, cause: error }));
    });
    // EPIPE when git exits before reading all of stdin: its exit status says what happened.
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) => {
      try {
        resolve(settle(args, opts, Buffer.concat(out), Buffer.concat(err), code, signal));
      } catch (error) {
        reject(error);
      }
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

export interface RepoInfo {
  /** The work tree's top folder (absolute). */
  top: string;
  /** This work tree's git dir (absolute; a linked worktree has its own). */
  gitDir: string;
  /** `dir` relative to `top`, with a trailing `/` ("" at the top). */
  prefix: string;
}

interface RunScope {
  repos: Map<string, Promise<RepoInfo | undefined>>;
  /** The run's git helper shell: undefined until the first git call, null where there is none. */
  shell?: GitShell | null;
}

const runScope = new AsyncLocalStorage<RunScope>();

/**
 * Run `fn` as one run of git calls (a pipeline run: it holds the workspace lock): repoInfo's
 * answers are remembered per folder (asked five times a run, at ~10-50 ms a git process),
 * and git is started by one small shell (git-shell.ts) instead of by this big process.
 * Only `fn`'s own calls see them; gitInit inside it forgets the answers.
 */
export async function withRepoMemo<T>(fn: () => Promise<T>): Promise<T> {
  const scope: RunScope = { repos: new Map() };
  try {
    return await runScope.run(scope, fn);
  } finally {
    scope.shell?.close();
  }
}

/** The current run's helper shell, started on first use (undefined outside a run, or where none can start). */
function gitShell(): GitShell | undefined {
  const scope = runScope.getStore();
  if (scope === undefined) return undefined;
  if (scope.shell === undefined) scope.shell = GitShell.open(gitEnv()) ?? null;
  return scope.shell ?? undefined;
}

/** Forget remembered repoInfo answers (after `git init`). */
export function forgetRepoInfo(): void {
  runScope.getStore()?.repos.clear();
}

/**
 * The repository `dir` is in, or undefined when it is in none. git missing or failing for
 * another reason throws: that is not "no repository".
 */
export function repoInfo(dir: string): Promise<RepoInfo | undefined> {
  const memo = runScope.getStore()?.repos;
  if (memo === undefined) return lookUpRepo(dir);
  let answer = memo.get(dir);
  if (answer === undefined) {
    answer = lookUpRepo(dir);
    memo.set(dir, answer);
    // A failure (git missing, a signal) is asked again next time.
    answer.catch(() => memo.delete(dir));
  }
  return answer;
}

async function lookUpRepo(dir: string): Promise<RepoInfo | undefined> {
  const r = await runGit(["rev-parse", "--show-toplevel", "--absolute-git-dir", "--show-prefix"], {
    cwd: dir,
    okCodes: [128],
  });
  if (r.code === 128) {
    // "(or any of the parent directories)" / "(or any parent up to mount point ...)": no repository.
    if (/not a git repository \(or any/i.test(r.stderr)) return undefined;
    // git names the fix on a later line that firstLine drops: say it.
    const dubious = /dubious ownership in repository at '([^']+)'/.exec(r.stderr);
    // "not a git repository: <dir>": a .git file names a git dir that is gone. Read as "no
    // repository", every night would write pages and commit none of them, without a word.
    const gone = /not a git repository: (.+)/i.exec(r.stderr);
    const hint = dubious
      ? `: run membank as the repository's owner, or trust it: git config --global --add safe.directory '${dubious[1]}'`
      : gone
        ? ": the .git file of this work tree points to that folder, which was moved or deleted; " +
          "repair the link (`git worktree repair` from the main checkout, or fix the gitdir: line of the .git file) and run again"
        : /must be run in a work tree/.test(r.stderr)
          ? // core.bare = true in a checkout's .git/config (a script's `git init --bare` over it, a copied config).
            ": the repository's config says it has no work tree (core.bare = true); if this folder is its work tree, " +
            "set `git config core.bare false` and run again"
          : "";
    throw new MembankError(`git rev-parse failed in ${dir}: ${firstLine(r.stderr)}${hint}`, { code: GIT_FAILED });
  }
  const [top, gitDir, prefix] = r.stdout.split("\n");
  if (top === undefined || gitDir === undefined) return undefined; // a bare repository: no work tree
  // core.worktree may name another folder: git would work there, and fail obscurely later.
  const real = await realpath(dir).catch(() => path.resolve(dir));
  const rel = path.relative(path.resolve(top), real);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new MembankError(
      `${dir} is not in the work tree of its repository ${path.resolve(gitDir)}: git's config puts that at ${top} (core.worktree); ` +
        `if this folder is the work tree, run \`git config --unset core.worktree\` in it and run again`,
      { code: GIT_FAILED },
    );
  }
  return { top: path.resolve(top), gitDir: path.resolve(gitDir), prefix: prefix ?? "" };
}

export type GitState =
  | { kind: "normal"; head: string; branch: string }
  | { kind: "unborn"; branch: string }
  | { kind: "busy"; what: string; advice: string };

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** What the repository is doing: a plain branch (maybe unborn), or an operation membank must stay out of. */
export async function gitState(repo: RepoInfo): Promise<GitState> {
  const g = (f: string) => path.join(repo.gitDir, f);
  const busy: [string, string, string][] = [
    ["rebase-merge", "a rebase is in progress", "finish it (git rebase --continue) or abort it (git rebase --abort)"],
    ["rebase-apply", "a rebase or `git am` is in progress", "finish or abort it (git rebase/am --continue or --abort)"],
    ["MERGE_HEAD", "a merge is in progress", "finish it (git commit) or abort it (git merge --abort)"],
    ["CHERRY_PICK_HEAD", "a cherry-pick is in progress", "finish or abort it (git cherry-pick --continue/--abort)"],
    ["REVERT_HEAD", "a revert is in progress", "finish or abort it (git revert --continue/--abort)"],
    // A series stopped at a conflict that the user committed by hand: CHERRY_PICK_HEAD is gone,
    // git status still says a cherry-pick (or revert) is in progress, and --continue goes on.
    [
      "sequencer/todo",
      "a cherry-pick or revert of several commits is in progress",
      "finish it (git cherry-pick/revert --continue) or end it (--abort, or --quit to keep what is done)",
    ],
    ["BISECT_LOG", "a bisect is in progress", "end it (git bisect reset)"],
  ];
  for (const [file, what, advice] of busy) if (await exists(g(file))) return { kind: "busy", what, advice };
  // HEAD's commit and the ref it names, in one process (a nightly asks three times); "--" keeps
  // a file called HEAD from making the names ambiguous. No commit yet: asked the long way.
  const both = await runGit(["rev-parse", "HEAD^{commit}", "--symbolic-full-name", "HEAD", "--"], {
    cwd: repo.top,
    okCodes: [128],
  });
  const [oid, ref] = both.stdout.split("\n");
  if (both.code === 0 && oid && ref && ref !== "HEAD") return { kind: "normal", head: oid, branch: ref };
  // Both at once: the second answers only when the first finds a branch.
  const [sym, head] = await Promise.all([
    runGit(["symbolic-ref", "-q", "HEAD"], { cwd: repo.top, okCodes: [1] }),
    runGit(["rev-parse", "-q", "--verify", "HEAD^{commit}"], { cwd: repo.top, okCodes: [1] }),
  ]);
  if (sym.code !== 0) {
    return {
      kind: "busy",
      what: "HEAD is detached (no branch is checked out)",
      advice: "check out a branch (git switch <branch>)",
    };
  }
  const branch = sym.stdout.trim();
  if (head.code !== 0) return { kind: "unborn", branch };
  return { kind: "normal", head: head.stdout.trim(), branch };
}

/** Exit code of a run that could not commit because git is busy (merge, rebase, detached HEAD...). */
export const GIT_BUSY_EXIT = 5;
export const GIT_BUSY = "EGITBUSY";

/** The error for a busy repository: nothing staged, nothing committed, the next run catches up. */
export function gitBusyError(repo: RepoInfo, state: Extract<GitState, { kind: "busy" }>): MembankError {
  return new MembankError(
    `${repo.top}: ${state.what}; membank staged and committed nothing (its pages stay pending). ` +
      `${state.advice[0]?.toUpperCase()}${state.advice.slice(1)}, then run again: the next run commits what is pending.`,
    { code: GIT_BUSY, exitCode: GIT_BUSY_EXIT },
  );
}

/** Quote a list of paths for stdin: NUL-separated (`--stdin -z`, `--pathspec-file-nul`). */
export function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}

/** Read git's NUL-separated output (`-z`) into its entries. */
export function nulSplit(text: string): string[] {
  return text.split("\0").filter((s) => s !== "");
}
