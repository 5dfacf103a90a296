import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type CommitResult, commitPending } from "../reflect/git.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { MembankError } from "../workspace/errors.js";
import { type RepoInfo, repoInfo } from "../workspace/git.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

/** The repository's git dir (absolute), or undefined when the workspace is not in a repository. */
export async function gitDir(ws: Workspace): Promise<string | undefined> {
  return (await repoInfo(ws.root))?.gitDir;
}

function markerPath(ws: Workspace): string {
  return path.join(stateDir(ws), "commit-in-progress.json");
}

/** Written just before the pipeline runs git commit, removed after: proof that a leftover index.lock is ours. */
export async function markCommitStart(ws: Workspace): Promise<void> {
  await writeFileAtomic(markerPath(ws), `${JSON.stringify({ pid: process.pid, at: Date.now() })}\n`);
}

export async function markCommitEnd(ws: Workspace): Promise<void> {
  await rm(markerPath(ws), { force: true });
}

/**
 * A run killed inside git leaves `.git/index.lock`, and every later git command refuses to
 * run. It is removed only when it is provably ours: our commit marker exists (the killed run
 * was committing; we hold the workspace lock, so that run is dead) and the lock file is not
 * older than the marker. Any other index.lock belongs to someone's git: we stop with a
 * message saying so. Returns a note when a lock was recovered. `repo`: the repository when
 * already looked up (null: none).
 */
export async function recoverIndexLock(ws: Workspace, repo?: RepoInfo | null): Promise<string | undefined> {
  const dir = repo === undefined ? await gitDir(ws) : repo?.gitDir;
  if (!dir) return undefined;
  const lockFile = path.join(dir, "index.lock");
  let lockInfo: Awaited<ReturnType<typeof stat>>;
  try {
    lockInfo = await stat(lockFile);
  } catch {
    await markCommitEnd(ws);
    return undefined;
  }
  let marker: { pid: number; at: number } | undefined;
  try {
    marker = JSON.parse(await readFile(markerPath(ws), "utf8")) as { pid: number; at: number };
  } catch {
    marker = undefined;
  }
  // 2 s of slack for file systems with coarse mtimes.
  if (marker && marker.pid !== process.pid && lockInfo.mtimeMs >= marker.at - 2000) {
    await rm(lockFile, { force: true });
    await markCommitEnd(ws);
    return `removed ${lockFile} left by an interrupted membank commit (pid ${marker.pid})`;
  }
  throw new MembankError(
    `${lockFile} exists: another git command is running in this repository, or one crashed. ` +
      "If no git command is running, remove that file and run again.",
    { code: "EGITLOCK" },
  );
}

/**
 * A run's commit of the files membank wrote (commitPending), between the markers that let a
 * later run remove an index.lock this one leaves if killed inside git; first it removes one
 * left by a killed run (`recovered` says so).
 */
export async function commitRun(
  ws: Workspace,
  message: (committed: string[]) => string,
): Promise<CommitResult & { recovered?: string }> {
  const repo = await repoInfo(ws.root);
  const recovered = await recoverIndexLock(ws, repo ?? null);
  await markCommitStart(ws);
  const r = await commitPending(ws, message, repo ? { repo } : {});
  await markCommitEnd(ws);
  return recovered ? { ...r, recovered } : r;
}
