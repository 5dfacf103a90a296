import { logDate } from "../markdown/log-path.js";
import { sessionMemoryId } from "../markdown/openclaw-lines.js";
import { digestedSessions, holdingDigest } from "../sessions/held.js";
import { listMemoryFiles } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { type ProseLog, scanProse } from "./prose.js";
import { lowerWords } from "./prose-uses.js";

/**
 * The logs' prose names. A /new copy of a chat a digest holds (sessions/held.ts) has none: the
 * chat is read once, from the digest, so a name said once in it is one log, not two, and no
 * line of it is cited twice. Every digest is read for it, not only the window's: the digest
 * of a chat is dated on or before its copy, so a run reading the copy may not read the digest,
 * and a run reading a new digest reads every copy after it.
 */
export async function scanLogs(ws: Workspace, logs: readonly { path: string; text: string }[]): Promise<ProseLog[]> {
  const out: ProseLog[] = [];
  let digested: Map<string, string> | undefined;
  for (const log of logs) {
    const date = logDate(log.path);
    if (date === undefined) continue;
    if (sessionMemoryId(log.text) !== undefined) {
      digested ??= await digestedSessions(await listMemoryFiles(ws));
      if (holdingDigest(log.text, digested) !== undefined) {
        out.push({ path: log.path, date, lines: [] });
        continue;
      }
    }
    out.push({ path: log.path, date, lines: scanProse(log.text), w: lowerWords(log.text) });
  }
  return out;
}
