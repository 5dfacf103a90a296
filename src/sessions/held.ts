import { readFile } from "node:fs/promises";
import { logDate } from "../markdown/log-path.js";
import { sessionMemoryId } from "../markdown/openclaw-lines.js";
import { digestSessionIds } from "./digest.js";

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
  for (const f of files) {
    if (!/-sessions\.md$/i.test(f.path) || logDate(f.path) === undefined) continue;
    const text = await readFile(f.absPath, "utf8").catch(() => "");
    for (const id of digestSessionIds(text)) if (!out.has(id)) out.set(id, f.path);
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
