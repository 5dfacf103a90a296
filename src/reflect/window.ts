import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { collectFacts, dateFromPath, type LogInput, readLog } from "../retain/index.js";
import type { RetainResult } from "../retain/types.js";
import { isDailyLog } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";

/**
 * The facts of the daily logs dated `since` or later: the same result as
 * `readFacts(ws, { since })`, but found with directory listings only (no stat of every
 * older log), so the nightly run on years of logs does not pay for history it does not
 * read. Returns undefined when memory/ holds a symbolic link: then readFacts, which
 * follows links safely, does the work.
 */
export async function readWindowFacts(
  ws: Workspace,
  since: string,
): Promise<(RetainResult & { files: number }) | undefined> {
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
      } else if (entry.isFile() && isDailyLog(child)) {
        const date = dateFromPath(child);
        if (date !== undefined && date >= since) logs.push(child);
      }
    }
    return true;
  };
  if (!(await walk("memory"))) return undefined;
  const texts: LogInput[] = [];
  for (const rel of logs) texts.push(await readLog(rel, path.join(ws.root, rel)));
  return { ...collectFacts(texts, ws.config.retain.defaultConfidence), files: logs.length };
}
