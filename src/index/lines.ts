import type Database from "better-sqlite3";
import { ftsWords } from "../analysis/tokens.js";
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
 * A stored line of a file being synced: its row id, stored position (`pos`), text, date and
 * words; `to` is set to its new position when the file still has its text.
 */
type OldLine = [id: number, pos: number, text: string, date: string | null, ntok: number, to?: number];

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

/**
 * Give the kept lines of `old` (sorted by pos) their new positions. A page that gained a fact
 * shifts every line on one side of it by the same amount: one range update per run of lines
 * that moved alike (~18 vs ~35 ms by id for 8,000 lines), in an order where no run lands on
 * rows a later one has yet to move (runs up from the top down, or down from the bottom up).
 * Rows left out of the runs (gone, or redated) may be shifted with a run: they are deleted or
 * set by id afterwards. Runs both ways, or many short ones: one update by id.
 */
function moveLines(db: Database.Database, path: string, old: readonly OldLine[], date: string | null): void {
  const runs: { lo: number; hi: number; by: number }[] = [];
  const byId: [number, number][] = [];
  let run: (typeof runs)[number] | undefined;
  for (const r of old) {
    if (r[5] === undefined || r[3] !== date) continue;
    const by = r[5] - r[1];
    if (by === 0) run = undefined;
    else if (run?.by === by) run.hi = r[1];
    else {
      run = { lo: r[1], hi: r[1], by };
      runs.push(run);
    }
    if (by !== 0) byId.push([r[0], r[5]]);
  }
  if (runs.length === 0) return;
  const up = runs.every((x) => x.by > 0);
  if ((up || runs.every((x) => x.by < 0)) && runs.length * 16 <= byId.length + 16) {
    const shift = prepared(db, "UPDATE lines SET pos = pos + ? WHERE path = ? AND pos BETWEEN ? AND ?");
    for (const x of up ? [...runs].reverse() : runs) shift.run(x.by, path, x.lo, x.hi);
    return;
  }
  prepared(db, "UPDATE lines SET pos = m.value ->> 1 FROM json_each(?) AS m WHERE lines.id = m.value ->> 0").run(
    JSON.stringify(byId),
  );
}

/**
 * Make the line store hold exactly the non-blank lines of `text` for `path`, numbered as
 * in the file. Lines whose text is unchanged keep their row (and their FTS entry; only the
 * position may move): a re-rendered bank page of thousands of lines that gained one fact costs
 * a few inserts, not a delete and re-insert of the whole page. The FTS side goes through
 * `fts` (one statement per file, not per line: fts-batch.ts). `fresh`: the store is empty (a
 * build), nothing to look up. `tally` gets the rows and words added and removed.
 */
export function syncFileLines(
  db: Database.Database,
  path: string,
  date: string | null,
  text: string,
  fts: FtsBatch,
  opts: { fresh: boolean; tally?: LineTally } = { fresh: false },
): void {
  // A fresh build has no rows to keep (and no index on path yet to find them by). Rows come
  // as arrays: bank/world.md alone has ~8,000 lines, and objects cost ~1.7x the time to read.
  const base = opts.fresh
    ? undefined
    : (prepared(db, "SELECT base FROM line_bases WHERE path = ?").pluck().get(path) as number | undefined);
  const old = opts.fresh
    ? []
    : (prepared(db, "SELECT id, pos, text, date, ntok FROM lines WHERE path = ? ORDER BY pos")
        .raw(true)
        .all(path) as OldLine[]);
  const lineOf = (pos: number) => (base === undefined ? pos : base - pos);
  // In file order, so that of two equal lines the first kept row goes to the first one.
  const inOrder = base === undefined ? old : [...old].reverse();
  const free = new Map<string, OldLine[]>();
  for (const r of inOrder) {
    const list = free.get(r[2]);
    if (list) list.push(r);
    else free.set(r[2], [r]);
  }
  const insert = prepared(db, "INSERT INTO lines(path, pos, date, text, ntok) VALUES (?, ?, ?, ?, ?)");
  const tally = opts.tally ?? { lines: 0, ntok: 0 };
  const added: [line: number, text: string, ntok: number][] = [];
  const kept: [row: OldLine, line: number][] = [];
  let last = 0;
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim().length === 0) return;
    last = i + 1;
    const row = free.get(line)?.shift();
    if (!row) added.push([i + 1, line, ftsWords(line).length]);
    else kept.push([row, i + 1]);
  });
  // Counted from the top or from the end: whichever leaves more kept lines where they were.
  const oldLast = inOrder.length === 0 ? 0 : lineOf(inOrder[inOrder.length - 1]![1]);
  let top = 0;
  let end = 0;
  for (const [r, line] of kept) {
    const was = lineOf(r[1]);
    if (was === line) top++;
    if (oldLast - was === last - line) end++;
  }
  // Even, the file stays as it is counted; a new one: bank pages (newest first) from the end, logs (appended to) from the top.
  const stays = old.length === 0 ? path.startsWith("bank/") : base !== undefined;
  const fromEnd = last > 0 && (end > top || (end === top && stays));
  const next = fromEnd ? last + 1 : undefined;
  const posOf = (line: number) => (next === undefined ? line : next - line);
  // Setting `date` only where it changed: rewriting it would touch each moved line's lines_date entry.
  const redated: [number, number, string | null][] = [];
  for (const [r, line] of kept) {
    if (r[3] !== date) redated.push([r[0], posOf(line), date]);
    else r[5] = posOf(line);
  }
  moveLines(db, path, old, date);
  if (next !== base) {
    if (next === undefined) prepared(db, "DELETE FROM line_bases WHERE path = ?").run(path);
    else
      prepared(
        db,
        "INSERT INTO line_bases(path, base) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET base = excluded.base",
      ).run(path, next);
  }
  // After the moves: a range update must not shift a row that is new.
  for (const [line, t, ntok] of added) {
    fts.inserted("lines", insert.run(path, posOf(line), date, t, ntok).lastInsertRowid);
    tally.lines++;
    tally.ntok += ntok;
  }
  if (redated.length > 0) {
    prepared(
      db,
      "UPDATE lines SET pos = m.value ->> 1, date = m.value ->> 2 FROM json_each(?) AS m WHERE lines.id = m.value ->> 0",
    ).run(JSON.stringify(redated));
  }
  const gone: number[] = [];
  for (const list of free.values())
    for (const r of list) {
      gone.push(r[0]);
      tally.lines--;
      tally.ntok -= r[4];
    }
  if (gone.length > 0) {
    fts.deleting("lines", gone);
    prepared(db, "DELETE FROM lines WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify(gone));
  }
}

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
