import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Workspace } from "../workspace/workspace.js";

/** write-file-atomic's temp files: `<name>.<uint32>` beside the target. */
const TEMP_RE = /\.(?:md|json)\.\d{1,10}$/;
/** A temp file younger than this may belong to a writer that is still running (an agent). */
const MIN_AGE_MS = 60_000;

/**
 * A process killed in the middle of an atomic write leaves its temp file behind (the target
 * itself is whole). Under the workspace lock, temp files of memory/, bank/ and .memory/ older
 * than a minute are such leftovers: remove them so they never end up in a commit.
 */
export async function removeStaleTempFiles(ws: Workspace, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  async function walk(dir: string): Promise<void> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "lock" && e.name !== "models") await walk(abs);
      } else if (e.isFile() && TEMP_RE.test(e.name)) {
        try {
          if (now - (await stat(abs)).mtimeMs < MIN_AGE_MS) continue;
          await rm(abs, { force: true });
          removed.push(path.relative(ws.root, abs).split(path.sep).join("/"));
        } catch {
          // gone meanwhile
        }
      }
    }
  }
  for (const top of ["memory", "bank", ".memory"]) await walk(path.join(ws.root, top));
  return removed.sort();
}
