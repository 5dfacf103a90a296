import { textPolarity } from "../analysis/cues.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { fold } from "../analysis/tokens.js";
import type { IndexDb } from "../index/db.js";
import { readLines } from "../index/lines.js";
import { type FactRow, opinionAtLine } from "../index/queries.js";
import { prepared } from "../index/statements.js";
import { logDate } from "../markdown/log-path.js";
import { OPINIONS_PAGE } from "../markdown/pages.js";
import { findMentions } from "../retain/entities.js";
import { opinionCandidate } from "./opinions.js";
import type { Candidate, EvidenceRef } from "./types.js";

/**
 * Building result candidates from index rows and line ranges, plus the one extra index
 * query recall needs (facts on given lines), kept here so src/index stays untouched.
 */

const FACT_COLS =
  "f.rid, f.id, f.kind, f.content, f.date, f.valid_from AS validFrom, f.valid_to AS validTo, " +
  "f.confidence, f.path, f.line, f.extracted";

/** Facts whose Retain line lies in `path` lines from..to, by line. */
export function factsAtLines(idx: IndexDb, path: string, from: number, to: number): FactRow[] {
  const rows = prepared(
    idx.db,
    `SELECT ${FACT_COLS} FROM facts f WHERE f.path = ? AND f.line BETWEEN ? AND ? ORDER BY f.line, f.rid`,
  ).all(path, from, to) as (Omit<FactRow, "entities" | "extracted"> & { extracted: number })[];
  const ents = prepared(idx.db, "SELECT entity FROM fact_entities WHERE fact = ?").pluck();
  return rows.map((r) => ({ ...r, extracted: r.extracted === 1, entities: ents.all(r.rid) as string[] }));
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
 * the index's case-insensitive factsByEntity scans every fact by date instead.
 */
export function factsOfEntities(idx: IndexDb, slugs: readonly string[], limit: number, kind?: string): FactRow[] {
  if (slugs.length === 0) return [];
  const rows = entityFactRows(idx, FACT_COLS, slugs, limit, kind) as (Omit<FactRow, "entities" | "extracted"> & {
    extracted: number;
  })[];
  const ents = prepared(idx.db, "SELECT entity FROM fact_entities WHERE fact = ? ORDER BY pos").pluck();
  return rows.map((r) => ({ ...r, extracted: r.extracted === 1, entities: ents.all(r.rid) as string[] }));
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
  ).all(from, to, to, from, limit) as (Omit<FactRow, "entities" | "extracted"> & { extracted: number })[];
  return rows.map((r) => ({ ...r, extracted: r.extracted === 1, entities: [] }));
}

/** Fill in the entities of facts (in place), in their order of appearance. */
export function withEntities(idx: IndexDb, facts: FactRow[]): FactRow[] {
  const ents = prepared(idx.db, "SELECT entity FROM fact_entities WHERE fact = ? ORDER BY pos").pluck();
  for (const f of facts) f.entities = ents.all(f.rid) as string[];
  return facts;
}

/** Opinion facts about any of the entities, newest first. */
export function opinionFactsByEntity(idx: IndexDb, slugs: readonly string[], limit: number): FactRow[] {
  return factsOfEntities(idx, slugs, limit, "opinion");
}

export function factCandidate(f: FactRow): Candidate {
  const c: Candidate = {
    key: `fact:${f.path}#${f.line}`,
    kind: f.kind,
    path: f.path,
    startLine: f.line,
    endLine: f.line,
    date: f.date,
    entities: f.entities,
    content: f.content,
    factId: f.id,
  };
  if (f.confidence !== null && f.kind === "opinion") c.confidence = f.confidence;
  return c;
}

/** A managed-region marker line of a bank page: bookkeeping, never shown in a result. */
const MARKER_LINE = /^\s*<!--\s*membank:/;

/**
 * A candidate for lines `from..to` of a file: the fact on `focus` when that line is a
 * Retain fact (a fact and its line are one result), the judged opinion when `focus` is
 * inside an opinion's region of bank/opinions.md, else a note with the lines (blank
 * lines inside kept, blank edges trimmed so the citation is tight; membank marker lines
 * of bank pages blanked, so they never show).
 */
export function linesCandidate(
  idx: IndexDb,
  path: string,
  from: number,
  to: number,
  focus: number,
): Candidate | undefined {
  const fact = factsAtLines(idx, path, focus, focus)[0];
  if (fact) return factCandidate(fact);
  if (path === OPINIONS_PAGE && focus >= 1) {
    const op = opinionAtLine(idx, path, focus);
    if (op) return opinionCandidate(op);
  }
  const bank = path.startsWith("bank/");
  const rows = readLines(idx, path, from, to).filter((r) => !(bank && MARKER_LINE.test(r.text)));
  if (rows.length === 0) return undefined;
  const start = rows[0]!.line;
  const end = rows[rows.length - 1]!.line;
  const byLine = new Map(rows.map((r) => [r.line, r.text]));
  const lines: string[] = [];
  for (let l = start; l <= end; l++) lines.push(byLine.get(l) ?? "");
  const content = lines.join("\n");
  const c: Candidate = {
    // Keyed by the line it is centred on, so arms that found the same line fuse into one result.
    key: focus >= 1 ? `lines:${path}#${focus}` : `lines:${path}#${start}-${end}`,
    kind: "note",
    path,
    startLine: start,
    endLine: end,
    entities: findMentions(content),
    content,
  };
  const date = logDate(path);
  if (date) c.date = date;
  return c;
}

function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of fold(text).split(/[^\p{L}\p{N}]+/u)) {
    if (w.length < 3 || STOP_WORDS.has(w)) continue;
    out.add(w.length > 5 ? w.slice(0, 5) : w); // a crude stem: "ships"/"shipping" agree
  }
  return out;
}

/**
 * Evidence for an opinion from the index: other opinion facts about the same entities
 * that say nearly the same thing. A heuristic stance: one side negated -> contradict,
 * else support, negation read through the shared cues (analysis/cues.ts) exactly as
 * reflect's judge reads a restatement. Reflect's bank/opinions.md carries judged evidence when it exists.
 */
export function opinionEvidence(
  idx: IndexDb,
  opinion: Candidate,
  limit = 5,
  cache: Map<string, OpinionRow[]> = new Map(),
): EvidenceRef[] {
  if (opinion.entities.length === 0) return [];
  const mine = contentWords(opinion.content);
  const negated = textPolarity(opinion.content) < 0;
  const out: EvidenceRef[] = [];
  for (const f of opinionRows(idx, opinion.entities, cache)) {
    if (f.id === opinion.factId) continue;
    let shared = 0;
    for (const w of f.words) if (mine.has(w)) shared++;
    const jaccard = shared / Math.max(1, mine.size + f.words.size - shared);
    if (jaccard < 0.15 || shared < 2) continue;
    out.push({ source: `${f.path}#L${f.line}`, stance: f.negated !== negated ? "contradict" : "support" });
    if (out.length >= limit) break;
  }
  return out;
}

export interface OpinionRow {
  id: string;
  path: string;
  line: number;
  words: Set<string>;
  negated: boolean;
}

/** The newest 200 opinions about the entities, tokenised once per recall call (`cache`). */
function opinionRows(idx: IndexDb, entities: readonly string[], cache: Map<string, OpinionRow[]>): OpinionRow[] {
  const key = [...entities].sort().join("\u0000");
  let rows = cache.get(key);
  if (!rows) {
    const raw = entityFactRows(idx, "f.id, f.path, f.line, f.content", entities, 200, "opinion") as {
      id: string;
      path: string;
      line: number;
      content: string;
    }[];
    rows = raw.map((r) => ({
      id: r.id,
      path: r.path,
      line: r.line,
      words: contentWords(r.content),
      negated: textPolarity(r.content) < 0,
    }));
    cache.set(key, rows);
  }
  return rows;
}
