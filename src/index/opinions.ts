import type Database from "better-sqlite3";
import { citeLine } from "../markdown/citation.js";
import { type Opinion, opinionStatus, parseOpinion, trajectoryText } from "../markdown/opinions.js";
import { type Region, readRegions } from "../markdown/regions.js";

/** The page reflect writes its judged opinions to (DESIGN.md 1): the only file read into the opinions tables. */

/** An opinion of the page with the lines its region's text spans (marker lines excluded). */
export interface PageOpinion extends Opinion {
  startLine: number;
  endLine: number;
}

/**
 * The opinions of bank/opinions.md, in page order. Pure. Regions that do not parse (a
 * person's half-finished edit) and a page with broken markers give no opinions: reflect
 * reports those, and the page's lines stay searchable as text.
 */
export function readOpinionPage(rel: string, text: string): PageOpinion[] {
  const regions = opinionRegions(rel, text);
  const out: PageOpinion[] = [];
  for (const region of regions ?? []) {
    const op = pageOpinion(region);
    if (op !== undefined) out.push(op);
  }
  return out;
}

/** The `op-*` regions of a page; undefined when its markers are broken. */
function opinionRegions(rel: string, text: string): Region[] | undefined {
  try {
    return readRegions(text, rel).filter((r) => r.name.startsWith("op-"));
  } catch {
    return undefined;
  }
}

/** The opinion of one region (a function of its name, body and place alone); undefined when it does not parse. */
function pageOpinion(region: Region): PageOpinion | undefined {
  const op = parseOpinion(region.name, region.body);
  if (typeof op === "string") return undefined;
  // Cite the region's text without its blank edges: the heading through the last evidence line.
  const lines = region.body.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  const first = lines.findIndex((l) => l.trim() !== "");
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === "") last--;
  // The region name is the identity (reflect does the same: an edited id line cannot fork it).
  return { ...op, id: region.name, startLine: region.startLine + 1 + first, endLine: region.startLine + 1 + last };
}

/** An opinion's rows as storeOpinions writes them. */
interface OpinionRows {
  id: string;
  /** opinions' columns after id, in INSERT order (statement first). */
  cols: (string | number | null)[];
  /** opinion_entities: [entity, pos], the first of a repeated entity only. */
  entities: [string, number][];
  /** opinion_evidence: [pos, fact_id, source, stance, date], gone entries left out. */
  evidence: [number, string, string, string, string][];
}

/** The rows the opinions of `text` give, in page order; a repeated region name: the first counts. */
function opinionRows(rel: string, text: string): OpinionRows[] {
  const out: OpinionRows[] = [];
  const seen = new Set<string>();
  for (const op of readOpinionPage(rel, text)) {
    if (seen.has(op.id)) continue;
    seen.add(op.id);
    out.push(rowsOf(rel, op));
  }
  return out;
}

function rowsOf(rel: string, op: PageOpinion): OpinionRows {
  const named = new Set<string>();
  const entities: [string, number][] = [];
  for (const [pos, e] of op.entities.entries()) {
    if (named.has(e)) continue;
    named.add(e);
    entities.push([e, pos]);
  }
  const evidence: OpinionRows["evidence"] = [];
  for (const [pos, ev] of op.evidence.entries()) {
    if (ev.gone) continue; // its line is gone from the log: recall must not cite it
    evidence.push([pos, ev.factId, citeLine(ev.source), ev.stance, ev.date]);
  }
  const cols = [
    op.statement,
    op.confidence,
    op.previous ?? null,
    op.created,
    op.lastUpdated,
    rel,
    op.startLine,
    op.endLine,
    opinionStatus(op),
    trajectoryText(op),
  ];
  return { id: op.id, cols, entities, evidence };
}

const COLS =
  "statement, confidence, previous, first_stated, last_updated, path, start_line, end_line, status, trajectory";

/**
 * Make the opinions read from `rel` those of `text` (inside the caller's transaction).
 * `oldText`: the page as the stored rows were read from it (the sync checked its hash). A night
 * moves one or two opinions of the page and shifts the lines of the rest: when both texts hold
 * the same regions in the same order, only the regions whose text changed are parsed and
 * written, the others' rows only move (the page's thousands of evidence rows stay). Else every
 * row is written again. Either way the rows, their `rid`s and the FTS entries are those a fresh
 * store of `text` gives.
 */
export function storeOpinions(db: Database.Database, rel: string, text: string, oldText?: string): void {
  if (oldText !== undefined && keepUnchanged(db, rel, text, oldText)) return;
  removeOpinions(db, rel);
  insertOpinions(db, opinionRows(rel, text));
}

function insertOpinions(db: Database.Database, rows: readonly OpinionRows[]): void {
  const insert = db.prepare(`INSERT OR IGNORE INTO opinions(id, ${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const op of rows) {
    if (insert.run(op.id, ...op.cols).changes === 0) continue; // an id another page holds: the first one counts
    insertDetails(db, op);
  }
}

function insertDetails(db: Database.Database, op: OpinionRows): void {
  const insertEntity = db.prepare("INSERT OR IGNORE INTO opinion_entities(opinion_id, entity, pos) VALUES (?, ?, ?)");
  const insertEvidence = db.prepare(
    "INSERT INTO opinion_evidence(opinion_id, pos, fact_id, source, stance, date) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [e, pos] of op.entities) insertEntity.run(op.id, e, pos);
  for (const ev of op.evidence) insertEvidence.run(op.id, ...ev);
}

/**
 * Bring the rows of `rel` from `oldText` to `text` in place, when the table holds exactly the
 * old page's opinions numbered 1..n (as a fresh store numbers them) and the new page has the
 * same regions in the same order, its changed opinions keeping their statements (their FTS
 * entries, keyed by rid and statement, then stay right). False: nothing was written.
 */
function keepUnchanged(db: Database.Database, rel: string, text: string, oldText: string): boolean {
  const now = opinionRegions(rel, text);
  const before = opinionRegions(rel, oldText);
  if (now === undefined || before === undefined || now.length !== before.length) return false;
  if (new Set(now.map((r) => r.name)).size !== now.length) return false;
  if (now.some((r, i) => r.name !== before[i]!.name)) return false;
  const stored = db.prepare("SELECT rid, id, statement FROM opinions WHERE path = ? ORDER BY rid").raw().all(rel) as [
    number,
    string,
    string,
  ][];
  if (db.prepare("SELECT count(*) FROM opinions").pluck().get() !== stored.length) return false;
  if (stored.some(([rid], i) => rid !== i + 1)) return false;
  // What each stored row becomes: moved by some lines (same region text), or rewritten.
  const moves: [number, number][] = [];
  const rewrites: [number, OpinionRows][] = [];
  let k = 0;
  for (let i = 0; i < now.length; i++) {
    const region = now[i]!;
    const row = stored[k]?.[1] === region.name ? stored[k] : undefined;
    if (region.body === before[i]!.body) {
      // The same text parses the same: stored if it parsed then.
      if (row === undefined) continue;
      const shift = region.startLine - before[i]!.startLine;
      if (shift !== 0) moves.push([k + 1, shift]);
      k++;
      continue;
    }
    const op = pageOpinion(region);
    if (op === undefined && row === undefined) continue;
    if (op === undefined || row === undefined || row[2] !== op.statement) return false;
    rewrites.push([k + 1, rowsOf(rel, op)]);
    k++;
  }
  if (k !== stored.length) return false;
  const move = db.prepare("UPDATE opinions SET start_line = start_line + ?, end_line = end_line + ? WHERE rid = ?");
  for (const [rid, shift] of moves) move.run(shift, shift, rid);
  const update = db.prepare(`UPDATE opinions SET (${COLS}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE rid = ?`);
  for (const [rid, op] of rewrites) {
    update.run(...op.cols, rid);
    db.prepare("DELETE FROM opinion_entities WHERE opinion_id = ?").run(op.id);
    db.prepare("DELETE FROM opinion_evidence WHERE opinion_id = ?").run(op.id);
    insertDetails(db, op);
  }
  return true;
}

/** Forget the opinions read from `rel` (the page changed or was deleted). */
export function removeOpinions(db: Database.Database, rel: string): void {
  const sub = "SELECT id FROM opinions WHERE path = ?";
  db.prepare(`DELETE FROM opinion_entities WHERE opinion_id IN (${sub})`).run(rel);
  db.prepare(`DELETE FROM opinion_evidence WHERE opinion_id IN (${sub})`).run(rel);
  db.prepare("DELETE FROM opinions WHERE path = ?").run(rel);
}
