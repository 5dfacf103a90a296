import type { OpinionStatus } from "../markdown/opinions.js";
import type { IndexDb } from "./db.js";
import { FACT_COLS, type FactRow, type RawFact, toFacts } from "./fact-rows.js";
import { bm25ToScores } from "./fts.js";
import { prepared } from "./statements.js";
import { vectorKnn as knn, type VectorHit } from "./vectors.js";

export type { FactRow };

/**
 * Typed read queries over the index, for search and recall. Each takes an open IndexDb
 * (see openIndex / syncIndex) and returns plain objects. MATCH arguments are FTS5
 * expressions built by fts.ts (buildMatchQuery / cjkTerms), never raw user text.
 * Every list has a deterministic order (ties broken by id).
 */

export interface ChunkRow {
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  /** Date of the daily log the chunk is from (YYYY-MM-DD), null for other files. */
  date: string | null;
}

export interface EntityRow {
  slug: string;
  /** Display name: page front matter `name`/`title`, the page's H1, else the slug. */
  name: string;
  aliases: string[];
  /** `bank/entities/<slug>.md` when the page exists. */
  page: string | null;
  /** Number of facts that mention the entity. */
  facts: number;
}

/** A lexical hit: raw FTS5 bm25() (lower is better) and its 0..1 score relative to the best hit of the query. */
export interface Bm25Hit<T> {
  row: T;
  bm25: number;
  score: number;
}

// Ranking runs in a subquery over the FTS table alone, and only the top `limit` rows are
// joined: joining first would read the text of every matching chunk before the sort.
const CHUNK_COLS = "c.id, c.path, c.start_line AS startLine, c.end_line AS endLine, c.text, c.date";
function scored<T>(rows: (T & { bm25: number })[]): Bm25Hit<T>[] {
  const scores = bm25ToScores(rows.map((r) => r.bm25));
  return rows.map((r, i) => {
    const { bm25, ...row } = r;
    return { row: row as unknown as T, bm25, score: scores[i]! };
  });
}

/** BM25 over chunk text (unicode61). `match`: an FTS5 expression, e.g. from buildMatchQuery. */
export function bm25Chunks(idx: IndexDb, match: string | null, limit: number): Bm25Hit<ChunkRow>[] {
  if (!idx.fts || !match || limit <= 0) return [];
  const rows = prepared(
    idx.db,
    `SELECT ${CHUNK_COLS}, f.bm25 FROM (SELECT rowid AS id, bm25(chunks_fts) AS bm25 FROM chunks_fts ` +
      "WHERE chunks_fts MATCH ? ORDER BY bm25, rowid LIMIT ?) f JOIN chunks c ON c.id = f.id ORDER BY f.bm25, c.id",
  ).all(match, limit) as (ChunkRow & { bm25: number })[];
  return scored(rows);
}

/** BM25 over fact content (unicode61). */
export function bm25Facts(idx: IndexDb, match: string | null, limit: number): Bm25Hit<FactRow>[] {
  if (!idx.fts || !match || limit <= 0) return [];
  const rows = prepared(
    idx.db,
    `SELECT ${FACT_COLS}, m.bm25 FROM (SELECT rowid AS rid, bm25(facts_fts) AS bm25 FROM facts_fts ` +
      "WHERE facts_fts MATCH ? ORDER BY bm25, rowid LIMIT ?) m JOIN facts f ON f.rid = m.rid ORDER BY m.bm25, f.rid",
  ).all(match, limit) as (RawFact & { bm25: number })[];
  const hits = scored(rows);
  const facts = toFacts(
    idx,
    hits.map((h) => h.row),
  );
  return hits.map((h, i) => ({ ...h, row: facts[i]! }));
}

/**
 * Substring search over chunks with the trigram table (CJK text, where unicode61 sees a
 * whole run of characters as one token). `match` from cjkTerms().trigram; terms must be
 * 3+ characters. `short` terms (1-2 characters) are matched with LIKE (a scan, capped).
 */
export function trigramChunks(
  idx: IndexDb,
  terms: { trigram: string | null; short?: string[] },
  limit: number,
): Bm25Hit<ChunkRow>[] {
  if (!idx.fts || limit <= 0) return [];
  const out: Bm25Hit<ChunkRow>[] = [];
  if (terms.trigram) {
    const rows = prepared(
      idx.db,
      `SELECT ${CHUNK_COLS}, f.bm25 FROM (SELECT rowid AS id, bm25(chunks_tri) AS bm25 FROM chunks_tri ` +
        "WHERE chunks_tri MATCH ? ORDER BY bm25, rowid LIMIT ?) f JOIN chunks c ON c.id = f.id ORDER BY f.bm25, c.id",
    ).all(terms.trigram, limit) as (ChunkRow & { bm25: number })[];
    out.push(...scored(rows));
  }
  const seen = new Set(out.map((h) => h.row.id));
  for (const s of terms.short ?? []) {
    if (out.length >= limit) break;
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = prepared(
      idx.db,
      `SELECT ${CHUNK_COLS} FROM chunks c WHERE c.cjk = 1 AND c.text LIKE ? ESCAPE '\\' ORDER BY c.id LIMIT ?`,
    ).all(like, limit) as ChunkRow[];
    for (const row of rows) {
      if (seen.has(row.id) || out.length >= limit) continue;
      seen.add(row.id);
      // A short substring match is weaker evidence than a trigram hit.
      out.push({ row, bm25: 0, score: 0.5 });
    }
  }
  return out;
}

/** Nearest chunks to a query vector (vec0 when loaded, else the JS cosine scan): ids and 0..1 cosine scores. */
export function vectorKnn(idx: IndexDb, queryVec: Float32Array, limit: number): VectorHit[] {
  return knn(idx, queryVec, limit);
}

/** Chunks by id, in the order of `ids` (missing ids skipped). Use after vectorKnn. */
export function chunksByIds(idx: IndexDb, ids: number[]): ChunkRow[] {
  const stmt = prepared(idx.db, `SELECT ${CHUNK_COLS} FROM chunks c WHERE c.id = ?`);
  return ids.map((id) => stmt.get(id) as ChunkRow | undefined).filter((r): r is ChunkRow => r !== undefined);
}

/** The newest day on or before `day` that has a daily log, if any. */
export function newestLogDay(idx: IndexDb, day: string): string | undefined {
  const d = prepared(idx.db, "SELECT max(date) FROM chunks WHERE date <= ?").pluck().get(day);
  return typeof d === "string" ? d : undefined;
}

/** Chunks of daily logs of the given dates (YYYY-MM-DD), by path then line. */
export function chunksByDates(idx: IndexDb, dates: string[]): ChunkRow[] {
  if (dates.length === 0) return [];
  const placeholders = dates.map(() => "?").join(",");
  return prepared(
    idx.db,
    `SELECT ${CHUNK_COLS} FROM chunks c WHERE c.date IN (${placeholders}) ORDER BY c.path, c.start_line`,
  ).all(...dates) as ChunkRow[];
}

/** Facts mentioning any of the entity slugs (case-insensitive), newest first. */
export function factsByEntity(idx: IndexDb, slugs: string[], limit = 1000): FactRow[] {
  if (slugs.length === 0) return [];
  const placeholders = slugs.map(() => "?").join(",");
  const rows = prepared(
    idx.db,
    `SELECT DISTINCT ${FACT_COLS} FROM fact_entities fe JOIN facts f ON f.rid = fe.fact ` +
      `WHERE fe.entity COLLATE NOCASE IN (${placeholders}) ORDER BY f.date DESC, f.path, f.line, f.rid LIMIT ?`,
  ).all(...slugs, limit) as RawFact[];
  return toFacts(idx, rows);
}

/**
 * Facts whose date is in [from, to] or whose validity range overlaps it (both inclusive,
 * YYYY-MM-DD; an open-ended range counts from validFrom on, or up to validTo), by date.
 */
export function factsInWindow(idx: IndexDb, from: string, to: string, limit = 1000): FactRow[] {
  const rows = prepared(
    idx.db,
    `SELECT ${FACT_COLS} FROM facts f WHERE (f.date BETWEEN @from AND @to) OR ` +
      "((f.valid_from IS NOT NULL OR f.valid_to IS NOT NULL) AND " +
      "coalesce(f.valid_from, '0000-00-00') <= @to AND coalesce(f.valid_to, '9999-99-99') >= @from) " +
      "ORDER BY f.date, f.path, f.line, f.rid LIMIT @limit",
  ).all({ from, to, limit }) as RawFact[];
  return toFacts(idx, rows);
}

/** One fact by its stable id (the first occurrence when the same fact is in two files). */
export function factById(idx: IndexDb, id: string): FactRow | undefined {
  const row = prepared(idx.db, `SELECT ${FACT_COLS} FROM facts f WHERE f.id = ? ORDER BY f.path, f.line LIMIT 1`).get(
    id,
  ) as RawFact | undefined;
  return row ? toFacts(idx, [row])[0] : undefined;
}

/** Every entity (from facts and from bank/entities pages) with its aliases, by slug. */
export function listEntities(idx: IndexDb): EntityRow[] {
  const rows = prepared(idx.db, "SELECT slug, name, aliases, page, facts FROM entities ORDER BY slug").all() as (Omit<
    EntityRow,
    "aliases"
  > & { aliases: string })[];
  return rows.map((r) => ({ ...r, aliases: safeList(r.aliases) }));
}

function safeList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** One entry of an opinion's supporting or contradicting list in bank/opinions.md. */
export interface OpinionEvidenceRow {
  factId: string;
  /** `path#Lline` of the fact, as the page links it. */
  source: string;
  stance: "support" | "contradict";
  date: string;
}

/** A judged opinion from bank/opinions.md (reflect's current state of it). */
export interface OpinionRow {
  /** Region name, `op-<fact id of the first statement>`. */
  id: string;
  statement: string;
  entities: string[];
  /** Current confidence, as the page says (a person may have set it by hand). */
  confidence: number;
  previous: number | null;
  /** Where it stands since first stated (src/markdown/opinions.ts opinionStatus). */
  status: OpinionStatus;
  /** Its path as the page shows it: `0.80 (2026-03-03) -> 0.62 (03-11)`. */
  trajectory: string;
  firstStated: string;
  lastUpdated: string;
  /** The page, and the lines of the opinion's region text (marker lines excluded). */
  path: string;
  startLine: number;
  endLine: number;
  /** In page order: the supporting list, then the contradicting one. */
  evidence: OpinionEvidenceRow[];
}

const OPINION_COLS =
  "o.rid, o.id, o.statement, o.confidence, o.previous, o.status, o.trajectory, o.first_stated AS firstStated, " +
  "o.last_updated AS lastUpdated, o.path, o.start_line AS startLine, o.end_line AS endLine";

type RawOpinion = Omit<OpinionRow, "entities" | "evidence"> & { rid: number };

function withOpinionDetails(idx: IndexDb, rows: RawOpinion[]): OpinionRow[] {
  if (rows.length === 0) return [];
  const ents = prepared(idx.db, "SELECT entity FROM opinion_entities WHERE opinion_id = ? ORDER BY pos").pluck();
  const evs = prepared(
    idx.db,
    "SELECT fact_id AS factId, source, stance, date FROM opinion_evidence WHERE opinion_id = ? ORDER BY pos",
  );
  // One read per opinion: rows by evidence repeat an opinion once per fact it cites (ten years:
  // thousands of evidence rows each), and the callers never mutate these lists.
  const details = new Map<string, { entities: string[]; evidence: OpinionEvidenceRow[] }>();
  return rows.map(({ rid: _rid, ...r }) => {
    let d = details.get(r.id);
    if (d === undefined) {
      d = { entities: ents.all(r.id) as string[], evidence: evs.all(r.id) as OpinionEvidenceRow[] };
      details.set(r.id, d);
    }
    return { ...r, entities: d.entities, evidence: d.evidence };
  });
}

/** Does the index hold any opinions from bank/opinions.md? (Recall falls back to opinion facts when not.) */
export function hasOpinions(idx: IndexDb): boolean {
  return prepared(idx.db, "SELECT 1 FROM opinions LIMIT 1").get() !== undefined;
}

/** Every opinion, in page order. */
export function opinionsAll(idx: IndexDb, limit = 1000): OpinionRow[] {
  const rows = prepared(idx.db, `SELECT ${OPINION_COLS} FROM opinions o ORDER BY o.path, o.start_line LIMIT ?`).all(
    limit,
  ) as RawOpinion[];
  return withOpinionDetails(idx, rows);
}

/** Opinions about any of the entity slugs (case-insensitive), most recently updated first. */
export function opinionsByEntity(idx: IndexDb, slugs: readonly string[], limit = 1000): OpinionRow[] {
  if (slugs.length === 0) return [];
  const rows = prepared(
    idx.db,
    `SELECT ${OPINION_COLS} FROM opinions o WHERE o.id IN (SELECT opinion_id FROM opinion_entities ` +
      `WHERE entity COLLATE NOCASE IN (${slugs.map(() => "?").join(",")})) ` +
      "ORDER BY o.last_updated DESC, o.path, o.start_line LIMIT ?",
  ).all(...slugs, limit) as RawOpinion[];
  return withOpinionDetails(idx, rows);
}

/** BM25 over opinion statements. `match`: an FTS5 expression, e.g. from buildMatchQuery. */
export function bm25Opinions(idx: IndexDb, match: string | null, limit: number): Bm25Hit<OpinionRow>[] {
  if (!idx.fts || !match || limit <= 0) return [];
  const rows = prepared(
    idx.db,
    `SELECT ${OPINION_COLS}, m.bm25 FROM (SELECT rowid AS rid, bm25(opinions_fts) AS bm25 FROM opinions_fts ` +
      "WHERE opinions_fts MATCH ? ORDER BY bm25, rowid LIMIT ?) m JOIN opinions o ON o.rid = m.rid ORDER BY m.bm25, o.rid",
  ).all(match, limit) as (RawOpinion & { bm25: number })[];
  const hits = scored(rows);
  const full = withOpinionDetails(
    idx,
    hits.map((h) => h.row),
  );
  return hits.map((h, i) => ({ ...h, row: full[i]! }));
}

/** The opinions that list a fact (by stable fact id) as evidence, with that fact's stance, in page order. */
export function opinionsByEvidence(
  idx: IndexDb,
  factIds: readonly string[],
): { factId: string; stance: "support" | "contradict"; opinion: OpinionRow }[] {
  if (factIds.length === 0) return [];
  const rows = prepared(
    idx.db,
    `SELECT ${OPINION_COLS}, e.fact_id AS evFact, e.stance AS evStance FROM opinion_evidence e ` +
      `JOIN opinions o ON o.id = e.opinion_id WHERE e.fact_id IN (${factIds.map(() => "?").join(",")}) ` +
      "ORDER BY o.path, o.start_line, e.pos",
  ).all(...factIds) as (RawOpinion & { evFact: string; evStance: "support" | "contradict" })[];
  const ops = withOpinionDetails(
    idx,
    rows.map(({ evFact: _f, evStance: _s, ...r }) => r),
  );
  return rows.map((r, i) => ({ factId: r.evFact, stance: r.evStance, opinion: ops[i]! }));
}

/** The opinion whose region (marker lines included) holds `line` of `path`, if any. */
export function opinionAtLine(idx: IndexDb, path: string, line: number): OpinionRow | undefined {
  const row = prepared(
    idx.db,
    `SELECT ${OPINION_COLS} FROM opinions o WHERE o.path = ? AND o.start_line - 1 <= ? AND o.end_line + 1 >= ? ` +
      "ORDER BY o.start_line LIMIT 1",
  ).get(path, line, line) as RawOpinion | undefined;
  return row ? withOpinionDetails(idx, [row])[0] : undefined;
}
