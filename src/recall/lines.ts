import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { assertWritable, indexIoError, isDamage } from "../index/db.js";
import { prepared } from "../index/statements.js";
import type { MemoryFile } from "../workspace/files.js";
import { type Bm25Params, DEFAULT_BM25, ftsIdf, rescoreLine } from "./bm25.js";
import type { LexicalTerm } from "./intent.js";
import { dateOfPath, ftsWords } from "./text.js";

/**
 * Recall's line store: every non-blank line of the memory files in an FTS5 table with
 * the porter stemmer, so the lexical arm ranks single lines (a log turn, a Retain fact)
 * instead of 400-token chunks and answers with a few cited lines around the best ones.
 * Derived data like the index: `<workspace>/.memory/recall-lines.sqlite`, safe to delete.
 */
export interface LineStore {
  readonly db: Database.Database;
  close(): void;
}

/** Bump when the table layout or tokenizer changes: the store is then rebuilt. */
const LINE_STORE_VERSION = "3";

export interface LineHit {
  path: string;
  line: number;
  /** Higher is better (negated FTS5 bm25). */
  score: number;
  date?: string;
  text: string;
  /** Which query terms the line matched (indices into `idf`), for coverage bonuses. */
  coverage?: { matched: number[]; idf: readonly number[] };
}

export function openLineStore(file: string): LineStore {
  if (file !== ":memory:") {
    mkdirSync(path.dirname(file), { recursive: true });
    assertWritable(file);
  }
  let db = new Database(file);
  try {
    ensureSchema(db);
  } catch (error) {
    db.close();
    // A corrupt file is derived data: start over rather than fail recall. A read-only
    // file or folder, or a full disk, is not damage: say so and delete nothing.
    if (!isDamage(error)) throw indexIoError(error, file);
    if (file === ":memory:") throw new Error("cannot create the in-memory line store");
    for (const suffix of ["", "-wal", "-shm"]) {
      rmSync(file + suffix, { force: true });
    }
    db = new Database(file);
    ensureSchema(db);
  }
  return { db, close: () => db.close() };
}

function ensureSchema(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS rl_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const version = db.prepare("SELECT value FROM rl_meta WHERE key = 'version'").pluck().get() as string | undefined;
  if (version === LINE_STORE_VERSION) return;
  db.exec(`
    DROP TABLE IF EXISTS rl_fts;
    DROP TABLE IF EXISTS rl_lines;
    DROP TABLE IF EXISTS rl_files;
    CREATE TABLE rl_files(path TEXT PRIMARY KEY, version TEXT NOT NULL);
    CREATE TABLE rl_lines(id INTEGER PRIMARY KEY, path TEXT NOT NULL, line INTEGER NOT NULL, date TEXT, text TEXT NOT NULL,
      ntok INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX rl_lines_path ON rl_lines(path, line);
    CREATE INDEX rl_lines_date ON rl_lines(date);
    CREATE VIRTUAL TABLE rl_fts USING fts5(text, content='rl_lines', content_rowid='id',
      tokenize='porter unicode61 remove_diacritics 2');
  `);
  db.prepare("INSERT OR REPLACE INTO rl_meta(key, value) VALUES ('version', ?)").run(LINE_STORE_VERSION);
}

export interface LineSyncReport {
  changed: string[];
  removed: string[];
}

/** A file as the store tracks it: `version` changes whenever the content may have (a hash, or mtime+size). */
export interface TrackedFile {
  path: string;
  absPath: string;
  version: string;
}

/** Track memory files by mtime and size (when no content hash is at hand). */
export function trackByStat(files: readonly MemoryFile[]): TrackedFile[] {
  return files.map((f) => ({ path: f.path, absPath: f.absPath, version: `${f.mtimeMs}:${f.size}` }));
}

/**
 * Bring the store in line with the files: a file whose version changed is re-read whole
 * (logs are small); unchanged files cost one comparison.
 */
export function syncLineStore(store: LineStore, files: readonly TrackedFile[]): LineSyncReport {
  const db = store.db;
  const known = new Map<string, string>();
  for (const row of db.prepare("SELECT path, version FROM rl_files").all() as { path: string; version: string }[]) {
    known.set(row.path, row.version);
  }
  const changed: TrackedFile[] = [];
  const present = new Set<string>();
  for (const f of files) {
    present.add(f.path);
    if (known.get(f.path) !== f.version) changed.push(f);
  }
  const removed = [...known.keys()].filter((p) => !present.has(p)).sort();
  if (changed.length === 0 && removed.length === 0) return { changed: [], removed: [] };

  const selectOld = db.prepare("SELECT id, text FROM rl_lines WHERE path = ?");
  const deleteFts = db.prepare("INSERT INTO rl_fts(rl_fts, rowid, text) VALUES ('delete', ?, ?)");
  const deleteLines = db.prepare("DELETE FROM rl_lines WHERE path = ?");
  const deleteFile = db.prepare("DELETE FROM rl_files WHERE path = ?");
  const insertLine = db.prepare("INSERT INTO rl_lines(path, line, date, text, ntok) VALUES (?, ?, ?, ?, ?)");
  const insertFts = db.prepare("INSERT INTO rl_fts(rowid, text) VALUES (?, ?)");
  const upsertFile = db.prepare("INSERT OR REPLACE INTO rl_files(path, version) VALUES (?, ?)");
  const drop = (p: string) => {
    for (const row of selectOld.all(p) as { id: number; text: string }[]) deleteFts.run(row.id, row.text);
    deleteLines.run(p);
    deleteFile.run(p);
  };
  const texts = new Map<string, string>();
  for (const f of changed) {
    try {
      texts.set(f.path, readFileSync(f.absPath, "utf8"));
    } catch {
      texts.set(f.path, ""); // vanished between stat and read: index it as empty, the next sync repairs it
    }
  }
  db.transaction(() => {
    for (const p of removed) drop(p);
    for (const f of changed) {
      drop(f.path);
      const date = dateOfPath(f.path) ?? null;
      const lines = (texts.get(f.path) ?? "").split(/\r?\n/);
      lines.forEach((text, i) => {
        if (text.trim().length === 0) return;
        const id = insertLine.run(f.path, i + 1, date, text, ftsWords(text).length).lastInsertRowid;
        insertFts.run(id, text);
      });
      upsertFile.run(f.path, f.version);
    }
    // The mean line length, for BM25's length normalisation with our own k1 and b.
    const { n, avg } = db.prepare("SELECT count(*) AS n, coalesce(avg(ntok), 0) AS avg FROM rl_lines").get() as {
      n: number;
      avg: number;
    };
    const meta = db.prepare("INSERT OR REPLACE INTO rl_meta(key, value) VALUES (?, ?)");
    meta.run("avg_ntok", String(avg));
    meta.run("lines", String(n));
  })();
  return { changed: changed.map((f) => f.path), removed };
}

/** An FTS5 OR-query of the terms: exact tokens become phrases of their word parts. */
export function ftsQuery(terms: readonly LexicalTerm[]): string | undefined {
  const parts = ftsPhrases(terms);
  return parts.length > 0 ? parts.join(" OR ") : undefined;
}

export interface LineSearchOptions {
  limit?: number;
  since?: string;
  until?: string;
  /** Only these paths (e.g. the logs of a time window). */
  paths?: readonly string[];
  /** BM25 parameters (default DEFAULT_BM25, tuned for one-line documents). */
  bm25?: Bm25Params;
}

/**
 * Best-matching lines by BM25 with our own k1 and b (FTS5's bm25() fixes 1.2 and 0.75,
 * which over-rewards very short lines such as "Wow, cool!"): FTS5 finds the candidates,
 * then each term's share of a candidate's score is re-weighted (bm25.ts). Each hit also
 * says which terms it matched, for the coverage bonus of linerank.ts.
 */
export function searchLines(store: LineStore, terms: readonly LexicalTerm[], opts: LineSearchOptions = {}): LineHit[] {
  const phrases = ftsPhrases(terms);
  if (phrases.length === 0) return [];
  const db = store.db;
  const filters: string[] = [];
  const params: unknown[] = [phrases.join(" OR ")];
  if (opts.since) {
    filters.push("l.date >= ?");
    params.push(opts.since);
  }
  if (opts.until) {
    filters.push("l.date <= ?");
    params.push(opts.until);
  }
  if (opts.paths) {
    filters.push(`l.path IN (${opts.paths.map(() => "?").join(",") || "NULL"})`);
    params.push(...opts.paths);
  }
  params.push(opts.limit ?? 200);
  // Without filters, rank rowids first and read only the kept lines (joining before the
  // LIMIT reads every matching line: 2x slower on a common word).
  const ranked = (
    filters.length === 0
      ? prepared(
          db,
          "SELECT rowid AS id, -bm25(rl_fts) AS s FROM rl_fts WHERE rl_fts MATCH ? ORDER BY bm25(rl_fts) LIMIT ?",
        )
      : prepared(
          db,
          "SELECT rl_fts.rowid AS id, -bm25(rl_fts) AS s FROM rl_fts JOIN rl_lines l ON l.id = rl_fts.rowid " +
            `WHERE rl_fts MATCH ? AND ${filters.join(" AND ")} ORDER BY bm25(rl_fts) LIMIT ?`,
        )
  ).all(...params) as { id: number; s: number }[];
  if (ranked.length === 0) return [];
  const rows = new Map(
    (
      prepared(
        db,
        "SELECT id, path, line, date, text, ntok FROM rl_lines WHERE id IN (SELECT value FROM json_each(?))",
      ).all(JSON.stringify(ranked.map((r) => r.id))) as {
        id: number;
        path: string;
        line: number;
        date: string | null;
        text: string;
        ntok: number;
      }[]
    ).map((r) => [r.id, r]),
  );
  const meta = new Map(
    (prepared(db, "SELECT key, value FROM rl_meta").all() as { key: string; value: string }[]).map((r) => [
      r.key,
      Number(r.value),
    ]),
  );
  const avg = meta.get("avg_ntok") || 1;
  const total = meta.get("lines") || ranked.length;
  // FTS5's IDF of each term from its row count (a count is cheap; scoring every row is not).
  const count = prepared(db, "SELECT count(*) FROM rl_fts WHERE rl_fts MATCH ?").pluck();
  const idf = phrases.map((p) => ftsIdf(count.get(p) as number, total));
  const hits: LineHit[] = [];
  for (const r of ranked) {
    const row = rows.get(r.id);
    if (!row) continue;
    const { score, matched } = rescoreLine(r.s, idf, row.ntok / avg, opts.bm25 ?? DEFAULT_BM25);
    const hit: LineHit = { path: row.path, line: row.line, text: row.text, score, coverage: { matched, idf } };
    if (row.date) hit.date = row.date;
    hits.push(hit);
  }
  return hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line);
}

/** Does the store hold any line of this file? */
export function hasLines(store: LineStore, file: string): boolean {
  return prepared(store.db, "SELECT 1 FROM rl_lines WHERE path = ? LIMIT 1").get(file) !== undefined;
}

/** The FTS5 phrases of the terms: exact tokens become phrases of their word parts. */
function ftsPhrases(terms: readonly LexicalTerm[]): string[] {
  const parts: string[] = [];
  for (const t of terms) {
    const words = ftsWords(t.text);
    if (words.length === 0) continue;
    const phrase = `"${words.join(" ")}"`;
    if (!parts.includes(phrase)) parts.push(phrase);
  }
  return parts;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu;

/**
 * Lines containing the query's CJK runs (unicode61 sees a CJK run as one token, so a
 * word inside a sentence is only found as a substring). A scan: used only for CJK queries.
 */
export function searchCjkLines(store: LineStore, query: string, limit = 50): LineHit[] {
  const runs = [...new Set(query.match(CJK_RUN) ?? [])];
  if (runs.length === 0) return [];
  const stmt = store.db.prepare(
    "SELECT path, line, date, text FROM rl_lines WHERE instr(text, ?) > 0 ORDER BY date DESC, path, line LIMIT ?",
  );
  const hits = new Map<string, LineHit>();
  for (const run of runs) {
    for (const r of stmt.all(run, limit) as (Omit<LineHit, "date" | "score"> & { date: string | null })[]) {
      const key = `${r.path}#${r.line}`;
      const prev = hits.get(key);
      const score = (prev?.score ?? 0) + [...run].length;
      hits.set(
        key,
        r.date
          ? { path: r.path, line: r.line, text: r.text, date: r.date, score }
          : { path: r.path, line: r.line, text: r.text, score },
      );
    }
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1) || a.line - b.line);
}

/** The stored non-blank lines of a file between two line numbers (inclusive). */
export function readLines(store: LineStore, p: string, from: number, to: number): { line: number; text: string }[] {
  return prepared(
    store.db,
    "SELECT line, text FROM rl_lines WHERE path = ? AND line BETWEEN ? AND ? ORDER BY line",
  ).all(p, from, to) as { line: number; text: string }[];
}

/** Paths of the daily logs dated inside a window. */
export function pathsInWindow(store: LineStore, from?: string, to?: string): string[] {
  return store.db
    .prepare(
      "SELECT DISTINCT path FROM rl_lines WHERE date IS NOT NULL AND date >= ? AND date <= ? ORDER BY date DESC, path",
    )
    .pluck()
    .all(from ?? "0000-00-00", to ?? "9999-99-99") as string[];
}
