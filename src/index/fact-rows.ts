import type { FactKind } from "../retain/types.js";
import type { IndexDb } from "./db.js";
import { prepared } from "./statements.js";

/** A Retain fact as the index stores it. */
export interface FactRow {
  /** Row id in the index (stable only within one index build). */
  rid: number;
  /** Stable Retain fact id. */
  id: string;
  kind: FactKind;
  content: string;
  date: string;
  validFrom: string | null;
  validTo: string | null;
  confidence: number | null;
  path: string;
  line: number;
  extracted: boolean;
  entities: string[];
}

/**
 * How a fact row is read from the `facts` table, in one place for every fact query
 * (queries.ts for search and reflect, recall-queries.ts for recall).
 */
export const FACT_COLS =
  "f.rid, f.id, f.kind, f.content, f.date, f.valid_from AS validFrom, f.valid_to AS validTo, " +
  "f.confidence, f.path, f.line, f.extracted";

export type RawFact = Omit<FactRow, "entities" | "extracted"> & { extracted: number };

/** Raw rows as FactRows without their entities (attach them with withEntities for the few kept). */
export function leanFacts(rows: readonly RawFact[]): FactRow[] {
  return rows.map((r) => ({ ...r, extracted: r.extracted === 1, entities: [] }));
}

/**
 * Fill in the entities of facts (in place), in the order each fact names them. Per-fact
 * lookups use the (fact) key: a join over every kept fact would sort them all.
 */
export function withEntities(idx: IndexDb, facts: FactRow[]): FactRow[] {
  if (facts.length === 0) return facts;
  const ents = prepared(idx.db, "SELECT entity FROM fact_entities WHERE fact = ? ORDER BY pos").pluck();
  for (const f of facts) f.entities = ents.all(f.rid) as string[];
  return facts;
}

/** Raw rows as complete FactRows (entities included). */
export function toFacts(idx: IndexDb, rows: readonly RawFact[]): FactRow[] {
  return withEntities(idx, leanFacts(rows));
}
