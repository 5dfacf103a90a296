import { readdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface SessionFile {
  /** Path relative to the sessions folder, `/` separators: the key of the ingestion state. */
  key: string;
  absPath: string;
  sessionId: string;
  agent?: string;
  /**
   * The session's transcript key the digest cites, when it differs from `key`: an OpenClaw
   * archive (`<id>.jsonl.reset.<ts>`) holds the same events as `<agent>/sessions/<id>.jsonl`,
   * line for line, so both merge into one digest entry.
   */
  transcript?: string;
  /** zstd-compressed (`.zst`): read whole, decompressed, instead of streamed from a byte offset. */
  zstd?: boolean;
  /** The content, when it lives in OpenClaw's store rather than in a file (absPath then names the store). */
  blob?: { size: number; read: () => Buffer };
}

/**
 * OpenClaw's archives of a transcript: `<sessionId>.jsonl.reset.<ts>` and
 * `<sessionId>.jsonl.deleted.<ts>[.<generation>][.zst]` (see openclaw-store.ts).
 */
const ARCHIVE_RE = /^(.+?)\.jsonl\.(?:reset|deleted)\.[^/]+$/;

export function archiveSessionId(name: string): string | undefined {
  return ARCHIVE_RE.exec(name)?.[1];
}

/** A path as users write it in config or the environment: `~` and `~/x` under `home`, else resolved against `base`. */
export function expandHome(p: string, home: string, base = process.cwd()): string {
  return p === "~" || p.startsWith("~/") ? path.join(home, p.slice(1)) : path.resolve(base, p);
}

/** `~/x` and workspace-relative paths as users write them in config. */
export function resolveSessionsDir(dir: string, workspaceRoot: string, home = os.homedir()): string {
  return expandHome(dir, home, workspaceRoot);
}

async function jsonlIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (!(name.endsWith(".jsonl") || archiveSessionId(name) !== undefined) || name.startsWith(".")) continue;
    try {
      if ((await stat(path.join(dir, name))).isFile()) out.push(name);
    } catch {
      // vanished between readdir and stat
    }
  }
  return out.sort();
}

function sessionFile(dir: string, name: string, key: string, agent?: string): SessionFile {
  const archived = archiveSessionId(name);
  const f: SessionFile = {
    key: key.replace(/`/g, "'"),
    absPath: path.join(dir, name),
    sessionId: archived ?? name.slice(0, -6),
  };
  if (agent !== undefined) f.agent = agent;
  if (archived !== undefined) {
    f.transcript = transcriptKey(archived, agent);
    if (name.endsWith(".zst")) f.zstd = true;
  }
  return f;
}

/** The digest key of a session's transcript: `<agent>/sessions/<id>.jsonl`, or `<id>.jsonl` in a plain folder. */
export function transcriptKey(sessionId: string, agent?: string): string {
  return (agent === undefined ? `${sessionId}.jsonl` : `${agent}/sessions/${sessionId}.jsonl`).replace(/`/g, "'");
}

/** The agent folders of an OpenClaw agents dir (not hidden), sorted; none when it cannot be read. */
export async function agentFolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith("."))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Session transcripts under `dir`: `*.jsonl` directly in it (a plain folder of sessions), and
 * the OpenClaw agents layout `<dir>/<agentId>/sessions/*.jsonl`. Sorted by key.
 */
export async function findSessionFiles(dir: string): Promise<SessionFile[]> {
  const out: SessionFile[] = [];
  for (const name of await jsonlIn(dir)) out.push(sessionFile(dir, name, name));
  for (const agent of await agentFolders(dir)) {
    for (const name of await jsonlIn(path.join(dir, agent, "sessions"))) {
      out.push(sessionFile(path.join(dir, agent, "sessions"), name, `${agent}/sessions/${name}`, agent));
    }
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Heartbeat and cron sessions are noise: skip a session whose agent, session id or OpenClaw
 * session key (`agent:main:cron:nightly`) contains an excluded word.
 */
export function isExcluded(
  file: { agent?: string; sessionId: string },
  exclude: readonly string[],
  sessionKey?: string,
): boolean {
  const hay = `${file.agent ?? ""}/${file.sessionId}/${sessionKey ?? ""}`.toLowerCase();
  return exclude.some((word) => word !== "" && hay.includes(word.toLowerCase()));
}

/**
 * OpenClaw heartbeat polls ("... reply HEARTBEAT_OK") and their acks carry no memory; when
 * "heartbeat" is in sessions.exclude they are dropped even inside ordinary sessions.
 */
export function isHeartbeatMessage(text: string): boolean {
  const t = text.trim();
  return t === "HEARTBEAT_OK" || (t.includes("HEARTBEAT.md") && t.includes("HEARTBEAT_OK"));
}
