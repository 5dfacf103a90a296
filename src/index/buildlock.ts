import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { errorCode } from "../workspace/errors.js";
import { processAlive } from "../workspace/pid.js";

/**
 * One index build at a time per index file, across processes: `<index>.build-lock`,
 * created exclusively and holding the builder's pid. A lock whose pid is dead (a killed
 * build) is taken over. Two processes that find the index needing a rebuild (a schema
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
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(file, "utf8"), 10);
      } catch {
        // removed meanwhile: try again
      }
      // An empty file is a lock being written this instant: treat as held.
      if (!Number.isInteger(pid) || processAlive(pid)) {
        if (Number.isInteger(pid)) return { heldBy: pid };
        continue;
      }
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wait until no live process holds the build lock (or `maxMs` passed). Returns true when
 * it is free.
 */
export async function waitForBuild(indexFile: string, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    let pid: number | undefined;
    try {
      pid = Number.parseInt(readFileSync(lockFile(indexFile), "utf8"), 10);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return true;
    }
    if (pid !== undefined && Number.isInteger(pid) && !processAlive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}
