import { readFileSync } from "node:fs";
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

/**
 * Atomic: a reader (or a crash) sees the previous record or this one, never half.
 * `durable: false` for the notes between steps (see AtomicWriteOptions): a power loss may
 * cost that note, never a finished run's record, and a kill costs nothing.
 */
export async function writeRunRecord(
  ws: Workspace,
  record: RunRecord,
  opts: { durable?: boolean } = {},
): Promise<string> {
  const file = runRecordPath(ws, record.id);
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, opts);
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
 * (killed, power loss): mark them interrupted so the history tells the truth. Only a record
 * whose text says "running" is parsed: every run reads all (up to KEEP_RUN_RECORDS) records
 * here, and parsing 100 finished ones was ~50 ms of CPU a night for nothing.
 */
export async function markInterruptedRuns(ws: Workspace, except: string): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(runsDir(ws))).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    let r: RunRecord;
    try {
      // Small files, read one by one: sync reads cost a fraction of awaited ones.
      const text = readFileSync(path.join(runsDir(ws), name), "utf8");
      if (!text.includes('"running"')) continue;
      r = JSON.parse(text) as RunRecord;
    } catch {
      continue; // a foreign or damaged file: not ours to judge
    }
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
 * deleted file names. Reads only what decides that: the records to delete, and of the kept
 * ones, newest first, as many as it takes to find a finished run of their pipelines (most
 * nights: one old record and tonight's), not all 100 kept ones each night.
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
  const kept = names.slice(names.length - keep).reverse();
  const finishedKept = new Set<string>();
  let read = 0;
  /** Does a kept record hold a finished run of `pipeline`? (Reads kept records, newest first, as needed.) */
  const keptFinished = async (pipeline: string): Promise<boolean> => {
    while (!finishedKept.has(pipeline) && read < kept.length) {
      const [r] = await readRecords(ws, [kept[read++]!]);
      if (r && isFinished(r)) finishedKept.add(r.pipeline);
    }
    return finishedKept.has(pipeline);
  };
  const needed = new Set<string>();
  const settled = new Set<string>();
  const older = await readRecords(ws, old);
  for (let i = older.length - 1; i >= 0; i--) {
    const r = older[i]!;
    if (!isFinished(r) || settled.has(r.pipeline)) continue;
    settled.add(r.pipeline);
    if (!(await keptFinished(r.pipeline))) needed.add(`${r.id}.json`);
  }
  const removed: string[] = [];
  for (const name of old) {
    if (needed.has(name)) continue;
    await rm(path.join(runsDir(ws), name), { force: true });
    removed.push(name);
  }
  return removed;
}

function isFinished(r: RunRecord): boolean {
  return r.status === "done" || r.status === "nothing";
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
