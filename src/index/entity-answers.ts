import type { IndexDb } from "./db.js";
import { prepared } from "./statements.js";

export { fileLines } from "./lines.js";

/**
 * The line-store reads of recall's entity answers (src/recall/entity-answers.ts): the core
 * memory file and the lines of one file, whole.
 */

/** `MEMORY.md`, else `memory.md`, when the index holds lines of it. */
export function coreMemoryFile(idx: IndexDb): string | undefined {
  const row = prepared(
    idx.db,
    "SELECT path FROM lines WHERE path IN ('MEMORY.md', 'memory.md') GROUP BY path ORDER BY path = 'MEMORY.md' DESC LIMIT 1",
  ).get() as { path: string } | undefined;
  return row?.path;
}

/**
 * The content hashes of the core memory and the entity pages, as one string: what recall's
 * entity profiles are built from, so they are rebuilt only when one of these files changed.
 */
export function profileSourcesVersion(idx: IndexDb): string {
  const rows = prepared(
    idx.db,
    "SELECT path, hash FROM files WHERE path IN ('MEMORY.md', 'memory.md') OR path LIKE 'bank/entities/%' ORDER BY path",
  ).all() as { path: string; hash: string }[];
  return rows.map((r) => `${r.path}\u0000${r.hash}`).join("\u0001");
}
