import type Database from "better-sqlite3";
import { citeLine } from "../markdown/citation.js";
import { type Opinion, opinionStatus, parseOpinion, trajectoryText } from "../markdown/opinions.js";
import { readRegions } from "../markdown/regions.js";

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
  let regions: ReturnType<typeof readRegions>;
  try {
    regions = readRegions(text, rel);
  } catch {
    return [];
  }
  const out: PageOpinion[] = [];
  for (const region of regions) {
    if (!region.name.startsWith("op-")) continue;
    const op = parseOpinion(region.name, region.body);
    if (typeof op === "string") continue;
    // Cite the region's text without its blank edges: the heading through the last evidence line.
    const lines = region.body.split(/\r\n|\r|\n/);
    if (lines.at(-1) === "") lines.pop();
    const first = lines.findIndex((l) => l.trim() !== "");
    let last = lines.length - 1;
    while (last > first && lines[last]!.trim() === "") last--;
    // The region name is the identity (reflect does the same: an edited id line cannot fork it).
    out.push({ ...op, id: region.name, startLine: region.startLine + 1 + first, endLine: region.startLine + 1 + last });
  }
  return out;
}

/** Replace the opinions read from `rel` (inside the caller's transaction). */
export function storeOpinions(db: Database.Database, rel: string, text: string): void {
  removeOpinions(db, rel);
  const insert = db.prepare(
    "INSERT OR IGNORE INTO opinions(id, statement, confidence, previous, first_stated, last_updated, path, start_line, end_line, status, trajectory) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertEntity = db.prepare("INSERT OR IGNORE INTO opinion_entities(opinion_id, entity, pos) VALUES (?, ?, ?)");
  const insertEvidence = db.prepare(
    "INSERT INTO opinion_evidence(opinion_id, pos, fact_id, source, stance, date) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const op of readOpinionPage(rel, text)) {
    const res = insert.run(
      op.id,
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
    );
    if (res.changes === 0) continue; // the same region name twice: the first one counts
    for (const [pos, e] of op.entities.entries()) insertEntity.run(op.id, e, pos);
    for (const [pos, ev] of op.evidence.entries()) {
      if (ev.gone) continue; // its line is gone from the log: recall must not cite it
      insertEvidence.run(op.id, pos, ev.factId, citeLine(ev.source), ev.stance, ev.date);
    }
  }
}

/** Forget the opinions read from `rel` (the page changed or was deleted). */
export function removeOpinions(db: Database.Database, rel: string): void {
  const sub = "SELECT id FROM opinions WHERE path = ?";
  db.prepare(`DELETE FROM opinion_entities WHERE opinion_id IN (${sub})`).run(rel);
  db.prepare(`DELETE FROM opinion_evidence WHERE opinion_id IN (${sub})`).run(rel);
  db.prepare("DELETE FROM opinions WHERE path = ?").run(rel);
}
