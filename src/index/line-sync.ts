import type Database from "better-sqlite3";
import { ftsWords } from "../analysis/tokens.js";
import type { FtsBatch } from "./fts-batch.js";
import type { LineTally } from "./lines.js";
import { prepared } from "./statements.js";

/**
 * The line store's sync of one changed file (lines.ts has the store's queries): every
 * non-blank line of the file in `lines`, numbered as in the file (`pos`, or counted from the
 * end through `line_bases`, see lines.ts LINE_OF).
 */

/**
 * A stored line of a file being synced: its row id, stored position (`pos`), text, date and
 * words; `to` is set to its new position when the file still has its text. Rows taken from
 * the file's old text (syncFileLines' `oldText`) have id -1 and words NaN until read.
 */
type OldLine = [id: number, pos: number, text: string, date: string | null, ntok: number, to?: number];

/** How the kept lines move: ranges by `pos`, or one update by id. */
interface Moves {
  runs: { lo: number; hi: number; by: number }[];
  byId: [row: OldLine, to: number][];
  ranges: boolean;
}

/**
 * Plan the kept lines of `old` (sorted by pos) to their new positions. A page that gained a fact
 * shifts every line on one side of it by the same amount: one range update per run of lines
 * that moved alike (~18 vs ~35 ms by id for 8,000 lines), in an order where no run lands on
 * rows a later one has yet to move (runs up from the top down, or down from the bottom up).
 * Rows left out of the runs (gone, or redated) may be shifted with a run: they are deleted or
 * set by id afterwards. Runs both ways, or many short ones: one update by id.
 */
function planMoves(old: readonly OldLine[], date: string | null): Moves {
  const runs: Moves["runs"] = [];
  const byId: Moves["byId"] = [];
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
    if (by !== 0) byId.push([r, r[5]]);
  }
  const up = runs.every((x) => x.by > 0);
  const ranges = (up || runs.every((x) => x.by < 0)) && runs.length * 16 <= byId.length + 16;
  return { runs: ranges && up ? [...runs].reverse() : runs, byId, ranges };
}

function applyMoves(db: Database.Database, path: string, moves: Moves): void {
  if (moves.runs.length === 0) return;
  if (moves.ranges) {
    const shift = prepared(db, "UPDATE lines SET pos = pos + ? WHERE path = ? AND pos BETWEEN ? AND ?");
    for (const x of moves.runs) shift.run(x.by, path, x.lo, x.hi);
    return;
  }
  prepared(db, "UPDATE lines SET pos = m.value ->> 1 FROM json_each(?) AS m WHERE lines.id = m.value ->> 0").run(
    JSON.stringify(moves.byId.map(([r, to]) => [r[0], to])),
  );
}

/**
 * The stored rows of `path` as its old text gives them, sorted by pos (ids and words unknown).
 * The rows are exactly the text's non-blank lines at their positions: each sync leaves them so.
 */
function rowsOfText(oldText: string, base: number | undefined, date: string | null): OldLine[] {
  const rows: OldLine[] = [];
  oldText.split(/\r?\n/).forEach((line, i) => {
    if (line.trim().length === 0) return;
    rows.push([-1, base === undefined ? i + 1 : base - (i + 1), line, date, Number.NaN]);
  });
  return base === undefined ? rows : rows.reverse();
}

/** Read the ids and words of `rows` (taken from the old text) by position; false when the store disagrees. */
function readRows(db: Database.Database, path: string, rows: readonly OldLine[]): boolean {
  if (rows.length === 0) return true;
  const stored = prepared(
    db,
    "SELECT pos, id, ntok, text FROM lines WHERE path = ? AND pos IN (SELECT value FROM json_each(?))",
  )
    .raw(true)
    .all(path, JSON.stringify(rows.map((r) => r[1]))) as [number, number, number, string][];
  const byPos = new Map(stored.map((s) => [s[0], s]));
  for (const r of rows) {
    const s = byPos.get(r[1]);
    if (s === undefined || s[3] !== r[2]) return false;
    r[0] = s[1];
    r[4] = s[2];
  }
  return true;
}

/**
 * Make the line store hold exactly the non-blank lines of `text` for `path`, numbered as
 * in the file. Lines whose text is unchanged keep their row (and their FTS entry; only the
 * position may move): a re-rendered bank page of thousands of lines that gained one fact costs
 * a few inserts, not a delete and re-insert of the whole page. The FTS side goes through
 * `fts` (one statement per file, not per line: fts-batch.ts). `fresh`: the store is empty (a
 * build), nothing to look up. `tally` gets the rows and words added and removed. `oldText`:
 * the file's text at its last sync, when the caller has it (rebuilt from its chunk rows and
 * checked against the stored hash): then only the rows that go or move by id are read, not
 * all of them (bank/world.md's ~8,000 rows were most of a nightly's line work).
 */
export function syncFileLines(
  db: Database.Database,
  path: string,
  date: string | null,
  text: string,
  fts: FtsBatch,
  opts: { fresh: boolean; tally?: LineTally; oldText?: string } = { fresh: false },
): void {
  // A fresh build has no rows to keep (and no index on path yet to find them by). Rows come
  // as arrays: bank/world.md alone has ~8,000 lines, and objects cost ~1.7x the time to read.
  const base = opts.fresh
    ? undefined
    : (prepared(db, "SELECT base FROM line_bases WHERE path = ?").pluck().get(path) as number | undefined);
  // The store disagrees with the old text (it never should): read every row instead.
  const again = () =>
    syncFileLines(db, path, date, text, fts, { fresh: opts.fresh, ...(opts.tally ? { tally: opts.tally } : {}) });
  let old: OldLine[];
  const fromText = !opts.fresh && opts.oldText !== undefined;
  if (opts.fresh) old = [];
  else if (opts.oldText !== undefined) {
    old = rowsOfText(opts.oldText, base, date);
    const count = prepared(db, "SELECT count(*) FROM lines WHERE path = ?").pluck().get(path) as number;
    if (count !== old.length) {
      again();
      return;
    }
  } else {
    old = prepared(db, "SELECT id, pos, text, date, ntok FROM lines WHERE path = ? ORDER BY pos")
      .raw(true)
      .all(path) as OldLine[];
  }
  const lineOf = (pos: number) => (base === undefined ? pos : base - pos);
  // In file order, so that of two equal lines the first kept row goes to the first one.
  const inOrder = base === undefined ? old : [...old].reverse();
  const free = new Map<string, OldLine[]>();
  for (const r of inOrder) {
    const list = free.get(r[2]);
    if (list) list.push(r);
    else free.set(r[2], [r]);
  }
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
  const redated: [OldLine, number, string | null][] = [];
  for (const [r, line] of kept) {
    if (r[3] !== date) redated.push([r, posOf(line), date]);
    else r[5] = posOf(line);
  }
  const moves = planMoves(old, date);
  const goneRows: OldLine[] = [];
  for (const list of free.values()) for (const r of list) goneRows.push(r);
  // Rows taken from the old text: read the few whose ids are needed, before anything is written.
  if (fromText && !readRows(db, path, [...goneRows, ...(moves.ranges ? [] : moves.byId.map(([r]) => r))])) {
    again();
    return;
  }
  applyMoves(db, path, moves);
  if (next !== base) {
    if (next === undefined) prepared(db, "DELETE FROM line_bases WHERE path = ?").run(path);
    else
      prepared(
        db,
        "INSERT INTO line_bases(path, base) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET base = excluded.base",
      ).run(path, next);
  }
  const insert = prepared(db, "INSERT INTO lines(path, pos, date, text, ntok) VALUES (?, ?, ?, ?, ?)");
  const tally = opts.tally ?? { lines: 0, ntok: 0 };
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
    ).run(JSON.stringify(redated.map(([r, pos, d]) => [r[0], pos, d])));
  }
  const gone: number[] = [];
  for (const r of goneRows) {
    gone.push(r[0]);
    tally.lines--;
    tally.ntok -= r[4];
  }
  if (gone.length > 0) {
    fts.deleting("lines", gone);
    prepared(db, "DELETE FROM lines WHERE id IN (SELECT value FROM json_each(?))").run(JSON.stringify(gone));
  }
}
