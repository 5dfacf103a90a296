import { readFile } from "node:fs/promises";
import { logDate } from "../markdown/log-path.js";
import { sessionMemoryId } from "../markdown/openclaw-lines.js";
import { digestSessionIds, isDigestPath } from "./digest.js";

/**
 * Which digest holds the chat of a session-memory file OpenClaw wrote on /new: the one rule,
 * for extraction (llm/past-logs.ts) and for prose names (reflect/load.ts). The copy holds a
 * chat's last messages; a digest of OpenClaw's store (`memory/YYYY-MM-DD-sessions.md`) holds
 * the chat whole, so a copy whose Session ID a digest's `## Session` heading names is that
 * chat again, read from the digest.
 */

/** The sessions the workspace's digests hold: id -> the first digest by path (`files` in path order). */
export async function digestedSessions(
  files: readonly { path: string; absPath: string }[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const digests = files.filter((f) => isDigestPath(f.path) && logDate(f.path) !== undefined);
  // 16 at a time (years of digests on a busy disk), taken in path order.
  for (let i = 0; i < digests.length; i += 16) {
    const batch = digests.slice(i, i + 16);
    const texts = await Promise.all(batch.map((f) => readFile(f.absPath, "utf8").catch(() => "")));
    batch.forEach((f, j) => {
      for (const id of digestSessionIds(texts[j]!)) if (!out.has(id)) out.set(id, f.path);
    });
  }
  return out;
}

/** The chat a /new copy's text copies and the digest holding it, or undefined (any other log, a chat no digest holds). */
export function holdingDigest(
  text: string,
  digested: ReadonlyMap<string, string>,
): { session: string; digest: string } | undefined {
  const session = sessionMemoryId(text);
  const digest = session === undefined ? undefined : digested.get(session);
  return digest === undefined ? undefined : { session: session!, digest };
}
