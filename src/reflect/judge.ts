import type { Judge, Judgement, OpinionRef } from "../llm/types.js";
import type { Fact } from "../retain/types.js";
import { contentTokens, negationCount, similarity } from "./text.js";

/** Below this token similarity the heuristic judge calls a fact unrelated. */
export const HEURISTIC_MIN_SIMILARITY = 0.3;

/** Evidence strength of a fact that is not an opinion (plain W/B/S facts are good but indirect evidence). */
const PLAIN_FACT_STRENGTH = 0.7;

/**
 * The deterministic judge used without an LLM. A fact is related to an opinion when
 * they share an entity (or the opinion has none) and enough content words; it then
 * contradicts when exactly one of the two carries negation/reversal cues ("no longer",
 * "not", "stopped", "instead of", "slipped", "delayed", ...), otherwise it supports.
 * Strength: an O fact weighs max(c, 1-c), other facts a fixed 0.7, scaled by
 * how closely the words match (so a loose match moves confidence less).
 */
export const heuristicJudge: Judge = {
  id: "heuristic-v1",
  async judge(opinion: OpinionRef, fact: Fact): Promise<Judgement> {
    return judgeSync(opinion, fact);
  },
};

export function judgeSync(opinion: OpinionRef, fact: Fact): Judgement {
  const entityOverlap =
    opinion.entities.length === 0 || fact.entities.some((entity) => opinion.entities.includes(entity));
  if (!entityOverlap) return { stance: "unrelated", strength: 0, reason: "no shared entity" };
  const sim = similarity(contentTokens(opinion.statement), contentTokens(fact.content));
  if (sim < HEURISTIC_MIN_SIMILARITY) {
    return { stance: "unrelated", strength: 0, reason: `similarity ${sim.toFixed(2)} too low` };
  }
  const flipped = negationCount(opinion.statement) > 0 !== negationCount(fact.content) > 0;
  // An O fact weighs as much as it is decided: c=0.9 and c=0.1 are both firm statements
  // (c is read either as confidence in what it says or in the opinion it revisits).
  const c = fact.confidence ?? PLAIN_FACT_STRENGTH;
  const base = fact.kind === "opinion" ? Math.max(c, 1 - c) : PLAIN_FACT_STRENGTH;
  // Similarity 0.3 -> 60 % of base, >= 0.6 -> full base.
  const strength = Math.round(base * Math.min(1, 0.6 + (sim - HEURISTIC_MIN_SIMILARITY) * (4 / 3)) * 100) / 100;
  return flipped
    ? { stance: "contradict", strength, reason: `negation cue, similarity ${sim.toFixed(2)}` }
    : { stance: "support", strength, reason: `same wording, similarity ${sim.toFixed(2)}` };
}
