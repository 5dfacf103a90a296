import type { Evidence } from "../markdown/opinions.js";

/** Streaks of agreeing evidence days (the confidence step grows with them, confidence.ts). */

/** Evidence stances per date, dates kept sorted, for streakOf. */
export class DayStances {
  private readonly byDate = new Map<string, Set<Evidence["stance"]>>();
  readonly dates: string[] = [];

  constructor(evidence: readonly Evidence[]) {
    for (const e of evidence) this.add(e);
  }

  add(e: Evidence): void {
    let set = this.byDate.get(e.date);
    if (!set) {
      set = new Set();
      this.byDate.set(e.date, set);
      const last = this.dates.at(-1);
      if (last === undefined || e.date > last) this.dates.push(e.date);
      else {
        let i = this.dates.length;
        while (i > 0 && this.dates[i - 1]! > e.date) i--;
        this.dates.splice(i, 0, e.date);
      }
    }
    set.add(e.stance);
  }

  stances(date: string): Set<Evidence["stance"]> {
    return this.byDate.get(date)!;
  }
}

/** streakDays over kept-up stances: the same count, walking back only as far as the streak goes. */
export function streakOf(d: DayStances, day: string, stance: Evidence["stance"]): number {
  let count = 1;
  for (let i = d.dates.length - 1; i >= 0; i--) {
    const date = d.dates[i]!;
    if (date >= day) continue;
    const stances = d.stances(date);
    if (stances.size !== 1 || !stances.has(stance)) break;
    count++;
  }
  return count;
}

/**
 * How many distinct days, ending today, have agreed without interruption: walking back
 * from `day`, days whose evidence all has `stance` count, and the first day with
 * opposite evidence ends the streak. So a fresh reversal after years of support starts
 * with one step, and only a run of agreeing days earns the larger steps.
 */
export function streakDays(evidence: readonly Evidence[], day: string, stance: Evidence["stance"]): number {
  const byDate = new Map<string, Set<Evidence["stance"]>>();
  for (const e of evidence) {
    if (e.date > day) continue;
    const set = byDate.get(e.date) ?? new Set();
    set.add(e.stance);
    byDate.set(e.date, set);
  }
  let count = 1; // today, whose net stance is `stance`
  for (const date of [...byDate.keys()].sort().reverse()) {
    if (date === day) continue;
    const stances = byDate.get(date)!;
    if (stances.size !== 1 || !stances.has(stance)) break;
    count++;
  }
  return count;
}
