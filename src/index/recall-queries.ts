import type { IndexDb } from "./db.js";
import { FACT_COLS, type FactRow, leanFacts, type RawFact, toFacts } from "./fact-rows.js";
import { prepared } from "./statements.js";

/**
 * The fact queries recall asks, one function per question. They lean on the index's
 * keys (fact_entities (entity, fact), facts_date, the partial indexes facts_opinion_date
 * and facts_valid), so the query-planner hints live here beside the schema they name.
 */

/** Facts whose Retain line lies in `path` lines from..to, by line. */
export function factsAtLines(idx: IndexDb, path: string, from: number, to: number): FactRow[] {
  const rows = prepared(
    idx.db,
    `SELECT ${FACT_COLS} FROM facts f WHERE f.path = ? AND f.line BETWEEN ? AND ? ORDER BY f.line, f.rid`,
  ).all(path, from, to) as RawFact[];
  return toFacts(idx, rows);
}

/**
 * `cols` of the newest `limit` facts naming any of the slugs (optionally of one kind).
 * An entity named in thousands of facts: walk facts newest first and stop at `limit`
 * (reading and sorting all of them cost 5-10 ms on 10 years); a rarer one: fetch its facts.
 */
function entityFactRows(idx: IndexDb, cols: string, slugs: readonly string[], limit: number, kind?: string): unknown[] {
  const marks = slugs.map(() => "?").join(",");
  const count = prepared(idx.db, `SELECT count(*) FROM fact_entities WHERE entity IN (${marks})`)
    .pluck()
    .get(...slugs);
  // The kind is spelled out for opinions so SQLite can walk the partial index facts_opinion_date.
  const opinion = kind === "opinion";
  const byKind = opinion ? " AND f.kind = 'opinion'" : kind ? " AND f.kind = ?" : "";
  const walk = opinion ? "facts_opinion_date" : "facts_date";
  const sql =
    Number(count) > limit * 4
      ? `SELECT ${cols} FROM facts f INDEXED BY ${walk} WHERE EXISTS (SELECT 1 FROM fact_entities e ` +
        `WHERE e.entity IN (${marks}) AND e.fact = f.rid)${byKind} ORDER BY f.date DESC, f.path, f.line, f.rid LIMIT ?`
      : `SELECT ${cols} FROM facts f WHERE f.rid IN (SELECT fact FROM fact_entities WHERE entity IN (${marks}))` +
        `${byKind} ORDER BY f.date DESC, f.path, f.line, f.rid LIMIT ?`;
  return prepared(idx.db, sql).all(...slugs, ...(kind && !opinion ? [kind] : []), limit);
}

/**
 * Facts about any of the entities (exact slugs, as listEntities spells them), newest
 * first, optionally of one kind. Exact matching lets SQLite use the (entity, fact) key:
 * the case-insensitive factsByEntity scans every fact by date instead.
 */
export function factsOfEntities(idx: IndexDb, slugs: readonly string[], limit: number, kind?: string): FactRow[] {
  if (slugs.length === 0) return [];
  return toFacts(idx, entityFactRows(idx, FACT_COLS, slugs, limit, kind) as RawFact[]);
}

/** The text of an opinion fact, for comparing opinions without reading their other columns. */
export interface OpinionFactText {
  id: string;
  path: string;
  line: number;
  content: string;
}

/** The newest `limit` opinion facts about any of the entities (exact slugs), their text only. */
export function opinionFactTexts(idx: IndexDb, slugs: readonly string[], limit: number): OpinionFactText[] {
  if (slugs.length === 0) return [];
  return entityFactRows(idx, "f.id, f.path, f.line, f.content", slugs, limit, "opinion") as OpinionFactText[];
}

/**
 * Facts dated in [from, to] or valid during it, newest first, WITHOUT their entities
 * (attach them with withEntities for the few that are kept: per-row lookups add up).
 */
export function factsInWindowLean(idx: IndexDb, from: string, to: string, limit: number): FactRow[] {
  // Two indexed lookups (by date; by validity through the partial index facts_valid) instead
  // of one OR, which SQLite can only answer by scanning every fact.
  const rows = prepared(
    idx.db,
    `SELECT ${FACT_COLS} FROM facts f WHERE f.rid IN (` +
      "SELECT rid FROM facts WHERE date BETWEEN ? AND ? UNION " +
      "SELECT rid FROM facts WHERE (valid_from IS NOT NULL OR valid_to IS NOT NULL) AND " +
      "coalesce(valid_from, '0000-00-00') <= ? AND coalesce(valid_to, valid_from, '9999-99-99') >= ?) " +
      "ORDER BY f.date DESC, f.path, f.line, f.rid LIMIT ?",
  ).all(from, to, to, from, limit) as RawFact[];
  return leanFacts(rows);
}

export { withEntities } from "./fact-rows.js";
