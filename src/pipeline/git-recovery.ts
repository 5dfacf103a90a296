import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type CommitResult, commitPending } from "../reflect/git.js";
import { earlierRunText, withEarlierRuns } from "../reflect/message.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { MembankError } from "../workspace/errors.js";
import { type RepoInfo, repoInfo } from "../workspace/git.js";
import { readPendingWrites } from "../workspace/owned.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

/** The repository's git dir (absolute), or undefined when the workspace is not in a repository. */
export async function gitDir(ws: Workspace): Promise<string | undefined> {
  return (await repoInfo(ws.root))?.gitDir;
}

function markerPath(ws: Workspace): string {
  return path.join(stateDir(ws), "commit-in-progress.json");
}

/**
 * Written just before the pipeline runs git commit, removed after: proof that a leftover
 * index.lock is ours. Not fsynced (two fsyncs, ~16 ms of wall each on a busy disk): a kill
 * keeps it; a power loss may lose it, and then a leftover index.lock is reported to the user
 * instead of removed.
 */
export async function markCommitStart(ws: Workspace): Promise<void> {
  await writeFileAtomic(markerPath(ws), `${JSON.stringify({ pid: process.pid, at: Date.now() })}\n`, {
    durable: false,
  });
}

export async function markCommitEnd(ws: Workspace): Promise<void> {
  await rm(markerPath(ws), { force: true });
}

/** How long a run waits for someone else's index.lock to go before it says so and stops. */
const INDEX_LOCK_WAIT_MS = 5000;
const INDEX_LOCK_POLL_MS = 100;

async function readMarker(ws: Workspace): Promise<{ pid: number; at: number } | undefined> {
  try {
    return JSON.parse(await readFile(markerPath(ws), "utf8")) as { pid: number; at: number };
  } catch {
    return undefined;
  }
}

/** The lock is a killed membank commit's: our marker, of another process, not newer than the lock (2 s of slack for coarse mtimes). */
function isOurs(lock: { mtimeMs: number }, marker: { pid: number; at: number } | undefined): boolean {
  return marker !== undefined && marker.pid !== process.pid && lock.mtimeMs >= marker.at - 2000;
}

/**
 * A run killed inside git leaves `.git/index.lock`, and every later git command refuses to
 * run. It is removed only when it is provably ours: our commit marker exists (the killed run
 * was committing; we hold the workspace lock, so that run is dead) and the lock file is not
 * older than the marker. Any other index.lock belongs to someone's git: we wait up to
 * `waitMs` for it to go, then stop with a message saying so. Returns a note when a lock was recovered. `repo`: the repository when
 * already looked up (null: none).
 */
export async function recoverIndexLock(
  ws: Workspace,
  repo?: RepoInfo | null,
  waitMs = INDEX_LOCK_WAIT_MS,
): Promise<string | undefined> {
  const dir = repo === undefined ? await gitDir(ws) : repo?.gitDir;
  if (!dir) return undefined;
  const lockFile = path.join(dir, "index.lock");
  let lockInfo: Awaited<ReturnType<typeof stat>>;
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      lockInfo = await stat(lockFile);
    } catch {
      await markCommitEnd(ws);
      return undefined;
    }
    if (isOurs(lockInfo, await readMarker(ws)) || Date.now() >= until) break;
    // An editor's git (VS Code refreshing, a `git commit` whose editor is open) holds it for a
    // moment: wait for it rather than fail the night; a lock that stays is said below.
    await new Promise((r) => setTimeout(r, INDEX_LOCK_POLL_MS));
  }
  const marker = await readMarker(ws);
  if (marker && isOurs(lockInfo, marker)) {
    await rm(lockFile, { force: true });
    await markCommitEnd(ws);
    return `removed ${lockFile} left by an interrupted membank commit (pid ${marker.pid})`;
  }
  throw new MembankError(lockedMessage(lockFile, lockInfo.mtimeMs, Date.now()), { code: "EGITLOCK" });
}

/** A lock git has not touched for this long is a crashed or killed git's: no git command holds one that long. */
const STALE_LOCK_MS = 60 * 60 * 1000;

/** What to do about someone's index.lock: remove one a crashed git left long ago; wait out a fresh one. */
function lockedMessage(lockFile: string, mtimeMs: number, now: number): string {
  const since = new Date(mtimeMs).toISOString().replace(/\.\d+Z$/, "Z");
  return now - mtimeMs >= STALE_LOCK_MS
    ? `${lockFile} was left at ${since} by a git command that crashed or was killed (none holds it that long): ` +
        "membank committed nothing; remove that file and run again"
    : `${lockFile} exists: another git command is running in this repository, or one crashed (the lock is from ${since}). ` +
        "If no git command is running, remove that file and run again.";
}

/** Messages of runs whose commit did not go through, kept until a later run commits their pages. */
interface UncommittedRun {
  message: string;
  /** What the run wrote, as `path\u0000sha` of the pending journal: the entry holds while one is still pending. */
  writes: string[];
}

/** The journal's pending writes as `path\u0000sha` (a commit, by nightly or `membank reflect`, clears them). */
async function pendingWrites(ws: Workspace): Promise<{ path: string; key: string }[]> {
  return (await readPendingWrites(ws)).flatMap((l) =>
    "path" in l && typeof l.path === "string" ? [{ path: l.path, key: `${l.path}\u0000${l.sha}` }] : [],
  );
}

function uncommittedPath(ws: Workspace): string {
  return path.join(stateDir(ws), "uncommitted-runs.json");
}

async function readUncommittedRuns(ws: Workspace): Promise<UncommittedRun[]> {
  try {
    const raw = JSON.parse(await readFile(uncommittedPath(ws), "utf8")) as { runs?: unknown };
    if (!Array.isArray(raw.runs)) return [];
    return raw.runs.filter(
      (r): r is UncommittedRun =>
        typeof r?.message === "string" &&
        Array.isArray(r.writes) &&
        r.writes.every((f: unknown) => typeof f === "string"),
    );
  } catch {
    return []; // missing or unreadable: only the description of earlier runs is lost, never a page
  }
}

/** Keep this run's message for the run that will commit its pages; best effort (the pages stay pending either way). */
async function rememberRun(ws: Workspace, earlier: UncommittedRun[], run: UncommittedRun): Promise<void> {
  if (run.writes.length === 0 || earlier.some((e) => e.message === run.message)) return;
  try {
    await writeFileAtomic(uncommittedPath(ws), `${JSON.stringify({ runs: [...earlier, run] }, null, 2)}\n`);
  } catch {
    // the run fails with the commit's own error, which says what to do
  }
}

/**
 * A run's commit of the files membank wrote (commitPending), between the markers that let a
 * later run remove an index.lock this one leaves if killed inside git; first it removes one
 * left by a killed run (`recovered` says so). `wrote` are the files this run wrote: when the
 * commit fails, the run's message is kept, and the run that commits those files says what
 * they are (see withEarlierRuns).
 */
export async function commitRun(
  ws: Workspace,
  message: (committed: string[]) => string,
  wrote: readonly string[] = [],
): Promise<CommitResult & { recovered?: string }> {
  const pending = await pendingWrites(ws);
  const live = new Set(pending.map((w) => w.key));
  // Runs whose pages a commit of any kind has taken since are told no more.
  const earlier = (await readUncommittedRuns(ws)).filter((e) => e.writes.some((w) => live.has(w)));
  const compose = (files: string[]) => {
    const now = new Set(files);
    const told = earlier.filter((e) => e.writes.some((w) => now.has(w.slice(0, w.indexOf("\u0000")))));
    return withEarlierRuns(
      message(files),
      told.map((e) => e.message),
    );
  };
  let r: CommitResult;
  let recovered: string | undefined;
  try {
    const repo = await repoInfo(ws.root);
    recovered = await recoverIndexLock(ws, repo ?? null);
    await markCommitStart(ws);
    r = await commitPending(ws, compose, repo ? { repo } : {});
  } catch (error) {
    const files = [...new Set(wrote)].sort();
    const mine = new Set(files);
    const writes = (await pendingWrites(ws).catch(() => [])).filter((w) => mine.has(w.path)).map((w) => w.key);
    await rememberRun(ws, earlier, { message: earlierRunText(message(files)), writes });
    throw error;
  }
  await markCommitEnd(ws);
  // Committed, or nothing of theirs is pending any more (committed or kept by the user).
  await rm(uncommittedPath(ws), { force: true });
  return recovered ? { ...r, recovered } : r;
}
