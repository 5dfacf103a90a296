import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import type { RunRecord } from "./types.js";

export function runsDir(ws: Workspace): string {
  return path.join(stateDir(ws), "runs");
}

/** A file-name-safe, sortable id: the start time in UTC (`2026-11-22T03-00-00-123Z`). */
export function runId(start: Date): string {
  return start.toISOString().replace(/[:.]/g, "-");
}

export function runRecordPath(ws: Workspace, id: string): string {
  return path.join(runsDir(ws), `${id}.json`);
}

/** Atomic: a reader (or a crash) sees the previous record or this one, never half. */
export async function writeRunRecord(ws: Workspace, record: RunRecord): Promise<string> {
  const file = runRecordPath(ws, record.id);
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

/** Run records, oldest first. Unreadable files are skipped. */
export async function listRunRecords(ws: Workspace): Promise<RunRecord[]> {
  let names: string[];
  try {
    names = (await readdir(runsDir(ws))).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  return readRecords(ws, names);
}

/**
 * Records still "running" when we hold the workspace lock belong to a process that died
 * (killed, power loss): mark them interrupted so the history tells the truth.
 */
export async function markInterruptedRuns(ws: Workspace, except: string): Promise<number> {
  let n = 0;
  for (const r of await listRunRecords(ws)) {
    if (r.status !== "running" || r.id === except) continue;
    r.status = "interrupted";
    for (const s of r.steps) if (s.status === "running") s.status = "failed";
    r.error ??= { message: "the process ended before the run finished (killed or crashed)" };
    await writeRunRecord(ws, r);
    n++;
  }
  return n;
}

/**
 * Start time (epoch ms) of the newest run of `pipeline` that finished ("done" or "nothing"),
 * other than `except`. Reads records newest first and stops at the first match.
 */
export async function lastCompletedRunStart(
  ws: Workspace,
  pipeline: string,
  except?: string,
): Promise<number | undefined> {
  let names: string[];
  try {
    names = (await readdir(runsDir(ws)))
      .filter((n) => n.endsWith(".json"))
      .sort()
      .reverse();
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const r = JSON.parse(await readFile(path.join(runsDir(ws), name), "utf8")) as RunRecord;
      if (r.id !== except && r.pipeline === pipeline && (r.status === "done" || r.status === "nothing")) {
        return Date.parse(r.startedAt);
      }
    } catch {
      // skip unreadable records
    }
  }
  return undefined;
}

/** How many run records `.memory/runs/` keeps (a year of nightly runs is 365 files otherwise, read on every run). */
export const KEEP_RUN_RECORDS = 100;

/**
 * Delete all but the newest `keep` run records. The newest finished run of each pipeline is
 * always kept: the next nightly run starts its incremental window from it. Returns the
 * deleted file names.
 */
export async function pruneRunRecords(ws: Workspace, keep = KEEP_RUN_RECORDS): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(runsDir(ws))).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  if (names.length <= keep) return [];
  const old = names.slice(0, names.length - keep);
  const needed = new Set<string>();
  const finished = new Set<string>();
  // Pipelines whose newest finished run is among the kept records need nothing older.
  for (const r of await readRecords(ws, names.slice(names.length - keep))) {
    if (r.status === "done" || r.status === "nothing") finished.add(r.pipeline);
  }
  const older = await readRecords(ws, old);
  for (let i = older.length - 1; i >= 0; i--) {
    const r = older[i]!;
    if ((r.status === "done" || r.status === "nothing") && !finished.has(r.pipeline)) {
      finished.add(r.pipeline);
      needed.add(`${r.id}.json`);
    }
  }
  const removed: string[] = [];
  for (const name of old) {
    if (needed.has(name)) continue;
    await rm(path.join(runsDir(ws), name), { force: true });
    removed.push(name);
  }
  return removed;
}

async function readRecords(ws: Workspace, names: readonly string[]): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for (const name of names) {
    try {
      out.push(JSON.parse(await readFile(path.join(runsDir(ws), name), "utf8")) as RunRecord);
    } catch {
      // a foreign or damaged file: not ours to judge
    }
  }
  return out;
}
