import type Database from "better-sqlite3";
import type { IndexDb } from "./db.js";
import type { FtsBatch } from "./fts-batch.js";
import { readMeta } from "./schema.js";
import { prepared } from "./statements.js";

/**
 * The line store's queries: every non-blank line of the memory files, in the `lines`
 * table with a porter-stemmed FTS5 table over it (schema.ts), filled by the index sync
 * in the same transaction as chunks and facts (apply.ts). Recall ranks single lines
 * (a log turn, a Retain fact) with these; the ranking itself lives in recall/.
 */

export interface LineRow {
  id: number;
  path: string;
  line: number;
  date: string | null;
  text: string;
  /** Word count (recall's BM25 length normalisation). */
  ntok: number;
}

export interface LineStats {
  /** Lines in the store; undefined when an older index has no line store yet. */
  lines?: number;
  avgNtok: number;
}

/** Totals the sync keeps in meta, for BM25's length normalisation. */
export function lineStats(idx: IndexDb): LineStats {
  const lines = readMeta(idx.db, "lines_count");
  const avg = Number(readMeta(idx.db, "lines_avg_ntok") ?? "0");
  return lines === undefined ? { avgNtok: avg } : { lines: Number(lines), avgNtok: avg };
}

/**
 * What a sync added to and took from the line store (rows and their words), so the totals
 * in meta move by the difference instead of a recount of every line (a scan of the whole
 * store, ~30-120 ms on 10 years, for a night that changed a dozen files).
 */
export interface LineTally {
  lines: number;
  ntok: number;
}

/**
 * A file's line numbers as stored: `pos` is the line number, or, for a file in `line_bases`,
 * `base - pos` is (the line counted from the file's end). bank/world.md and experience.md
 * gain their new facts near the top: counted from the top, each such night moved all of their
 * ~14k stored lines (~40 ms, most of the index step's line work); counted from the end, a
 * handful. Each sync counts a file from the end where more of its kept lines stayed in place
 * counted so (syncFileLines). Readers get line numbers through LINE_OF.
 */
const LINE_OF = "CASE WHEN b.base IS NULL THEN l.pos ELSE b.base - l.pos END";
const WITH_BASE = "LEFT JOIN line_bases b ON b.path = l.path";

/** Take everything of `path` out of the line store (a file gone or replaced), the FTS side through `fts`; returns the rows' words. */
export function dropFileLines(db: Database.Database, path: string, fts: FtsBatch): number[] {
  const rows = prepared(db, "SELECT id, ntok FROM lines WHERE path = ?").raw(true).all(path) as [number, number][];
  fts.deleting(
    "lines",
    rows.map((r) => r[0]),
  );
  prepared(db, "DELETE FROM lines WHERE path = ?").run(path);
  prepared(db, "DELETE FROM line_bases WHERE path = ?").run(path);
  return rows.map((r) => r[1]);
}

/**
 * Set the store's totals in meta (end of a sync that changed files). With `tally`, the
 * totals move by what this sync added and removed; without it, or when meta has none yet,
 * every line is counted. The average is the word sum over the line count either way, the
 * same double SQLite's avg() gives for integers: the sum is recovered exactly from the
 * stored average (an error far below 0.5 while the sum is under 2^50).
 */
export function refreshLineStats(idx: IndexDb, tally?: LineTally): void {
  const put = idx.db.prepare(
    "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const count = tally && readMeta(idx.db, "lines_count");
  const avg = tally && readMeta(idx.db, "lines_avg_ntok");
  if (tally && count !== undefined && avg !== undefined) {
    const n = Number(count) + tally.lines;
    const sum = Math.round(Number(avg) * Number(count)) + tally.ntok;
    put.run("lines_count", String(n));
    put.run("lines_avg_ntok", String(n === 0 ? 0 : sum / n));
    return;
  }
  const all = idx.db.prepare("SELECT count(*) AS n, coalesce(avg(ntok), 0) AS avg FROM lines").get() as {
    n: number;
    avg: number;
  };
  put.run("lines_count", String(all.n));
  put.run("lines_avg_ntok", String(all.avg));
}

export interface LineFilter {
  since?: string;
  until?: string;
  /** Only these paths. */
  paths?: readonly string[];
}

/**
 * Line ids matching an FTS5 expression, best first by FTS5's bm25 (higher `s` is
 * better). Needs the index's FTS tables (`idx.fts`).
 */
export function matchLines(
  idx: IndexDb,
  match: string,
  filter: LineFilter,
  limit: number,
): { id: number; s: number }[] {
  const filters: string[] = [];
  const params: unknown[] = [match];
  if (filter.since) {
    filters.push("l.date >= ?");
    params.push(filter.since);
  }
  if (filter.until) {
    filters.push("l.date <= ?");
    params.push(filter.until);
  }
  if (filter.paths) {
    filters.push(`l.path IN (${filter.paths.map(() => "?").join(",") || "NULL"})`);
    params.push(...filter.paths);
  }
  params.push(limit);
  // Without filters, rank rowids first and read only the kept lines (joining before the
  // LIMIT reads every matching line: 2x slower on a common word).
  const sql =
    filters.length === 0
      ? "SELECT rowid AS id, -bm25(lines_fts) AS s FROM lines_fts WHERE lines_fts MATCH ? ORDER BY bm25(lines_fts) LIMIT ?"
      : "SELECT lines_fts.rowid AS id, -bm25(lines_fts) AS s FROM lines_fts JOIN lines l ON l.id = lines_fts.rowid " +
        `WHERE lines_fts MATCH ? AND ${filters.join(" AND ")} ORDER BY bm25(lines_fts) LIMIT ?`;
  return prepared(idx.db, sql).all(...params) as { id: number; s: number }[];
}

/** Above this many matching lines, checking each candidate line (a seek each, ~50 us) beats reading the term's whole list (~1 us a line). */
const SEEK_RATIO = 50;

/**
 * The lines among `ids` that contain an FTS5 phrase matched by itself, exactly as FTS5
 * tokenizes and stems them. `matching`: how many lines contain it (countMatchingLines),
 * which picks the cheaper of reading the phrase's whole row list or seeking each id.
 */
export function linesWithPhrase(idx: IndexDb, phrase: string, ids: readonly number[], matching: number): Set<number> {
  if (ids.length === 0 || matching === 0) return new Set();
  if (matching <= ids.length * SEEK_RATIO) {
    const all = prepared(idx.db, "SELECT rowid FROM lines_fts WHERE lines_fts MATCH ?").pluck().all(phrase) as number[];
    const wanted = new Set(ids);
    return new Set(all.filter((id) => wanted.has(id)));
  }
  const rows = prepared(
    idx.db,
    "SELECT rowid FROM lines_fts WHERE lines_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
  )
    .pluck()
    .all(phrase, JSON.stringify(ids)) as number[];
  return new Set(rows);
}

/**
 * Up to `limit` lines of dated logs (memory/) matching an FTS5 expression, unranked: what
 * recall needs to date an event by the lines naming it (recall/event-time.ts), where more
 * than a handful of lines already means "no one event", so no line is scored.
 */
export function logLinesMatching(idx: IndexDb, match: string, limit: number): LineRow[] {
  return prepared(
    idx.db,
    `SELECT l.id, l.path, ${LINE_OF} AS line, l.date, l.text, l.ntok FROM lines_fts JOIN lines l ON l.id = lines_fts.rowid ${WITH_BASE} WHERE lines_fts MATCH ? AND l.date IS NOT NULL AND l.path LIKE 'memory/%' LIMIT ?`,
  ).all(match, limit) as LineRow[];
}

/** How many lines match an FTS5 expression (a term's document frequency). */
export function countMatchingLines(idx: IndexDb, match: string): number {
  return prepared(idx.db, "SELECT count(*) FROM lines_fts WHERE lines_fts MATCH ?").pluck().get(match) as number;
}

/** The lines with these ids. */
export function linesByIds(idx: IndexDb, ids: readonly number[]): LineRow[] {
  return prepared(
    idx.db,
    `SELECT l.id, l.path, ${LINE_OF} AS line, l.date, l.text, l.ntok FROM lines l ${WITH_BASE} WHERE l.id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as LineRow[];
}

/** Lines containing a substring, newest first (a scan: for CJK words FTS5 cannot split). */
export function linesContaining(idx: IndexDb, needle: string, limit: number): LineRow[] {
  return prepared(
    idx.db,
    `SELECT l.id, l.path, ${LINE_OF} AS line, l.date, l.text, l.ntok FROM lines l ${WITH_BASE} WHERE instr(l.text, ?) > 0 ORDER BY l.date DESC, l.path, line LIMIT ?`,
  ).all(needle, limit) as LineRow[];
}

/** Does the store hold any line of this file? */
export function hasLines(idx: IndexDb, file: string): boolean {
  return prepared(idx.db, "SELECT 1 FROM lines WHERE path = ? LIMIT 1").get(file) !== undefined;
}

/** The stored non-blank lines of a file between two line numbers (inclusive). */
export function readLines(idx: IndexDb, p: string, from: number, to: number): { line: number; text: string }[] {
  const base = prepared(idx.db, "SELECT base FROM line_bases WHERE path = ?").pluck().get(p) as number | undefined;
  if (base === undefined) {
    return prepared(
      idx.db,
      "SELECT pos AS line, text FROM lines WHERE path = ? AND pos BETWEEN ? AND ? ORDER BY pos",
    ).all(p, from, to) as { line: number; text: string }[];
  }
  return prepared(
    idx.db,
    "SELECT ? - pos AS line, text FROM lines WHERE path = ? AND pos BETWEEN ? AND ? ORDER BY pos DESC",
  ).all(base, p, base - to, base - from) as { line: number; text: string }[];
}

/** Every stored (non-blank) line of a file, in order. */
export function fileLines(idx: IndexDb, p: string): { line: number; text: string }[] {
  return readLines(idx, p, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/** The text of the newest `limit` lines of the memory logs (memory/), newest first: a sample of how they are written. */
export function newestMemoryLines(idx: IndexDb, limit: number): string[] {
  return prepared(idx.db, "SELECT text FROM lines WHERE path LIKE 'memory/%' ORDER BY id DESC LIMIT ?")
    .pluck()
    .all(limit) as string[];
}

const withVocab = new WeakSet<Database.Database>();

/**
 * How many lines hold each of these words, as the line store indexes them (porter stems),
 * for the ones it holds at all: an equality lookup per word in FTS5's own term list
 * (fts5vocab over lines_fts, a virtual table of this connection's temp schema, so the index
 * file is never changed), whatever the size of the memory.
 */
export function vocabularyCounts(idx: IndexDb, stems: readonly string[]): Map<string, number> {
  if (stems.length === 0 || !idx.fts) return new Map();
  if (!withVocab.has(idx.db)) {
    idx.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.lines_vocab USING fts5vocab(main, lines_fts, row)");
    withVocab.add(idx.db);
  }
  const rows = prepared(idx.db, "SELECT term, doc FROM temp.lines_vocab WHERE term IN (SELECT value FROM json_each(?))")
    .raw(true)
    .all(JSON.stringify(stems)) as [string, number][];
  return new Map(rows);
}
