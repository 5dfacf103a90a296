import type Database from "better-sqlite3";
import { createSyncTriggers, dropSyncTriggers, hasSyncTriggers } from "./schema.js";

/**
 * FTS upkeep of an incremental sync, one statement per table instead of one per row.
 *
 * Why: FTS5 flushes its pending terms to a new segment at every statement savepoint, and a
 * trigger-fired insert runs inside one; a nightly that re-indexes a 7,700-line session
 * digest paid ~60 µs a line (and merges of the tiny segments) through the triggers, ~12x
 * what one INSERT ... SELECT costs for the same rows. So, inside the sync's transaction,
 * the triggers are dropped, base-table rows are noted as they are inserted and removed from
 * the FTS tables (with their indexed text, as external-content FTS5 needs) just before they
 * are deleted, and `finish` adds the new rows and puts the triggers back. A crash rolls all
 * of it back, triggers included. When the triggers are already gone (a bulk load, or an
 * index without FTS5) every call is a no-op.
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
  /** A row was inserted into the base table. */
  inserted(table: FtsTable, id: number | bigint): void;
  /** These rows are about to be deleted from the base table: take them out of its FTS tables. */
  deleting(table: FtsTable, ids: readonly number[]): void;
  /** Index the inserted rows that still exist and restore the triggers. */
  finish(): void;
}

const NOOP: FtsBatch = { inserted() {}, deleting() {}, finish() {} };

/** Start a batch; call inside the transaction that writes the base tables. */
export function beginFtsBatch(db: Database.Database): FtsBatch {
  if (!hasSyncTriggers(db)) return NOOP;
  dropSyncTriggers(db);
  const pending: Record<FtsTable, Set<number>> = { chunks: new Set(), facts: new Set(), lines: new Set() };
  const sql = (table: FtsTable, op: "add" | "delete") => {
    const s = SPEC[table];
    return s.fts
      .map(
        (f) =>
          `INSERT INTO ${f.table}(${op === "add" ? `rowid, ${s.col}` : `${f.table}, rowid, ${s.col}`}) ` +
          `SELECT ${op === "add" ? "" : "'delete', "}${s.id}, ${s.col} FROM ${table} ` +
          `WHERE ${s.id} IN (SELECT value FROM json_each(?))${f.where}`,
      )
      .map((q) => db.prepare(q));
  };
  const run = (table: FtsTable, op: "add" | "delete", ids: readonly number[]) => {
    if (ids.length === 0) return;
    const json = JSON.stringify(ids);
    for (const st of sql(table, op)) st.run(json);
  };
  return {
    inserted(table, id) {
      pending[table].add(Number(id));
    },
    deleting(table, ids) {
      // A row inserted in this batch is not in the FTS tables yet: forget it instead.
      const indexed = ids.filter((id) => !pending[table].delete(id));
      run(table, "delete", indexed);
    },
    finish() {
      for (const table of Object.keys(pending) as FtsTable[]) run(table, "add", [...pending[table]]);
      createSyncTriggers(db);
    },
  };
}
