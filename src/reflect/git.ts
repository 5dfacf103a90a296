/**
 * membank's commits: only membank's own bytes, never the user's.
 *
 * The commit is built in a private index (.memory/commit-index) from HEAD plus the pages
 * membank wrote, then HEAD is moved with a compare-and-swap `update-ref`; the user's
 * index is only touched afterwards, for exactly those paths, so that `git status` agrees.
 * The user's staged and unstaged changes never enter membank's commit, hooks and editors
 * never run, and a signal at any moment leaves either no commit (the pages stay pending)
 * or the whole commit (the index catch-up is finished by the next run).
 */
import { mkdir, readlink, rm } from "node:fs/promises";
import path from "node:path";
import { MembankError } from "../workspace/errors.js";
import {
  forgetRepoInfo,
  GIT_SIGNAL,
  type GitState,
  gitBusyError,
  gitState,
  noRepositoryNote,
  nulList,
  type RepoInfo,
  repoInfo,
  runGit,
} from "../workspace/git.js";
import {
  appendPendingWrites,
  contentHash,
  fileHash,
  type PendingSync,
  type PendingWrite,
  readPendingWrites,
  replacePendingWrites,
} from "../workspace/owned.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { committedBefore, recordCommitted } from "./git-committed.js";
import {
  type BatchObject,
  catBatch,
  checkoutHashes,
  indexEntries,
  refusedPaths,
  stagedByUser,
  syncCommitted,
  syncUserIndex,
} from "./git-index.js";

// The dry run's diff has its own module; reflect/index.ts imports it from here.
export { unifiedDiff } from "./diff.js";

export interface CommitOptions {
  authorName?: string;
  authorEmail?: string;
  /** The workspace's repository, when the caller has looked it up already (one git call less). */
  repo?: RepoInfo;
}

/** Is the workspace inside a git work tree? (git missing throws: that is not "no".) */
export async function isGitRepo(ws: Workspace): Promise<boolean> {
  return (await repoInfo(ws.root)) !== undefined;
}

export async function gitInit(ws: Workspace): Promise<void> {
  await runGit(["init", "-q"], { cwd: ws.root });
  forgetRepoInfo();
}

export interface CommitResult {
  /** The new commit, when one was made. */
  commit?: string;
  /** Workspace-relative paths in the commit. */
  committed: string[];
  /** Files membank wrote and did not commit, with the reason (shown to the user). */
  left: { path: string; reason: string }[];
  /** Set when no commit is possible at all (not a repository). */
  off?: string;
  /** The commit was made but git was stopped before the user's index caught up (the next run does it). */
  unsynced?: string;
}

/** What a person needs to know about a page left uncommitted, as one line. */
export function leftNote(l: { path: string; reason: string }): string {
  return `${l.path}: written, not committed: ${l.reason}`;
}

const isSync = (l: PendingWrite | PendingSync): l is PendingSync => Array.isArray((l as PendingSync).sync);

/**
 * Commit what membank wrote and still owns (the pending journal, see workspace/owned.ts):
 * a path goes in only when the file holds the bytes membank wrote and every difference
 * from HEAD is membank's; it is not git-ignored; and the user has not staged another
 * version of it. Everything else is left as it is and reported in `left`. Refuses (throws,
 * exit code 5) while git is in the middle of a merge, rebase, cherry-pick, revert or
 * bisect, or on a detached HEAD: the journal is kept and the next run commits.
 */
export async function commitPending(
  ws: Workspace,
  message: (committed: string[]) => string,
  opts: CommitOptions = {},
): Promise<CommitResult> {
  const result: CommitResult = { committed: [], left: [] };
  const repo = opts.repo ?? (await repoInfo(ws.root));
  if (!repo) {
    await replacePendingWrites(ws, []);
    return { ...result, off: noRepositoryNote(ws.root) };
  }
  const lines = await readPendingWrites(ws);
  if (lines.length === 0) return result;
  const top = (p: string) => `${repo.prefix}${p}`;
  const chains = new Map<string, PendingWrite[]>();
  for (const l of lines) {
    if (isSync(l)) continue;
    const chain = chains.get(l.path) ?? [];
    chain.push(l);
    chains.set(l.path, chain);
  }
  const paths = [...chains.keys()].sort();
  const syncs = lines.filter(isSync).flatMap((l) => l.sync);
  const { state, headObjects, refused, staged } = await commitInputs(repo, paths.map(top), syncs);
  const headTree = /^tree ([0-9a-f]+)/.exec(headObjects[0]?.content.toString("latin1") ?? "")?.[1];
  const head = new Map<string, string>();
  // HEAD's blobs of paths whose first write did not start from the blob's bytes: a filter may
  // convert them (git-crypt, ident), or the user changed the file; git-index sorts that out.
  const unlike = new Map<string, string>();
  paths.forEach((p, i) => {
    const o = headObjects[i + 1];
    if (o?.type !== "blob") return;
    head.set(p, contentHash(o.content));
    if (chains.get(p)![0]!.base !== head.get(p)) unlike.set(top(p), o.oid);
  });
  for (const [t, hash] of await checkoutHashes(repo, unlike)) head.set(t.slice(repo.prefix.length), hash);
  let known: Set<string> | undefined;
  const before = async () =>
    (known ??= await committedBefore(ws, repo, state.kind === "normal" ? state.head : undefined, state.branch));
  const eligible: string[] = [];
  for (const p of paths) {
    const chain = chains.get(p)!;
    const now = await fileHash(ws, p);
    const atHead = head.get(p) ?? null;
    if (now === null || now === atHead) continue; // deleted by the user, or already committed (by the user)
    if (now !== chain.at(-1)!.sha) {
      result.left.push({ path: p, reason: "it was changed after membank wrote it; commit it yourself" });
      continue;
    }
    if (chain[0]!.base === null && atHead === null && (await before()).has(p)) {
      result.left.push({
        path: p,
        reason:
          "you took it out of git after membank had committed it (a commit, revert or reset of yours), so membank does not put it back: commit it to keep it, or delete it and list it in .git/info/exclude",
      });
      continue;
    }
    // Each write started from HEAD's content or from bytes membank wrote before (a recorded
    // write that a kill stopped before its rename leaves the file as it was).
    const known = new Set<string | null>([atHead]);
    const unbroken = chain.every((e) => {
      const ok = known.has(e.base);
      known.add(e.sha);
      return ok;
    });
    if (!unbroken) {
      // A page that is a symbolic link: membank wrote the file it points to, git holds the link.
      const link = await readlink(path.join(ws.root, p)).catch(() => undefined);
      result.left.push({
        path: p,
        reason:
          link !== undefined
            ? `it is a symbolic link to ${link}: membank wrote that file, git keeps only the link; commit that file yourself`
            : atHead === null
              ? "it is not in git yet and holds text that membank did not write; commit it yourself"
              : chain[0]!.base === null
                ? // Written anew: committing it would drop whatever of the user's the last commit holds.
                  `it was missing when membank wrote it anew, and the last commit's version may hold text of yours: restore that with \`git checkout HEAD -- ${p}\` and run again (or commit this one to drop it)`
                : "it holds changes of yours since the last commit; commit them yourself (membank's are in the file)",
      });
      continue;
    }
    const submodule = refused.submodule.get(top(p));
    if (submodule !== undefined) {
      result.left.push({
        path: p,
        reason: `it is inside ${submodule}/, a git repository of its own: commit it there`,
      });
      continue;
    }
    if (refused.ignored.has(top(p))) {
      result.left.push({ path: p, reason: "git ignores it (.gitignore or .git/info/exclude)" });
      continue;
    }
    const mark = refused.marked.get(top(p));
    if (mark !== undefined) {
      result.left.push({
        path: p,
        reason: `you marked it ${mark} in git's index, so git does not look at it; commit it yourself, or clear the mark (git update-index --no-${mark} ${p})`,
      });
      continue;
    }
    if (staged.user.has(top(p))) {
      result.left.push({
        path: p,
        reason: staged.removed.has(top(p))
          ? "you have staged its removal (git rm); membank's text is in the file"
          : "you have staged another version of it",
      });
      continue;
    }
    eligible.push(p);
  }
  if (eligible.length === 0) {
    await replacePendingWrites(ws, []);
    return result;
  }

  // The user's index entries to bring in line after the commit: a path the user staged
  // already holds membank's bytes there (a different staged version left it out above).
  const behind = new Map<string, string>();
  for (const p of eligible) if (!staged.staged.has(top(p))) behind.set(top(p), chains.get(p)!.at(-1)!.sha);
  const made = await writeCommit(ws, repo, state, headTree, eligible.map(top), behind, message(eligible), opts);
  if (made === undefined) {
    await replacePendingWrites(ws, []);
    return result;
  }
  result.commit = made.commit;
  result.committed = eligible;
  await recordCommitted(ws, await before(), eligible, state.branch);
  // The commit stands; if git was stopped before the user's index caught up, the next run finishes that.
  await replacePendingWrites(ws, made.synced ? [] : [{ sync: eligible.map(top), commit: made.commit }]);
  if (!made.synced) result.unsynced = made.commit;
  return result;
}

/**
 * What the commit needs from git: the repository's state (throws on a busy one), HEAD's commit
 * and its versions of `topPaths` (one cat-file), what git ignores, what the user staged. Read
 * at once, each a process of its own; `syncs`, a catch-up of the user's index that a stopped
 * run left, is finished first (it changes what is staged).
 */
async function commitInputs(
  repo: RepoInfo,
  topPaths: string[],
  syncs: string[],
): Promise<{
  state: Extract<GitState, { kind: "normal" | "unborn" }>;
  headObjects: (BatchObject | undefined)[];
  refused: Awaited<ReturnType<typeof refusedPaths>>;
  staged: Awaited<ReturnType<typeof stagedByUser>>;
}> {
  const headOf = (rev: string) => catBatch(repo, [rev, ...topPaths.map((p) => `${rev}:${p}`)]);
  if (syncs.length > 0) {
    const state = await gitState(repo);
    if (state.kind === "busy") throw gitBusyError(repo, state);
    if (state.kind === "normal") await syncUserIndex(repo, syncs);
    const [headObjects, refused, staged] = await Promise.all([
      state.kind === "normal" ? headOf(state.head) : Promise.resolve([]),
      refusedPaths(repo, topPaths),
      stagedByUser(repo, state),
    ]);
    return { state, headObjects, refused, staged };
  }
  // HEAD is named, not its commit (not known yet): a HEAD that moved between the reads is
  // seen below (read again at the commit gitState saw) or by update-ref's compare-and-swap.
  const [stateR, headR, refusedR, stagedR] = await Promise.allSettled([
    gitState(repo),
    headOf("HEAD"),
    refusedPaths(repo, topPaths),
    stagedByUser(repo, { kind: "normal", head: "HEAD", branch: "" }),
  ]);
  const value = <T>(r: PromiseSettledResult<T>): T => {
    if (r.status === "rejected") throw r.reason;
    return r.value;
  };
  const state = value(stateR);
  if (state.kind === "busy") throw gitBusyError(repo, state);
  const refused = value(refusedR);
  if (state.kind === "unborn") return { state, headObjects: [], refused, staged: await stagedByUser(repo, state) };
  let headObjects = value(headR);
  if (headObjects[0]?.oid !== state.head) headObjects = await headOf(state.head);
  return { state, headObjects, refused, staged: value(stagedR) };
}

/** Why update-ref said no, as git put it, with what to do when a hook refused. */
function updateRefReason(message: string): string {
  const reason = message.replace(/^git update-ref failed in .*?: /, "");
  return /hook/i.test(reason)
    ? `${reason}; a reference-transaction hook (core.hooksPath or .git/hooks) refused it: fix or remove that hook`
    : reason;
}

/** Build the commit in a private index and move HEAD to it; undefined when the tree equals HEAD's. */
async function writeCommit(
  ws: Workspace,
  repo: RepoInfo,
  state: Extract<GitState, { kind: "normal" | "unborn" }>,
  headTree: string | undefined,
  topPaths: string[],
  behind: Map<string, string>,
  message: string,
  opts: CommitOptions,
): Promise<{ commit: string; synced: boolean } | undefined> {
  const name = opts.authorName ?? ws.config.reflect.git.authorName;
  const email = opts.authorEmail ?? ws.config.reflect.git.authorEmail;
  const indexFile = path.join(stateDir(ws), "commit-index");
  await mkdir(path.dirname(indexFile), { recursive: true });
  await rm(indexFile, { force: true });
  const env = { GIT_INDEX_FILE: indexFile };
  // A split index (core.splitIndex, feature.manyFiles) would leave a shared index file of the
  // whole repository's size in .git for every run's private index, kept there for two weeks.
  const run = (args: string[], input?: string) =>
    runGit(["-c", "core.splitIndex=false", ...args], {
      cwd: repo.top,
      env,
      detached: true,
      ...(input === undefined ? {} : { input }),
    });
  try {
    await run(state.kind === "normal" ? ["read-tree", state.head] : ["read-tree", "--empty"]);
    // core.safecrlf refuses an LF page in a repository whose checkouts are CRLF (core.autocrlf,
    // eol=crlf): the blob is what `git add` would store either way, the refusal only a warning
    // made fatal, and a Windows user's settings must not stop membank's commit every night.
    // core.fileMode=false: a page keeps HEAD's mode (a new one 100644), not an executable bit of the user's.
    const add = ["-c", "core.safecrlf=false", "-c", "core.fileMode=false", "update-index", "--add", "-z", "--stdin"];
    await run(add, nulList(topPaths));
    const tree = (await run(["write-tree"])).stdout.trim();
    if (state.kind === "normal" && headTree === tree) return undefined;
    // The entries for the user's index are read while git writes the commit object.
    const entriesRead = behind.size > 0 ? indexEntries(run, behind) : Promise.resolve(new Map<string, string>());
    const ident = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
    };
    const commitWritten = runGit(
      [
        "-c",
        `user.name=${name}`,
        "-c",
        `user.email=${email}`,
        "-c",
        "commit.gpgsign=false",
        // The message is UTF-8: a repository set to another i18n.commitEncoding would label it wrongly.
        "-c",
        "i18n.commitEncoding=UTF-8",
        "commit-tree",
        tree,
        ...(state.kind === "normal" ? ["-p", state.head] : []),
        "-F",
        "-",
      ],
      { cwd: repo.top, env: ident, input: message, detached: true },
    );
    const [entries, written] = await Promise.all([entriesRead, commitWritten]);
    const commit = written.stdout.trim();
    // Before HEAD moves: the next run must bring the user's index in line if we die after.
    await appendPendingWrites(ws, [{ sync: topPaths, commit }]);
    const old = state.kind === "normal" ? state.head : "0".repeat(commit.length);
    const subject = message.split("\n", 1)[0]?.slice(0, 200) ?? "membank";
    try {
      await run(["update-ref", "-m", `commit (membank): ${subject}`, "HEAD", commit, old]);
    } catch (error) {
      const moved = await runGit(["rev-parse", "-q", "--verify", "HEAD"], { cwd: repo.top, okCodes: [1] });
      const now = moved.stdout.trim();
      if (now !== commit) {
        // HEAD still where it was: git itself said no (a reference-transaction hook, a
        // permission); only a HEAD at another commit means someone committed meanwhile.
        const still = state.kind === "normal" ? now === state.head : now === "";
        const why =
          (error as MembankError).code === GIT_SIGNAL
            ? (error as Error).message
            : still
              ? `git refused to move HEAD (${updateRefReason((error as Error).message)})`
              : "HEAD moved while membank was committing";
        throw new MembankError(
          `${why}: nothing was committed; membank's pages stay pending and the next run commits them`,
          { code: (error as MembankError).code ?? "EGIT" },
        );
      }
    }
    try {
      await syncCommitted(repo, behind, entries);
      return { commit, synced: true };
    } catch {
      return { commit, synced: false };
    }
  } finally {
    await rm(indexFile, { force: true });
  }
}

/**
 * Throws (exit code 5) when the workspace's repository is in the middle of a merge, rebase,
 * cherry-pick, revert or bisect, or on a detached HEAD: membank then writes and commits
 * nothing, and the next run in a normal state catches up. No repository: nothing to check.
 */
export async function assertGitCanCommit(ws: Workspace): Promise<void> {
  const repo = await repoInfo(ws.root);
  if (!repo) return;
  const state = await gitState(repo);
  if (state.kind === "busy") throw gitBusyError(repo, state);
}
