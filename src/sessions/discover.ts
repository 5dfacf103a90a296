import { readdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface SessionFile {
  /** Path relative to the sessions folder, `/` separators: the key of the ingestion state. */
  key: string;
  absPath: string;
  sessionId: string;
  agent?: string;
}

/** `~/x` and workspace-relative paths as users write them in config. */
export function resolveSessionsDir(dir: string, workspaceRoot: string): string {
  if (dir === "~" || dir.startsWith("~/")) return path.join(os.homedir(), dir.slice(1));
  return path.resolve(workspaceRoot, dir);
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
    if (!name.endsWith(".jsonl") || name.startsWith(".")) continue;
    try {
      if ((await stat(path.join(dir, name))).isFile()) out.push(name);
    } catch {
      // vanished between readdir and stat
    }
  }
  return out.sort();
}

/**
 * Session transcripts under `dir`: `*.jsonl` directly in it (a plain folder of sessions), and
 * the OpenClaw agents layout `<dir>/<agentId>/sessions/*.jsonl`. Sorted by key.
 */
export async function findSessionFiles(dir: string): Promise<SessionFile[]> {
  const out: SessionFile[] = [];
  for (const name of await jsonlIn(dir)) {
    out.push({ key: name.replace(/`/g, "'"), absPath: path.join(dir, name), sessionId: name.slice(0, -6) });
  }
  let agents: string[] = [];
  try {
    agents = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith("."))
      .map((d) => d.name)
      .sort();
  } catch {
    agents = [];
  }
  for (const agent of agents) {
    for (const name of await jsonlIn(path.join(dir, agent, "sessions"))) {
      out.push({
        key: `${agent}/sessions/${name}`.replace(/`/g, "'"),
        absPath: path.join(dir, agent, "sessions", name),
        sessionId: name.slice(0, -6),
        agent,
      });
    }
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Heartbeat and cron sessions are noise: skip a file whose agent or session id contains an excluded word. */
export function isExcluded(file: SessionFile, exclude: readonly string[]): boolean {
  const hay = `${file.agent ?? ""}/${file.sessionId}`.toLowerCase();
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
