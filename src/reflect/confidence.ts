/**
 * Gradual opinion confidence (DESIGN.md 1.3): one small, explainable, pure function.
 *
 *   w  = step * strength * min(maxDayFactor, 1 + dayBonus * (days - 1))
 *   c' = c + (ceiling - c) * w     when the evidence supports the opinion
 *   c' = c - (c - floor)   * w     when it contradicts it
 *
 * - `strength` (0..1) is the evidence's own weight (the judge's strength, e.g. an
 *   O(c=0.9) restatement weighs 0.9), so one fact moves c by at most `step` of the
 *   remaining distance.
 * - `days` is how many distinct days in a row (this one included, no contrary evidence in
 *   between; see streakDays in evolve.ts) have brought evidence with the same stance:
 *   repeated independent evidence moves further, a burst on one day does not.
 *   The factor saturates at `maxDayFactor` so even long streaks stay gradual.
 * - Same-day evidence is first folded into one judgement by `combineDay` (max per side,
 *   then the net), so the order of facts within a day cannot matter.
 * - Monotonic: support never lowers c, contradiction never raises it; c never leaves
 *   [floor, ceiling] through an update (a hand-set value outside is only moved inward).
 * - Results are rounded to 2 decimals because that is what opinions.md shows and parses
 *   back: the file is the state, so the state must be exactly what is written.
 */

export interface ConfidenceConstants {
  step: number;
  dayBonus: number;
  floor: number;
  ceiling: number;
  /** Upper bound of the day multiplier (default 2: at most twice the single-fact step). */
  maxDayFactor?: number;
}

export interface DayEvidence {
  stance: "support" | "contradict" | "unrelated";
  strength: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Round to the 2 decimals opinions.md shows (avoids 0.1+0.2 artefacts). */
export function roundConfidence(c: number): number {
  return Math.round(clamp01(c) * 100) / 100;
}

/** The weight of one day's evidence: how far (as a fraction of the remaining distance) c moves. */
export function evidenceWeight(strength: number, days: number, k: ConfidenceConstants): number {
  const d = Math.max(1, Math.floor(days));
  const factor = Math.min(k.maxDayFactor ?? 2, 1 + k.dayBonus * (d - 1));
  return clamp01(k.step * clamp01(strength) * factor);
}

/** Next confidence after one day's (already combined) evidence. */
export function nextConfidence(
  c: number,
  stance: DayEvidence["stance"],
  strength: number,
  days: number,
  k: ConfidenceConstants,
): number {
  const cur = clamp01(c);
  if (stance === "unrelated") return roundConfidence(cur);
  const w = evidenceWeight(strength, days, k);
  if (stance === "support") {
    const moved = cur + (Math.max(k.ceiling, cur) - cur) * w;
    return Math.max(cur, roundConfidence(moved));
  }
  const moved = cur - (cur - Math.min(k.floor, cur)) * w;
  return Math.min(cur, roundConfidence(moved));
}

/**
 * Fold one day's judgements on one opinion into one: the strongest support against the
 * strongest contradiction (several same-day facts are not independent evidence).
 */
export function combineDay(items: readonly DayEvidence[]): DayEvidence {
  let sup = 0;
  let con = 0;
  for (const item of items) {
    if (item.stance === "support") sup = Math.max(sup, clamp01(item.strength));
    else if (item.stance === "contradict") con = Math.max(con, clamp01(item.strength));
  }
  const net = sup - con;
  if (net > 1e-9) return { stance: "support", strength: net };
  if (net < -1e-9) return { stance: "contradict", strength: -net };
  return { stance: "unrelated", strength: 0 };
}
