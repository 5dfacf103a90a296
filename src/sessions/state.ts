import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

/** How far each session file has been ingested. Lives in `.memory/` (derived: losing it only costs a re-read, digests merge by line). */
export interface FileState {
  /** Lines ingested (the next run starts at line `lines + 1`). */
  lines: number;
  /** Byte offset matching `lines`. */
  bytes: number;
  /** Last timestamp seen, for messages without one. */
  lastTs?: number;
}

export interface SessionsState {
  version: 1;
  files: Record<string, FileState>;
}

export function sessionsStatePath(ws: Workspace): string {
  return path.join(stateDir(ws), "sessions-state.json");
}

export async function loadSessionsState(ws: Workspace): Promise<SessionsState> {
  try {
    const raw = JSON.parse(await readFile(sessionsStatePath(ws), "utf8")) as SessionsState;
    if (raw && raw.version === 1 && raw.files && typeof raw.files === "object") return raw;
  } catch {
    // missing or unreadable: start over (safe, see above)
  }
  return { version: 1, files: {} };
}

export async function saveSessionsState(ws: Workspace, state: SessionsState): Promise<void> {
  const files: Record<string, FileState> = {};
  for (const k of Object.keys(state.files).sort()) files[k] = state.files[k] as FileState;
  await writeFileAtomic(sessionsStatePath(ws), `${JSON.stringify({ version: 1, files }, null, 2)}\n`);
}
