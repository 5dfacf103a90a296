import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { errorCode } from "../workspace/errors.js";
import { processAlive } from "../workspace/pid.js";

/**
 * One index build at a time per index file, across processes: `<index>.build-lock`,
 * created exclusively and holding the builder's pid. A lock whose pid is dead (a killed
 * build) is taken over. The lock appears with its pid already in it (written to a file of
 * our own, then hard-linked into place, which fails if a lock exists): a build killed at
 * any instant never leaves an empty lock that nobody could identify. Two processes that find the index needing a rebuild (a schema
 * change, a first build) thus never build it twice at once: the second one waits and
 * then uses the first one's result, or (a reader) answers from the previous index.
 */
export interface BuildLock {
  release(): void;
}

const lockFile = (indexFile: string) => `${indexFile}.build-lock`;

/** Take the build lock now, or say who holds it (a live pid). */
export function tryBuildLock(indexFile: string): BuildLock | { heldBy: number } {
  const file = lockFile(indexFile);
  const mine = `${file}.${process.pid}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    writeFileSync(mine, String(process.pid));
    try {
      placeLock(mine, file);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
      const pid = holder(file);
      if (pid !== undefined && processAlive(pid)) return { heldBy: pid };
      // Its builder is gone (or it was removed meanwhile): take it over.
      rmSync(file, { force: true });
      continue;
    } finally {
      rmSync(mine, { force: true });
    }
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      },
    };
  }
  return { heldBy: -1 };
}

/** Hard-link our pid file into place; where the file system has no hard links, create it exclusively. */
function placeLock(mine: string, file: string): void {
  try {
    linkSync(mine, file);
  } catch (error) {
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(errorCode(error) ?? "")) throw error;
    writeFileSync(file, String(process.pid), { flag: "wx" });
  }
}

/** The pid in a lock file; undefined when there is none (or no readable pid: never a live builder's). */
function holder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wait until no live process holds the build lock (or `maxMs` passed). Returns true when
 * it is free.
 */
export async function waitForBuild(indexFile: string, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const pid = holder(lockFile(indexFile));
    if (pid === undefined || !processAlive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}
