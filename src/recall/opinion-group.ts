import type { IndexDb } from "../index/db.js";
import { hasOpinions } from "../index/queries.js";
import { type OpinionRow, opinionEvidence } from "./candidates.js";
import type { Fused } from "./fuse.js";
import { absorbIntoPageOpinions, pageEvidenceForFact } from "./opinions.js";
import type { RecallPlan } from "./plan.js";

/**
 * The one opinion stage of recall: every result that is an opinion becomes one result per
 * opinion, with evidence. Reflect's judged opinions (bank/opinions.md) take in the log
 * facts filed under them and the bank lines that only repeat them; an opinion fact reflect
 * has not judged gets the page's evidence for it, else the heuristic evidence of the
 * index; restatements of one opinion on several days are one result. Input best first.
 */
export function groupOpinions(idx: IndexDb, fused: Fused[], plan: RecallPlan): Fused[] {
  const judged = hasOpinions(idx);
  const intent = plan.intent;
  // With reflect's page, the restatements and contradictions of an opinion are that opinion
  // (current confidence, judged evidence), except in a plain time question, where the
  // dated log line itself is the answer.
  let out = judged && (intent.kinds.includes("opinion") || !intent.window) ? absorbIntoPageOpinions(idx, fused) : fused;
  const cache = new Map<string, OpinionRow[]>();
  for (const f of out.slice(0, plan.k * plan.tuning.evidencePerK)) {
    const c = f.cand;
    if (c.kind !== "opinion" || c.evidence) continue;
    const filed = judged && c.factId ? pageEvidenceForFact(idx, c.factId, plan.tuning.evidenceLinks) : undefined;
    c.evidence = filed ?? opinionEvidence(idx, c, plan.tuning.evidenceLinks, cache);
  }
  out = collapseOpinions(out);
  return out;
}

/**
 * Restatements of one opinion on several days are one result: the newest statement
 * (its confidence is the current one) at the best rank of the group, the older ones as
 * its evidence. Opinions are linked when one lists the other as evidence.
 */
export function collapseOpinions(items: Fused[]): Fused[] {
  const out: Fused[] = [];
  const bySource = new Map<string, Fused>();
  for (const f of items) {
    const c = f.cand;
    // A judged opinion of the page is one opinion already.
    if (c.kind !== "opinion" || !c.evidence || c.opinionId) {
      out.push(f);
      continue;
    }
    const self = `${c.path}#L${c.startLine}`;
    const linked = c.evidence.map((e) => bySource.get(e.source)).find((x) => x !== undefined);
    if (!linked) {
      out.push(f);
      bySource.set(self, f);
      continue;
    }
    bySource.set(self, linked);
    const head = linked.cand;
    const newer = (c.date ?? "") > (head.date ?? "") ? c : head;
    const older = newer === c ? head : c;
    const evidence = new Map((newer.evidence ?? []).map((e) => [e.source, e]));
    const olderRef = `${older.path}#L${older.startLine}`;
    if (!evidence.has(olderRef)) {
      const stance = older.evidence?.find((e) => e.source === `${newer.path}#L${newer.startLine}`)?.stance ?? "support";
      evidence.set(olderRef, { source: olderRef, stance });
    }
    linked.cand = {
      ...newer,
      evidence: [...evidence.values()].filter((e) => e.source !== `${newer.path}#L${newer.startLine}`),
    };
    linked.arms = [...linked.arms, ...f.arms.filter((a) => !linked.arms.some((b) => b.arm === a.arm))];
  }
  return out;
}
