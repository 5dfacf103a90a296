import { createHash } from "node:crypto";
import { hasCjk } from "../analysis/tokens.js";
import type { Chunk } from "./chunk.js";
import type { IndexDb } from "./db.js";
import type { FtsBatch } from "./fts-batch.js";
import { prepared } from "./statements.js";
import { deleteVectors } from "./vectors.js";

/** The short content hash a chunk row keeps (the embedding pass and the cache key by content). */
export function chunkHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** A chunk row of a file as the sync found it. */
export interface OldChunk {
  id: number;
  start_line: number;
  end_line: number;
  text: string;
  date: string | null;
}

/**
 * Make the `chunks` rows of `path` exactly `chunks`. A chunk whose text a row of the file
 * already holds keeps that row (its FTS entries and its vector; only its line numbers
 * move): a re-rendered bank page that gained a fact changes a few chunks, and deleting and
 * re-indexing all of a big page's chunks was most of a nightly's index step. `fresh`: the
 * table holds nothing of this file (a build, or a file new to the index). Returns the rows it
 * found (see textOfChunks).
 */
export function syncFileChunks(
  idx: IndexDb,
  path: string,
  date: string | null,
  chunks: readonly Chunk[],
  fts: FtsBatch,
  opts: { fresh: boolean },
): OldChunk[] {
  const db = idx.db;
  const old = opts.fresh
    ? []
    : (prepared(
        db,
        "SELECT id, start_line, end_line, text, date FROM chunks WHERE path = ? ORDER BY start_line, id",
      ).all(path) as OldChunk[]);
  // Keyed by the text itself, not a truncated hash: a collision must not keep a wrong row.
  const free = new Map<string, (typeof old)[number][]>();
  for (const r of old) {
    const list = free.get(r.text);
    if (list) list.push(r);
    else free.set(r.text, [r]);
  }
  const insert = prepared(
    db,
    "INSERT INTO chunks(path, start_line, end_line, text, hash, date, cjk) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const move = prepared(db, "UPDATE chunks SET start_line = ?, end_line = ?, date = ? WHERE id = ?");
  for (const c of chunks) {
    const kept = free.get(c.text)?.shift();
    if (!kept) {
      const cjk = hasCjk(c.text);
      const row = insert.run(path, c.startLine, c.endLine, c.text, chunkHash(c.text), date, cjk ? 1 : 0);
      fts.inserted("chunks", row.lastInsertRowid, cjk);
    } else if (kept.start_line !== c.startLine || kept.end_line !== c.endLine || kept.date !== date) {
      move.run(c.startLine, c.endLine, date, kept.id);
    }
  }
  const gone: number[] = [];
  for (const list of free.values()) for (const r of list) gone.push(r.id);
  if (gone.length === 0) return old;
  deleteVectors(idx, gone);
  fts.deleting("chunks", gone);
  prepared(db, "DELETE FROM chunks WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify(gone));
  return old;
}

/**
 * The text a file had at its last sync, rebuilt from its chunk rows as syncFileChunks read
 * them (chunks cover every line but the blank ones they trim; those come back empty), or
 * undefined when the rows cannot tell (none, another date, a text of another line count).
 * The caller must compare its hash with the stored one: a CRLF file, a line of spaces or no
 * final newline rebuild to other text, and then nothing may be taken from it.
 */
export function textOfChunks(rows: readonly OldChunk[], date: string | null): string | undefined {
  if (rows.length === 0) return undefined;
  const lines: string[] = [];
  for (const r of rows) {
    if (r.date !== date) return undefined;
    const parts = r.text.split("\n");
    if (parts.length !== r.end_line - r.start_line + 1) return undefined;
    for (let k = 0; k < parts.length; k++) lines[r.start_line - 1 + k] ??= parts[k]!;
  }
  for (let i = 0; i < lines.length; i++) lines[i] ??= "";
  return `${lines.join("\n")}\n`;
}
