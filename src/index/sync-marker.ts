import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { processAlive } from "../workspace/pid.js";

/**
 * A sync that writes leaves `<index>.syncing` (its pid) while it writes. A marker whose
 * process is gone means a sync died midway: the next sync runs quick_check first. Without
 * one, quick_check runs only on `--full` (it costs a third of a no-change sync on 20 years).
 */
const markerOf = (file: string) => `${file}.syncing`;

/** Did a sync of this index die midway (its marker is left by a process that is gone)? */
export function crashedBefore(file: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(markerOf(file), "utf8"), 10);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid)) return true;
  // This process is syncing right now (a background embedding pass beside a query's sync).
  if (pid === process.pid) return false;
  return !processAlive(pid); // another live process is syncing: not a crash
}

/** Mark the index as being written by this process until `done` runs. */
export function markSyncing(file: string): () => void {
  // Written whole, then renamed in: a process reading it mid-write would see no pid, call
  // that a crash, and reopen (and quick_check) an index other calls are reading.
  const tmp = `${markerOf(file)}.${process.pid}`;
  writeFileSync(tmp, String(process.pid));
  renameSync(tmp, markerOf(file));
  return () => clearSyncing(file);
}

/** Remove the marker (written, or checked after a crash). */
export function clearSyncing(file: string): void {
  rmSync(markerOf(file), { force: true });
}
