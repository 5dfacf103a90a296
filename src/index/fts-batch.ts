import type Database from "better-sqlite3";
import { createSyncTriggers, dropSyncTriggers, hasSyncTriggers } from "./schema.js";

/**
 * FTS upkeep of an incremental sync, one statement per table instead of one per row.
 *
 * Why: FTS5 flushes its pending terms to a new segment at every statement savepoint, and a
 * trigger-fired insert runs inside one; a nightly that re-indexes a 7,700-line session
 * digest paid ~60 µs a line (and merges of the tiny segments) through the triggers, ~12x
 * what one INSERT ... SELECT costs for the same rows. So, inside the sync's transaction,
 * the triggers are dropped, base-table rows are noted as they are inserted, rows about to
 * be deleted are noted with their indexed text (external-content FTS5 needs it), and
 * `finish` removes the old rows from the FTS tables, adds the new ones and puts the
 * triggers back. A crash rolls all of it back, triggers included. When the triggers are
 * already gone (a bulk load, or an index without FTS5) every call is a no-op.
 */
export type FtsTable = "chunks" | "facts" | "lines";

const SPEC: Record<FtsTable, { id: string; col: string; fts: { table: string; where: string }[] }> = {
  chunks: {
    id: "id",
    col: "text",
    fts: [
      { table: "chunks_fts", where: "" },
      { table: "chunks_tri", where: " AND cjk = 1" },
    ],
  },
  facts: { id: "rid", col: "content", fts: [{ table: "facts_fts", where: "" }] },
  lines: { id: "id", col: "text", fts: [{ table: "lines_fts", where: "" }] },
};

export interface FtsBatch {
  /** A row was inserted into the base table; for chunks, whether it holds CJK text when known (chunks_tri). */
  inserted(table: FtsTable, id: number | bigint, cjk?: boolean): void;
  /** These rows are about to be deleted from the base table (their FTS entries go at `finish`). */
  deleting(table: FtsTable, ids: readonly number[]): void;
  /** Remove the deleted rows from the FTS tables, index the inserted ones that still exist, restore the triggers. */
  finish(): void;
}

const NOOP: FtsBatch = { inserted() {}, deleting() {}, finish() {} };

/** Start a batch; call inside the transaction that writes the base tables. */
export function beginFtsBatch(db: Database.Database): FtsBatch {
  if (!hasSyncTriggers(db)) return NOOP;
  dropSyncTriggers(db);
  const pending: Record<FtsTable, Set<number>> = { chunks: new Set(), facts: new Set(), lines: new Set() };
  // Rows to take out of the FTS tables, with the text they were indexed with (read before
  // the base row goes), applied at `finish` in one statement per table: a 'delete' per
  // file would flush a tiny segment per file, as the triggers did per row.
  const removed: Record<FtsTable, { id: number; text: string; cjk: number }[]> = {
    chunks: [],
    facts: [],
    lines: [],
  };
  // Whether an inserted chunk may hold CJK text: without one, chunks_tri gets nothing to add
  // and its INSERT ... SELECT is not run (~5-10 ms a nightly for no row).
  let cjkAdded = false;
  const rowsOf = (table: FtsTable, ids: readonly number[]) => {
    const s = SPEC[table];
    return db
      .prepare(
        `SELECT ${s.id} AS id, ${s.col} AS text, ${table === "chunks" ? "cjk" : "0"} AS cjk FROM ${table} ` +
          `WHERE ${s.id} IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as { id: number; text: string; cjk: number }[];
  };
  return {
    inserted(table, id, cjk) {
      pending[table].add(Number(id));
      if (table === "chunks" && cjk !== false) cjkAdded = true;
    },
    deleting(table, ids) {
      // A row inserted in this batch is not in the FTS tables yet: forget it instead.
      const indexed = ids.filter((id) => !pending[table].delete(id));
      if (indexed.length > 0) removed[table].push(...rowsOf(table, indexed));
    },
    finish() {
      for (const table of Object.keys(SPEC) as FtsTable[]) {
        const s = SPEC[table];
        const gone = removed[table];
        for (const f of s.fts) {
          if (gone.length === 0) break;
          const rows = f.where === "" ? gone : gone.filter((r) => r.cjk === 1);
          if (rows.length === 0) continue;
          db.prepare(
            `INSERT INTO ${f.table}(${f.table}, rowid, ${s.col}) ` +
              "SELECT 'delete', value ->> '$.id', value ->> '$.text' FROM json_each(?)",
          ).run(JSON.stringify(rows));
        }
        const added = [...pending[table]];
        if (added.length === 0) continue;
        for (const f of s.fts) {
          if (f.table === "chunks_tri" && !cjkAdded) continue;
          db.prepare(
            `INSERT INTO ${f.table}(rowid, ${s.col}) SELECT ${s.id}, ${s.col} FROM ${table} ` +
              `WHERE ${s.id} IN (SELECT value FROM json_each(?))${f.where}`,
          ).run(JSON.stringify(added));
        }
      }
      createSyncTriggers(db);
    },
  };
}
