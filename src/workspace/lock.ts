import fs from "node:fs";
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";
import { MembankError } from "./errors.js";
import { processAlive } from "./pid.js";
import { ensureStateDir, stateDir, type Workspace } from "./workspace.js";

/** Exit code of a command that could not take the workspace lock (another run holds it). */
export const LOCKED_EXIT_CODE = 4;

/** Who holds the lock: written into the lock directory right after it is taken. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  since: string;
  /** What the holder is doing, e.g. `run nightly`. */
  purpose: string;
}

export interface WorkspaceLock {
  /** The lock directory (`.memory/lock`). */
  readonly path: string;
  readonly owner: LockOwner;
  /** True once the lock was lost (its directory removed or not refreshed in time): stop writing. */
  readonly compromised: boolean;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a held lock before giving up, in ms. Default 0: fail at once. */
  waitMs?: number;
  /** What the holder is doing, shown to whoever finds the lock held. */
  purpose?: string;
  /** A lock not refreshed for this long (ms) is stale even if its pid looks alive (other host, hung). Default 30 s. */
  staleMs?: number;
  /** Called once when a lock left by a dead process is removed. */
  onStaleRecovered?: (owner: LockOwner | undefined) => void;
}

const OWNER_FILE = "owner.json";

/** Path of the workspace lock directory. */
export function lockPath(ws: Workspace): string {
  return path.join(stateDir(ws), "lock");
}

/**
 * proper-lockfile locks with `mkdir` and removes with `rmdir`; our owner file lives inside the
 * lock directory (so it can never describe a previous holder), so removal must be recursive.
 */
const lockFs = {
  ...fs,
  rmdir: (p: string, cb: (err: NodeJS.ErrnoException | null) => void) =>
    fs.rm(p, { recursive: true, force: false }, (err) => cb(err)),
  rmdirSync: (p: string) => fs.rmSync(p, { recursive: true, force: false }),
};

/** The current holder of the workspace lock, if any (undefined also when the owner file is not written yet). */
export function readLockOwner(ws: Workspace): Promise<LockOwner | undefined> {
  return readOwnerFile(lockPath(ws));
}

async function readOwnerFile(dir: string): Promise<LockOwner | undefined> {
  try {
    const raw = JSON.parse(await readFile(path.join(dir, OWNER_FILE), "utf8")) as LockOwner;
    return typeof raw.pid === "number" ? raw : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A taker marks itself next to the lock (`lock.taking-<host>-<pid>`) from just before its
 * `mkdir` until its owner file is written: a lock directory without an owner file is then
 * being taken by a live process only while such a mark of a live pid exists. Without one, its
 * taker was killed between `mkdir` and the owner file, or its holder during release: stale.
 */
const TAKING = ".taking-";

function takingMark(lockDir: string): string {
  return `${lockDir}${TAKING}${os.hostname()}-${process.pid}`;
}

/** Marks of takers other than this process: `live` when one may be taking the lock now. */
async function otherTakers(lockDir: string): Promise<{ live: boolean; dead: string[] }> {
  const prefix = `${path.basename(lockDir)}${TAKING}`;
  const mine = path.basename(takingMark(lockDir));
  const dead: string[] = [];
  let live = false;
  for (const name of await readdir(path.dirname(lockDir)).catch(() => [] as string[])) {
    if (!name.startsWith(prefix) || name === mine) continue;
    const rest = name.slice(prefix.length);
    const dash = rest.lastIndexOf("-");
    const pid = Number(rest.slice(dash + 1));
    if (rest.slice(0, dash) === os.hostname() && Number.isInteger(pid) && !processAlive(pid)) {
      dead.push(path.join(path.dirname(lockDir), name));
    } else live = true;
  }
  return { live, dead };
}

/**
 * A lock whose owner is a dead process on this host is stale; so is one without an owner
 * file when no live taker is marked (see TAKING). Otherwise only the mtime rule of
 * proper-lockfile can declare it stale.
 */
async function removeIfDead(ws: Workspace, onStale?: (owner: LockOwner | undefined) => void): Promise<boolean> {
  const dir = lockPath(ws);
  const owner = await readLockOwner(ws);
  if (owner && (owner.hostname !== os.hostname() || processAlive(owner.pid))) return false;
  if (!owner && (await otherTakers(dir)).live) return false;
  // Rename first so that two waiters cannot both remove: only one rename succeeds.
  const grave = `${dir}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(dir, grave);
  } catch {
    return false;
  }
  // Between the check and the rename another waiter may have recovered the lock and a live
  // process taken it: if the directory we moved is not the dead one, put it back.
  const moved = await readOwnerFile(grave);
  const same = owner ? moved?.pid === owner.pid && moved.since === owner.since : !moved;
  const takers = same && !owner ? await otherTakers(dir) : undefined;
  if (!same || takers?.live) {
    await rename(grave, dir).catch(() => undefined);
    return false;
  }
  await rm(grave, { recursive: true, force: true });
  for (const mark of takers?.dead ?? []) await rm(mark, { force: true });
  onStale?.(owner);
  return true;
}

function describe(owner: LockOwner | undefined, dir: string): string {
  if (!owner) return `another membank process is taking the lock ${dir}`;
  const where = owner.hostname === os.hostname() ? "" : ` on host ${owner.hostname}`;
  return `locked by pid ${owner.pid}${where} (${owner.purpose}, since ${owner.since}); lock ${dir}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Take the cross-process lock of a workspace (`.memory/lock`), so a cron run, a manual run and
 * a second scheduler never work on the same workspace at once. A lock left by a killed process
 * is recovered: at once when its pid is dead on this host, otherwise once it has not been
 * refreshed for `staleMs`. Throws a MembankError (exit code 4) naming the holder when the lock
 * stays held past `waitMs`.
 */
export async function acquireWorkspaceLock(ws: Workspace, opts: LockOptions = {}): Promise<WorkspaceLock> {
  const dir = stateDir(ws);
  ensureStateDir(dir);
  const lockDir = lockPath(ws);
  const deadline = Date.now() + Math.max(0, opts.waitMs ?? 0);
  const staleMs = Math.max(2000, opts.staleMs ?? 30_000);
  let compromised = false;
  for (;;) {
    let release: (() => Promise<void>) | undefined;
    const mark = takingMark(lockDir);
    await writeFile(mark, "");
    try {
      release = await lockfile.lock(dir, {
        lockfilePath: lockDir,
        realpath: false,
        stale: staleMs,
        update: Math.min(5000, staleMs / 2),
        retries: 0,
        fs: lockFs,
        onCompromised: () => {
          compromised = true;
        },
      });
    } catch (error) {
      await rm(mark, { force: true });
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
      if (await removeIfDead(ws, opts.onStaleRecovered)) continue;
      if (Date.now() >= deadline) {
        throw new MembankError(`Workspace ${ws.root} is busy: ${describe(await readLockOwner(ws), lockDir)}.`, {
          code: "ELOCKED",
          exitCode: LOCKED_EXIT_CODE,
        });
      }
      await sleep(Math.min(250, Math.max(10, deadline - Date.now())));
      continue;
    }
    const owner: LockOwner = {
      pid: process.pid,
      hostname: os.hostname(),
      since: new Date().toISOString(),
      purpose: opts.purpose ?? "membank",
    };
    // Adding the owner file changes the directory's mtime, which proper-lockfile checks on each
    // refresh to detect a takeover: put the mtime it set back.
    const before = await stat(lockDir);
    await writeFile(path.join(lockDir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
    await utimes(lockDir, before.atime, before.mtime);
    await rm(mark, { force: true });
    const doRelease = release;
    let released = false;
    return {
      path: lockDir,
      owner,
      get compromised() {
        return compromised;
      },
      async release() {
        if (released) return;
        released = true;
        try {
          await doRelease();
        } catch (error) {
          if (!["ERELEASED", "ENOTACQUIRED", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) {
            throw error;
          }
          // A compromised lock is forgotten by proper-lockfile; if the directory is still ours, remove it.
          const still = await readOwnerFile(lockDir);
          if (still && still.pid === owner.pid && still.since === owner.since) {
            await rm(lockDir, { recursive: true, force: true });
          }
        }
      },
    };
  }
}

/** Is the workspace locked right now (by a live holder)? */
export async function isWorkspaceLocked(ws: Workspace): Promise<boolean> {
  try {
    await stat(lockPath(ws));
  } catch {
    return false;
  }
  const owner = await readLockOwner(ws);
  if (owner && owner.hostname === os.hostname() && !processAlive(owner.pid)) return false;
  return true;
}
