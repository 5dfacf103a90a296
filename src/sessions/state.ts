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
  /** A zstd archive (or a store blob) read to its end: its compressed size, so it is not decompressed again. */
  done?: number;
}

/** How far a session in an OpenClaw store has been ingested: the last event seq consumed. */
export interface StoreCursor {
  seq: number;
  lastTs?: number;
}

export interface SessionsState {
  version: 1;
  files: Record<string, FileState>;
  /** Per `<agentId>/<sessionId>` of OpenClaw's session stores (absent in state files of older versions). */
  stores?: Record<string, StoreCursor>;
}

function sorted<T>(rec: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(rec).sort()) out[k] = rec[k] as T;
  return out;
}

export function sessionsStatePath(ws: Workspace): string {
  return path.join(stateDir(ws), "sessions-state.json");
}

export async function loadSessionsState(ws: Workspace): Promise<SessionsState> {
  try {
    const raw = JSON.parse(await readFile(sessionsStatePath(ws), "utf8")) as SessionsState;
    if (raw && raw.version === 1 && raw.files && typeof raw.files === "object") {
      if (!raw.stores || typeof raw.stores !== "object") raw.stores = {};
      return raw;
    }
  } catch {
    // missing or unreadable: start over (safe, see above)
  }
  return { version: 1, files: {}, stores: {} };
}

export async function saveSessionsState(ws: Workspace, state: SessionsState): Promise<void> {
  const out: SessionsState = { version: 1, files: sorted(state.files) };
  if (state.stores && Object.keys(state.stores).length > 0) out.stores = sorted(state.stores);
  await writeFileAtomic(sessionsStatePath(ws), `${JSON.stringify(out, null, 2)}\n`);
}
