import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import { collectFacts, type LogInput, readLog } from "../retain/index.js";
import type { LogsRead } from "../retain/types.js";
import { memoryFileRefusal } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";

/**
 * The facts of the daily logs dated `since` or later: the same result as
 * `readFacts(ws, { since })`, but found with directory listings only (no stat of every
 * older log), so the nightly run on years of logs does not pay for history it does not
 * read. Returns undefined when memory/ is or holds a symbolic link, or a log in the window
 * is one the listing leaves out (memoryFileRefusal: a hard link): then readFacts, which
 * reads exactly the files of the one listing (scanMemoryFiles), does the work.
 */
export async function readWindowFacts(
  ws: Workspace,
  since: string,
): Promise<(LogsRead & { logs: LogInput[] }) | undefined> {
  const logs: string[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(ws.root, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const child = `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) return false;
      if (entry.isDirectory()) {
        if (!(await walk(child))) return false;
      } else if (entry.isFile()) {
        const date = logDate(child);
        if (date !== undefined && date >= since) logs.push(child);
      }
    }
    return true;
  };
  try {
    // readdir follows a linked memory/ itself, wherever it points.
    if ((await lstat(path.join(ws.root, "memory"))).isSymbolicLink()) return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (!(await walk("memory"))) return undefined;
  const texts: LogInput[] = [];
  for (const rel of logs) {
    const abs = path.join(ws.root, rel);
    if (memoryFileRefusal(rel, await stat(abs)) !== undefined) return undefined;
    texts.push(await readLog(rel, abs));
  }
  return { ...collectFacts(texts, ws.config.retain.defaultConfidence), files: logs.length, logs: texts };
}
