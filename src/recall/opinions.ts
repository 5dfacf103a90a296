import type { IndexDb } from "../index/db.js";
import { bm25Opinions, type OpinionRow, opinionsByEntity, opinionsByEvidence } from "../index/queries.js";
import { citedLabels } from "../markdown/citation.js";
import { byScoreThenPlace } from "../markdown/order.js";
import type { Fused } from "./fuse.js";
import type { Candidate, EvidenceRef } from "./types.js";

/**
 * Reflect's judged opinions (bank/opinions.md, read into the index's opinion tables) as
 * recall results. One result per opinion:
 *
 * - content: the statement, and for one that moved (weakened, strengthened, reversed)
 *   where it stands now, so a belief given up never reads as current; confidence: the
 *   CURRENT value on the page (evolved by reflect, or set by a person), not the value a
 *   log line was written with; status and trajectory as the page shows them;
 * - evidence: the page's supporting and contradicting lists, stances as reflect judged them;
 * - timestamp: the opinion's last update;
 * - source: the opinion's region on bank/opinions.md (heading through last evidence line,
 *   marker lines excluded). That is where every field of the result is written and where
 *   a person reviews or corrects it; the log lines behind it are each cited in `evidence`.
 */
export function opinionCandidate(o: OpinionRow): Candidate {
  const c: Candidate = {
    key: `opinion:${o.id}`,
    kind: "opinion",
    path: o.path,
    startLine: o.startLine,
    endLine: o.endLine,
    date: o.lastUpdated,
    entities: o.entities,
    content: currentState(o),
    confidence: o.confidence,
    status: o.status,
    opinionId: o.id,
    evidence: o.evidence.map((e) => ({ source: e.source, stance: e.stance })),
  };
  if (o.trajectory) c.trajectory = o.trajectory;
  return c;
}

/**
 * The statement with where it stands now when it lost ground: `Thinks X. [reversed:
 * 0.80 -> 0.42 by 2026-04-01]`. A holding or strengthened opinion is its statement alone
 * (what it says is still what its holder thinks).
 */
export function currentState(
  o: Pick<OpinionRow, "statement" | "status" | "trajectory" | "confidence" | "lastUpdated">,
): string {
  if (o.status !== "weakened" && o.status !== "reversed") return o.statement;
  const first = /^([0-9.]+) /.exec(o.trajectory)?.[1];
  const moved = first ? `${first} -> ${o.confidence.toFixed(2)}` : o.confidence.toFixed(2);
  return `${o.statement} [${o.status}: ${moved} by ${o.lastUpdated}]`;
}

/** Scored page opinions for the opinion arm. `match`: FTS5 expression of the question's topic words. */
export function pageOpinionItems(
  idx: IndexDb,
  match: string | null,
  entities: readonly string[],
  holderOnly: boolean,
  opinionFactHits: readonly { factId: string; score: number }[],
  limit: number,
): { cand: Candidate; score: number }[] {
  const best = new Map<string, { row: OpinionRow; score: number }>();
  const offer = (row: OpinionRow, score: number) => {
    const prev = best.get(row.id);
    if (!prev || score > prev.score) best.set(row.id, { row, score });
  };
  const wanted = entities.map((e) => e.toLowerCase());
  const about = (row: OpinionRow) => row.entities.some((e) => wanted.includes(e.toLowerCase()));
  for (const h of bm25Opinions(idx, match, limit)) offer(h.row, h.score + (about(h.row) ? 1 : 0));
  // A restatement or a contradiction in the logs that matches the question points at the opinion it is evidence of.
  const pages = opinionsByEvidence(
    idx,
    opinionFactHits.map((h) => h.factId),
  );
  for (const h of opinionFactHits) {
    for (const p of pages.filter((x) => x.factId === h.factId)) offer(p.opinion, h.score + (about(p.opinion) ? 1 : 0));
  }
  // "What does Jonas think?": no topic given, so the holder's opinions, most recently updated first.
  if (holderOnly) for (const row of opinionsByEntity(idx, entities, limit)) offer(row, 0.5);
  return [...best.values()]
    .sort(
      byScoreThenPlace(
        (x) => x.score,
        (x) => ({ path: x.row.path, line: x.row.startLine, id: x.row.id }),
      ),
    )
    .slice(0, limit)
    .map(({ row, score }) => ({ cand: opinionCandidate(row), score }));
}

/**
 * Opinion facts of the logs that reflect filed as evidence of a page opinion become that
 * opinion (one result per opinion, at the best rank of the group, with every arm that
 * found any part of it). Facts reflect has not seen yet stay as they are. Input best first.
 */
export function absorbIntoPageOpinions(idx: IndexDb, items: readonly Fused[]): Fused[] {
  const factIds = items
    .filter((f) => f.cand.kind === "opinion" && !f.cand.opinionId && f.cand.factId)
    .map((f) => f.cand.factId!);
  const owner = new Map<string, OpinionRow>();
  for (const p of opinionsByEvidence(idx, [...new Set(factIds)])) {
    if (!owner.has(p.factId)) owner.set(p.factId, p.opinion);
  }
  const out: Fused[] = [];
  const byOpinion = new Map<string, Fused>();
  for (const f of items) {
    const c = f.cand;
    let cand: Candidate | undefined;
    if (c.opinionId) cand = c;
    else if (c.kind === "opinion" && c.factId && owner.has(c.factId)) cand = opinionCandidate(owner.get(c.factId)!);
    if (!cand) {
      out.push(f);
      continue;
    }
    const head = byOpinion.get(cand.opinionId!);
    if (head) {
      for (const a of f.arms) if (!head.arms.some((b) => b.arm === a.arm)) head.arms.push(a);
      continue;
    }
    const merged: Fused = { cand, score: f.score, arms: [...f.arms] };
    byOpinion.set(cand.opinionId!, merged);
    out.push(merged);
  }
  return foldBankLines(out);
}

/**
 * Lines of other bank pages (an entity page's "opinions stated" list) that only cite
 * evidence of an opinion result are that opinion again, with each statement's old
 * confidence: they fold into it (a fact and the lines that repeat it are one result).
 * The opinion moves up to the better rank. Input best first.
 */
function foldBankLines(items: Fused[]): Fused[] {
  const opinions = items.filter((f) => f.cand.opinionId);
  if (opinions.length === 0) return items;
  const evidence = new Map(opinions.map((o) => [o, new Set((o.cand.evidence ?? []).map((e) => e.source))]));
  const ownerOf = (f: Fused): Fused | undefined => {
    const c = f.cand;
    if (c.kind !== "note" || !c.path.startsWith("bank/")) return undefined;
    const lines = c.content.split("\n").filter((l) => l.trim() !== "");
    const cited = lines.map((l) => citedLabels(l));
    if (lines.length === 0 || cited.some((list) => list.length === 0)) return undefined;
    return opinions.find((o) => cited.every((list) => list.every((s) => evidence.get(o)!.has(s))));
  };
  const out: Fused[] = [];
  const placed = new Set<Fused>();
  for (const f of items) {
    const owner = ownerOf(f);
    if (owner) {
      for (const a of f.arms) if (!owner.arms.some((b) => b.arm === a.arm)) owner.arms.push(a);
      owner.score = Math.max(owner.score, f.score);
    }
    const target = owner ?? f;
    if (placed.has(target)) continue;
    placed.add(target);
    out.push(target);
  }
  return out;
}

/**
 * Evidence for an opinion fact from reflect's judgement: the other entries of the page
 * opinion it is filed under, with stances relative to this fact (an entry on the same
 * side supports it, one on the other side contradicts it). Undefined when reflect has
 * not filed the fact (the caller then falls back to the heuristic).
 */
export function pageEvidenceForFact(idx: IndexDb, factId: string, limit = 5): EvidenceRef[] | undefined {
  const filed = opinionsByEvidence(idx, [factId])[0];
  if (!filed) return undefined;
  const out: EvidenceRef[] = [];
  for (const e of filed.opinion.evidence) {
    if (e.factId === factId) continue;
    out.push({ source: e.source, stance: e.stance === filed.stance ? "support" : "contradict" });
    if (out.length >= limit) break;
  }
  return out;
}
