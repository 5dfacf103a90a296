import type Database from "better-sqlite3";

/**
 * Index schema. The index is derived data: a version bump that cannot be migrated in
 * place simply makes sync rebuild the file (the fingerprint includes the version).
 *
 * Tables
 *   meta(key PRIMARY KEY, value)                      schema_version, fingerprint, built_at, synced_at
 *   files(path PRIMARY KEY, hash, mtime_ms, size, date)
 *   chunks(id INTEGER PRIMARY KEY, path, start_line, end_line, text, hash, date, cjk)
 *                                                      cjk = 1 when the text has CJK characters
 *   facts(rid INTEGER PRIMARY KEY, id, kind, content, date, valid_from, valid_to,
 *         confidence, path, line, extracted)          `id` is the stable Retain id (not unique:
 *                                                      the same fact may appear in two files)
 *   fact_entities(fact -> facts.rid, entity slug, pos)  pos: order of first appearance in the fact
 *   entities(slug PRIMARY KEY, name, aliases JSON array, page path or NULL, facts count)
 *   chunk_vectors(id -> chunks.id, vec BLOB float32)  always kept: the JS fallback reads it,
 *                                                      and vec0 is rebuilt from it
 *   chunks_fts, facts_fts   FTS5 unicode61 remove_diacritics 2 (external content)
 *   chunks_tri              FTS5 trigram over the chunks with cjk = 1 (CJK substring search;
 *                           unicode61 covers everything else, and a trigram index of all text
 *                           would cost most of the build time)
 *   chunk_vec               sqlite-vec vec0 (created by vectors.ts once dims are known)
 *   opinions(rid INTEGER PRIMARY KEY, id UNIQUE, statement, confidence, previous,
 *            first_stated, last_updated, path, start_line, end_line, status, trajectory)
 *                          reflect's judged opinions, one per `op-*` region of bank/opinions.md;
 *                          start/end_line: the region's text between its marker lines
 *   opinion_entities(opinion_id -> opinions.id, entity slug, pos)
 *   opinion_evidence(opinion_id, pos, fact_id, source 'path#Lline', stance 'support'|'contradict', date)
 *                          the page's supporting and contradicting lists, in page order
 *   opinions_fts            FTS5 unicode61 over opinions.statement (external content)
 *   lines(id INTEGER PRIMARY KEY, path, pos, date, text, ntok)
 *                          recall's line store: every non-blank line of every file, ntok = words;
 *                          pos = the line number, or for a file in line_bases, base - line
 *   line_bases(path PRIMARY KEY, base)   the files whose lines are counted from their end
 *                          (pages that grow at the top: their kept lines keep their rows as is)
 *   lines_fts               FTS5 porter unicode61 over lines.text (external content)
 *   meta lines_count, lines_avg_ntok   the line store's totals (BM25 length normalisation)
 */
export const SCHEMA_VERSION = 9;

const BASE = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  date TEXT
);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  text TEXT NOT NULL,
  hash TEXT NOT NULL,
  date TEXT
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_date ON chunks(date);
CREATE TABLE IF NOT EXISTS facts (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  content TEXT NOT NULL,
  date TEXT NOT NULL,
  valid_from TEXT,
  valid_to TEXT,
  confidence REAL,
  path TEXT NOT NULL,
  line INTEGER NOT NULL,
  extracted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS facts_id ON facts(id);
CREATE INDEX IF NOT EXISTS facts_path ON facts(path);
CREATE INDEX IF NOT EXISTS facts_date ON facts(date);
CREATE TABLE IF NOT EXISTS fact_entities (
  fact INTEGER NOT NULL,
  entity TEXT NOT NULL,
  PRIMARY KEY (entity, fact)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS fact_entities_fact ON fact_entities(fact);
CREATE TABLE IF NOT EXISTS entities (
  slug TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  aliases TEXT NOT NULL DEFAULT '[]',
  page TEXT,
  facts INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunk_vectors (id INTEGER PRIMARY KEY, vec BLOB NOT NULL);
`;

// External-content FTS tables kept in step by triggers, so sync code only touches the base tables.
const FTS = `
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
  text, content='chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5(
  content, content='facts', content_rowid='rid', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_tri USING fts5(
  text, content='chunks', content_rowid='id', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
  INSERT INTO chunks_tri(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO chunks_tri(chunks_tri, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER IF NOT EXISTS facts_ai AFTER INSERT ON facts BEGIN
  INSERT INTO facts_fts(rowid, content) VALUES (new.rid, new.content);
END;
CREATE TRIGGER IF NOT EXISTS facts_ad AFTER DELETE ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content) VALUES ('delete', old.rid, old.content);
END;
`;

// The current triggers. v2: the trigram table holds only chunks with CJK text.
const DROP_TRIGGERS = `
DROP TRIGGER IF EXISTS chunks_ai;
DROP TRIGGER IF EXISTS chunks_ad;
DROP TRIGGER IF EXISTS facts_ai;
DROP TRIGGER IF EXISTS facts_ad;
`;
const TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
  INSERT INTO chunks_tri(rowid, text) SELECT new.id, new.text WHERE new.cjk = 1;
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO chunks_tri(chunks_tri, rowid, text) SELECT 'delete', old.id, old.text WHERE old.cjk = 1;
END;
CREATE TRIGGER IF NOT EXISTS facts_ai AFTER INSERT ON facts BEGIN
  INSERT INTO facts_fts(rowid, content) VALUES (new.rid, new.content);
END;
CREATE TRIGGER IF NOT EXISTS facts_ad AFTER DELETE ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content) VALUES ('delete', old.rid, old.content);
END;
`;

/** What beginBulkLoad took away, for endBulkLoad to put back. */
export interface BulkLoad {
  fts: boolean;
  /** `CREATE INDEX` statements of the dropped secondary indexes, in creation order. */
  indexes: string[];
}

/** The tables a build fills row by row (their secondary indexes are built once, at the end). */
const BULK_TABLES = ["chunks", "facts", "fact_entities", "lines"];

/**
 * Bulk loading for a fresh build: per-row trigger inserts into FTS5 cost ~50 µs a row
 * (most of a 10-year build); filling the FTS tables with one INSERT ... SELECT each after
 * the base tables are loaded is about 10x faster. Likewise a secondary index built once
 * over the loaded rows (a sort) costs about half of updating it at every insert (87k lines
 * with two indexes: ~0.3 s CPU saved). Call beginBulkLoad before inserting into an empty
 * index and endBulkLoad after; triggers and indexes are back afterwards. The fill must not
 * look rows up by those indexes (applyFiles' `fresh`).
 */
export function beginBulkLoad(db: Database.Database, opts: { fts: boolean }): BulkLoad {
  if (opts.fts) {
    db.exec(DROP_TRIGGERS);
    db.exec(DROP_LINES_TRIGGERS);
  }
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${BULK_TABLES.map(() => "?").join(", ")}) ORDER BY rowid`,
    )
    .all(...BULK_TABLES) as { name: string; sql: string }[];
  for (const r of rows) db.exec(`DROP INDEX "${r.name.replaceAll('"', '""')}"`);
  return { fts: opts.fts, indexes: rows.map((r) => r.sql) };
}

export function endBulkLoad(db: Database.Database, load: BulkLoad): void {
  for (const sql of load.indexes) db.exec(sql);
  if (!load.fts) return;
  db.exec(`
    INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all');
    INSERT INTO chunks_tri(chunks_tri) VALUES ('delete-all');
    INSERT INTO facts_fts(facts_fts) VALUES ('delete-all');
    INSERT INTO chunks_fts(rowid, text) SELECT id, text FROM chunks;
    INSERT INTO chunks_tri(rowid, text) SELECT id, text FROM chunks WHERE cjk = 1;
    INSERT INTO facts_fts(rowid, content) SELECT rid, content FROM facts;
    INSERT INTO lines_fts(lines_fts) VALUES ('delete-all');
    INSERT INTO lines_fts(rowid, text) SELECT id, text FROM lines;
  `);
  db.exec(TRIGGERS);
  db.exec(LINES_TRIGGERS);
}

/** Does this index keep its FTS tables in step by triggers now (not during a bulk load, not without FTS5)? */
export function hasSyncTriggers(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'lines_ai'").get() !== undefined;
}

/** Drop the per-row FTS triggers of chunks, facts and lines (fts-batch.ts fills the FTS tables per statement instead). */
export function dropSyncTriggers(db: Database.Database): void {
  db.exec(DROP_TRIGGERS);
  db.exec(DROP_LINES_TRIGGERS);
}

/** Put the per-row FTS triggers back. */
export function createSyncTriggers(db: Database.Database): void {
  db.exec(TRIGGERS);
  db.exec(LINES_TRIGGERS);
}

/**
 * Migrations by target version; each runs once, in order, inside a transaction. An
 * index whose fingerprint (which includes the version) changed is rebuilt anyway; the
 * migration only has to leave an older file consistent until then.
 */
const MIGRATIONS: Record<number, (db: Database.Database, fts: boolean) => void> = {
  1: (db, fts) => {
    db.exec(BASE);
    if (fts) db.exec(FTS);
  },
  2: (db, fts) => {
    db.exec("ALTER TABLE chunks ADD COLUMN cjk INTEGER NOT NULL DEFAULT 0");
    if (fts) db.exec(`${DROP_TRIGGERS} INSERT INTO chunks_tri(chunks_tri) VALUES ('delete-all'); ${TRIGGERS}`);
  },
  // v3: fact_entities keeps the order in which a fact names its entities.
  3: (db) => {
    db.exec("ALTER TABLE fact_entities ADD COLUMN pos INTEGER NOT NULL DEFAULT 0");
  },
  // v4: opinions, their entities and evidence (filled by the next sync, which rebuilds: the fingerprint changed).
  4: (db, fts) => {
    db.exec(OPINIONS);
    if (fts) db.exec(OPINIONS_FTS);
  },
  // v5: facts with a validity range are few; a partial index lets a time window find them without a scan.
  5: (db) => {
    db.exec(
      "CREATE INDEX IF NOT EXISTS facts_valid ON facts(valid_from, valid_to) WHERE valid_from IS NOT NULL OR valid_to IS NOT NULL",
    );
  },
  // v6: recall reads a busy entity's newest opinions (evidence for an opinion) without walking all its facts.
  6: (db) => {
    db.exec("CREATE INDEX IF NOT EXISTS facts_opinion_date ON facts(date) WHERE kind = 'opinion'");
  },
  // v7: recall's line store moves into the index (it was a second file, built by every
  // recall, racing other recalls). Empty until the next sync, which rebuilds (the
  // fingerprint changed); recall says so meanwhile.
  7: (db, fts) => {
    db.exec(LINES);
    if (fts) db.exec(`${LINES_FTS} ${LINES_TRIGGERS}`);
  },
  // v8: an opinion's status (holding, weakened, ...) and trajectory, so recall answers with where it stands now.
  8: (db) => {
    db.exec("ALTER TABLE opinions ADD COLUMN status TEXT NOT NULL DEFAULT 'holding'");
    db.exec("ALTER TABLE opinions ADD COLUMN trajectory TEXT NOT NULL DEFAULT ''");
  },
  // v9: a file's lines may be counted from its end (lines.ts): a page that gains facts at its
  // top no longer moves every stored line. Rebuilt by the next sync (the fingerprint changed).
  9: (db) => {
    const columns = db.prepare("SELECT name FROM pragma_table_info('lines')").pluck().all();
    if (columns.includes("line")) db.exec("ALTER TABLE lines RENAME COLUMN line TO pos");
    db.exec("CREATE TABLE IF NOT EXISTS line_bases (path TEXT PRIMARY KEY, base INTEGER NOT NULL) WITHOUT ROWID");
  },
};

const LINES = `
CREATE TABLE IF NOT EXISTS lines (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  line INTEGER NOT NULL,
  date TEXT,
  text TEXT NOT NULL,
  ntok INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lines_path ON lines(path, line);
CREATE INDEX IF NOT EXISTS lines_date ON lines(date);
`;
// Porter-stemmed, unlike the chunks: recall ranks single lines and wants "moved" to find "moving".
const LINES_FTS = `
CREATE VIRTUAL TABLE IF NOT EXISTS lines_fts USING fts5(
  text, content='lines', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
`;
const DROP_LINES_TRIGGERS = `
DROP TRIGGER IF EXISTS lines_ai;
DROP TRIGGER IF EXISTS lines_ad;
`;
const LINES_TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS lines_ai AFTER INSERT ON lines BEGIN
  INSERT INTO lines_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS lines_ad AFTER DELETE ON lines BEGIN
  INSERT INTO lines_fts(lines_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
`;

// v4: opinions and their evidence, read from bank/opinions.md (DESIGN.md 2).
const OPINIONS = `
CREATE TABLE IF NOT EXISTS opinions (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  statement TEXT NOT NULL,
  confidence REAL NOT NULL,
  previous REAL,
  first_stated TEXT NOT NULL,
  last_updated TEXT NOT NULL,
  path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS opinions_path ON opinions(path);
CREATE TABLE IF NOT EXISTS opinion_entities (
  opinion_id TEXT NOT NULL,
  entity TEXT NOT NULL,
  pos INTEGER NOT NULL,
  PRIMARY KEY (entity, opinion_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS opinion_entities_opinion ON opinion_entities(opinion_id);
CREATE TABLE IF NOT EXISTS opinion_evidence (
  opinion_id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  fact_id TEXT NOT NULL,
  source TEXT NOT NULL,
  stance TEXT NOT NULL CHECK (stance IN ('support', 'contradict')),
  date TEXT NOT NULL,
  PRIMARY KEY (opinion_id, pos)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS opinion_evidence_fact ON opinion_evidence(fact_id);
`;

// Opinions are few and change only when reflect rewrites the page, so plain triggers
// (kept through bulk loads) are enough for their FTS table.
const OPINIONS_FTS = `
CREATE VIRTUAL TABLE IF NOT EXISTS opinions_fts USING fts5(
  statement, content='opinions', content_rowid='rid', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS opinions_ai AFTER INSERT ON opinions BEGIN
  INSERT INTO opinions_fts(rowid, statement) VALUES (new.rid, new.statement);
END;
CREATE TRIGGER IF NOT EXISTS opinions_ad AFTER DELETE ON opinions BEGIN
  INSERT INTO opinions_fts(opinions_fts, rowid, statement) VALUES ('delete', old.rid, old.statement);
END;
`;

export function readMeta(db: Database.Database, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
    key,
    value,
  );
}

/** The stored schema version; undefined for a new file (no meta table yet). */
function schemaVersion(db: Database.Database): string | undefined {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  return hasMeta ? readMeta(db, "schema_version") : undefined;
}

/**
 * Bring a fresh or older index up to SCHEMA_VERSION. Returns false when the file holds a
 * newer (unknown) version, which the caller treats as foreign and rebuilds.
 */
export function migrate(db: Database.Database, fts: boolean): boolean {
  const current = Number(schemaVersion(db) ?? "0");
  if (!Number.isInteger(current) || current > SCHEMA_VERSION) return false;
  if (current === SCHEMA_VERSION) return true;
  // IMMEDIATE: take the write lock first (waiting on busy_timeout), then re-read the
  // version, so two processes opening an old file at once migrate it once.
  let newer = false;
  db.transaction(() => {
    // The meta table too, inside the transaction: another process opening a new file sees
    // no tables or the whole schema, never a lone `meta` (which looks like another program's file).
    db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    const now = Number(readMeta(db, "schema_version") ?? "0");
    if (now > SCHEMA_VERSION) {
      newer = true;
      return;
    }
    for (let v = now + 1; v <= SCHEMA_VERSION; v++) {
      MIGRATIONS[v]!(db, fts);
      writeMeta(db, "schema_version", String(v));
      writeMeta(db, "fts", fts ? "1" : "0");
    }
  }).immediate();
  return !newer;
}
