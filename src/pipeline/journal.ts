import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

/**
 * Files written by pipeline steps and not yet committed, kept across runs: when a run is killed
 * after reflect wrote pages but before the commit, the next run still commits them (reflect
 * will find nothing to change and would not list them again). A step that was killed midway
 * leaves its start time, so the commit step can pick up what it wrote since.
 */
export interface Journal {
  version: 1;
  written: string[];
  /** Start times (epoch ms) of steps that began and never finished. */
  interrupted: number[];
  /** The step running now, if any (start time). */
  open?: number;
}

function journalPath(ws: Workspace): string {
  return path.join(stateDir(ws), "pipeline-journal.json");
}

export async function loadJournal(ws: Workspace): Promise<Journal> {
  try {
    const raw = JSON.parse(await readFile(journalPath(ws), "utf8")) as Journal;
    if (raw.version === 1 && Array.isArray(raw.written)) {
      const interrupted = [...(raw.interrupted ?? [])];
      // A step open in the journal at load time belongs to a dead run (we hold the lock).
      if (raw.open !== undefined) interrupted.push(raw.open);
      return { version: 1, written: raw.written, interrupted };
    }
  } catch {
    // none, or damaged: nothing pending
  }
  return { version: 1, written: [], interrupted: [] };
}

export async function saveJournal(ws: Workspace, j: Journal): Promise<void> {
  if (j.written.length === 0 && j.interrupted.length === 0 && j.open === undefined) {
    await rm(journalPath(ws), { force: true });
    return;
  }
  const out: Journal = { version: 1, written: [...new Set(j.written)].sort(), interrupted: [...j.interrupted].sort() };
  if (j.open !== undefined) out.open = j.open;
  await writeFileAtomic(journalPath(ws), `${JSON.stringify(out, null, 2)}\n`);
}
