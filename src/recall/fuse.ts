import { cmp } from "../markdown/links.js";
import { byScoreThenPlace } from "../markdown/order.js";
import type { ArmHit, ArmList, Candidate } from "./types.js";

export type FusionMethod = "rrf" | "weighted";

export interface FuseOptions {
  method: FusionMethod;
  /** RRF constant: score = sum of weight / (rrfK + rank). */
  rrfK: number;
}

export const DEFAULT_FUSE: FuseOptions = { method: "weighted", rrfK: 60 };

export interface Fused {
  cand: Candidate;
  score: number;
  arms: ArmHit[];
}

/**
 * Combine ranked arm lists into one. `rrf`: reciprocal rank fusion, robust to arms whose
 * scores are on different scales. `weighted`: each arm's scores min-max normalised to
 * 0..1 (the best hit 1), times the arm weight, summed. Items with the same key are one
 * result; the first-seen candidate is kept. Ties break by key, so output is deterministic.
 */
export function fuse(arms: readonly ArmList[], opts: FuseOptions = DEFAULT_FUSE): Fused[] {
  const out = new Map<string, Fused>();
  for (const list of arms) {
    if (list.items.length === 0 || list.weight <= 0) continue;
    const max = Math.max(...list.items.map((i) => i.score));
    const min = Math.min(...list.items.map((i) => i.score));
    const seen = new Set<string>();
    let rank = 0;
    for (const item of list.items) {
      if (seen.has(item.cand.key)) continue; // an arm counts a result once, at its best rank
      seen.add(item.cand.key);
      rank++;
      const contribution =
        opts.method === "rrf"
          ? list.weight / (opts.rrfK + rank)
          : list.weight * (max > min ? (item.score - min) / (max - min) : 1);
      let f = out.get(item.cand.key);
      if (!f) {
        f = { cand: item.cand, score: 0, arms: [] };
        out.set(item.cand.key, f);
      }
      f.score += contribution;
      f.arms.push({ arm: list.arm, rank, score: round(item.score) });
    }
  }
  return sortFused([...out.values()]);
}

/** Best first; ties by place (path, first line, key: total, as keys are unique). */
const byFusedScore = byScoreThenPlace<Fused>(
  (f) => f.score,
  (f) => ({ path: f.cand.path, line: f.cand.startLine, id: f.cand.key }),
);

export function sortFused(items: Fused[]): Fused[] {
  return items.sort(byFusedScore);
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function overlaps(a: Candidate, b: Candidate): boolean {
  return a.path === b.path && a.startLine <= b.endLine && b.startLine <= a.endLine;
}

/**
 * One result per place: a fact and the log lines around it are one result (the fact is
 * kept, with the better score and both arms' hits); overlapping line windows of the same
 * file merge into the better one. Input best first; output best first.
 */
export function dedupe(items: readonly Fused[]): Fused[] {
  const kept: Fused[] = [];
  for (const item of items) {
    const c = item.cand;
    let merged = false;
    for (let i = 0; i < kept.length; i++) {
      const k = kept[i]!;
      const kc = k.cand;
      const sameFact = c.kind !== "note" && kc.kind !== "note" && c.factId !== undefined && c.factId === kc.factId;
      // Overlap, not containment: a fact is one line (the same thing), and a judged
      // opinion spans its region of bank/opinions.md, any window into which is that opinion.
      const noteAroundFact = c.kind === "note" && kc.kind !== "note" && overlaps(c, kc);
      const factInNote = c.kind !== "note" && kc.kind === "note" && overlaps(kc, c);
      const notesOverlap = c.kind === "note" && kc.kind === "note" && overlaps(c, kc);
      if (!(sameFact || noteAroundFact || factInNote || notesOverlap)) continue;
      const arms = mergeArms(k.arms, item.arms);
      // The fact wins over the lines around it, even when the lines ranked higher.
      kept[i] = factInNote ? { cand: c, score: k.score, arms } : { cand: kc, score: k.score, arms };
      merged = true;
      break;
    }
    if (!merged) kept.push({ ...item, arms: [...item.arms] });
  }
  return kept;
}

function mergeArms(a: ArmHit[], b: ArmHit[]): ArmHit[] {
  const byArm = new Map<string, ArmHit>();
  for (const h of [...a, ...b]) {
    const prev = byArm.get(h.arm);
    if (!prev || h.rank < prev.rank) byArm.set(h.arm, h);
  }
  return [...byArm.values()].sort((x, y) => x.rank - y.rank || cmp(x.arm, y.arm));
}
