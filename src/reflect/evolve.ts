import type { Judge, Judgement } from "../llm/types.js";
import { type Evidence, type Opinion, opinionIdFor } from "../markdown/opinions.js";
import type { Fact } from "../retain/types.js";
import {
  type ConfidenceConstants,
  combineDay,
  type DayEvidence,
  nextConfidence,
  roundConfidence,
} from "./confidence.js";
import { cmp } from "./format.js";
import { heuristicJudge } from "./judge.js";
import { contentTokens, similarity } from "./text.js";

export interface MatchingConstants {
  minSimilarity: number;
  restateSimilarity: number;
}

export interface EvolveInput {
  /** Opinions as read from bank/opinions.md, in file order. */
  opinions: Opinion[];
  /** Facts to consider as new evidence or new opinions. */
  facts: Fact[];
  judge?: Judge;
  constants: ConfidenceConstants;
  matching: MatchingConstants;
  defaultConfidence: number;
  /** Opinion ids whose region could not be read: never re-created from their origin fact. */
  reserved?: string[];
}

export interface OpinionChange {
  id: string;
  statement: string;
  entities: string[];
  from: number;
  to: number;
}

export interface EvolveResult {
  opinions: Opinion[];
  changed: OpinionChange[];
  created: string[];
  /** Confidence each created opinion started with (its origin fact's c). */
  initial: Map<string, number>;
  /** Opinions that received new evidence (whether or not c moved). */
  touched: string[];
  judged: number;
  warnings: string[];
}

const byDateThenSource = (a: Fact, b: Fact) =>
  cmp(a.date, b.date) || cmp(a.source.path, b.source.path) || a.source.line - b.source.line || cmp(a.id, b.id);

/**
 * Apply facts to opinions day by day, oldest day first (DESIGN.md 1.3).
 *
 * Per day: (1) every fact is matched against opinions first stated on an EARLIER day
 * (shared entity, then token similarity >= minSimilarity) and judged; the day's
 * judgements per opinion are folded into one (order-free) and move c once, counting
 * the distinct days that agree. (2) O facts that did not restate an existing opinion
 * become new opinions, unless they restate one first stated the same day (then they are
 * its supporting evidence). A fact already listed as evidence of an opinion is never
 * applied to it again, which is what makes a second run, and an incremental run, change
 * nothing that a full run would not.
 */
export async function evolveOpinions(input: EvolveInput): Promise<EvolveResult> {
  const judge = input.judge ?? heuristicJudge;
  const opinions = input.opinions.map((op) => ({ ...op, entities: [...op.entities], evidence: [...op.evidence] }));
  const applied = new Map<string, Set<string>>();
  const tokens = new Map<string, Set<string>>();
  const byEntity = new Map<string, Opinion[]>();
  const unscoped: Opinion[] = [];
  const origins = new Set<string>();
  const index = (op: Opinion) => {
    applied.set(op.id, new Set(op.evidence.map((e) => e.factId)));
    tokens.set(op.id, contentTokens(op.statement));
    origins.add(op.id);
    if (op.entities.length === 0) unscoped.push(op);
    for (const e of op.entities) {
      const list = byEntity.get(e) ?? [];
      list.push(op);
      byEntity.set(e, list);
    }
  };
  for (const op of opinions) index(op);
  // Facts already evidence before this run: an O fact among them restated an opinion
  // (had it not, it would be an opinion's origin), so it must not become a new one now.
  const earlierEvidence = new Set(opinions.flatMap((op) => op.evidence.map((e) => e.factId)));
  for (const id of input.reserved ?? []) origins.add(id);

  const changes = new Map<string, OpinionChange>();
  const created: string[] = [];
  const initial = new Map<string, number>();
  const touched = new Set<string>();
  const warnings: string[] = [];
  let judged = 0;

  const days = new Map<string, Fact[]>();
  for (const fact of [...input.facts].sort(byDateThenSource)) {
    const list = days.get(fact.date) ?? [];
    list.push(fact);
    days.set(fact.date, list);
  }

  for (const [day, facts] of days) {
    const perOpinion = new Map<Opinion, { fact: Fact; j: Judgement }[]>();
    const restated = new Set<string>();
    for (const fact of facts) {
      const factTokens = contentTokens(fact.content);
      const seen = new Set<Opinion>();
      const candidates = [...unscoped, ...fact.entities.flatMap((e) => byEntity.get(e) ?? [])];
      for (const op of candidates) {
        if (seen.has(op)) continue;
        seen.add(op);
        if (op.created >= day || applied.get(op.id)!.has(fact.id) || opinionIdFor(fact.id) === op.id) continue;
        const sim = similarity(tokens.get(op.id)!, factTokens);
        if (sim < input.matching.minSimilarity) continue;
        judged++;
        let j = await judge.judge({ statement: op.statement, entities: op.entities, confidence: op.confidence }, fact);
        if (j.skipped) {
          warnings.push(`judge ${judge.id} gave no answer for ${fact.source.path}:${fact.source.line}; used heuristic`);
          j = await heuristicJudge.judge(
            { statement: op.statement, entities: op.entities, confidence: op.confidence },
            fact,
          );
        }
        if (j.stance === "unrelated") continue;
        if (fact.kind === "opinion" && sim >= input.matching.restateSimilarity) restated.add(fact.id);
        const list = perOpinion.get(op) ?? [];
        list.push({ fact, j });
        perOpinion.set(op, list);
      }
    }
    for (const [op, items] of perOpinion) {
      for (const { fact, j } of items) {
        op.evidence.push(evidenceOf(fact, j.stance === "contradict" ? "contradict" : "support"));
        applied.get(op.id)!.add(fact.id);
      }
      op.lastUpdated = day;
      touched.add(op.id);
      const combined: DayEvidence = combineDay(items.map(({ j }) => ({ stance: j.stance, strength: j.strength })));
      if (combined.stance === "unrelated") continue;
      const agreeingDays = streakDays(op.evidence, day, combined.stance);
      const before = op.confidence;
      const after = nextConfidence(before, combined.stance, combined.strength, agreeingDays, input.constants);
      if (after === before) continue;
      op.previous = before;
      op.confidence = after;
      const change = changes.get(op.id);
      if (change) change.to = after;
      else changes.set(op.id, { id: op.id, statement: op.statement, entities: op.entities, from: before, to: after });
    }
    // New opinions: O facts that restate nothing older. Same-day restatements of an
    // opinion first stated today join it as support without moving c (not independent).
    for (const fact of facts) {
      if (fact.kind !== "opinion" || restated.has(fact.id) || origins.has(opinionIdFor(fact.id))) continue;
      if (earlierEvidence.has(fact.id)) continue;
      const factTokens = contentTokens(fact.content);
      const sameDay = [...unscoped, ...fact.entities.flatMap((e) => byEntity.get(e) ?? [])].find(
        (op) =>
          op.created === day &&
          sharesEntity(op, fact) &&
          similarity(tokens.get(op.id)!, factTokens) >= input.matching.restateSimilarity,
      );
      if (sameDay) {
        if (!applied.get(sameDay.id)!.has(fact.id)) {
          sameDay.evidence.push(evidenceOf(fact, "support"));
          applied.get(sameDay.id)!.add(fact.id);
          touched.add(sameDay.id);
        }
        continue;
      }
      const op: Opinion = {
        id: opinionIdFor(fact.id),
        statement: fact.content.replace(/\s+/g, " ").trim(),
        entities: [...fact.entities],
        confidence: roundConfidence(fact.confidence ?? input.defaultConfidence),
        lastUpdated: day,
        created: day,
        evidence: [evidenceOf(fact, "support")],
      };
      opinions.push(op);
      index(op);
      created.push(op.id);
      initial.set(op.id, op.confidence);
      touched.add(op.id);
    }
  }
  const createdSet = new Set(created);
  return {
    opinions,
    changed: [...changes.values()].filter((c) => c.from !== c.to && !createdSet.has(c.id)),
    created,
    initial,
    touched: [...touched].sort(),
    judged,
    warnings,
  };
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

function sharesEntity(op: Opinion, fact: Fact): boolean {
  return op.entities.length === 0 || fact.entities.some((e) => op.entities.includes(e));
}

function evidenceOf(fact: Fact, stance: Evidence["stance"]): Evidence {
  return {
    factId: fact.id,
    date: fact.date,
    stance,
    source: { path: fact.source.path, line: fact.source.line },
    content: fact.content.replace(/\s+/g, " ").trim(),
  };
}
