/**
 * Is the process with this pid running? (Whoever holds a lock, writes a temp file or syncs
 * the index records its pid; a pid that is gone means that work was interrupted.) EPERM
 * means it exists but belongs to another user: alive.
 */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
