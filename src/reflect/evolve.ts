import { isPlan, isQuestion } from "../analysis/cues.js";
import type { Judge, Judgement } from "../llm/types.js";
import { type Evidence, fmt2, type Opinion, opinionIdFor, type PathPoint, trimPath } from "../markdown/opinions.js";
import { byPlace } from "../markdown/order.js";
import { entityKey } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import {
  type ConfidenceConstants,
  combineDay,
  type DayEvidence,
  nextConfidence,
  roundConfidence,
} from "./confidence.js";
import { cmp, factPlace } from "./format.js";
import { judgePair, type Relation, relationOf, STANCE_WEIGHTS, statedConfidence } from "./judge.js";
import { DayStances, streakOf } from "./streak.js";
import {
  KnownNames,
  reportedName,
  type StatementTopic,
  statementTopic,
  type Topic,
  topicOf,
  topicOn,
  topicScore,
} from "./topic.js";
import type { TopicMemo } from "./topic-memo.js";

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
  /**
   * Entity names known for plain-text mentions, with the date each was first tagged
   * (KnownNames.fromFacts of ALL facts, not just this run's window, so an incremental
   * run reads mentions as a full run does). Default: from `facts` and `opinions`.
   */
  knownNames?: KnownNames;
  /** Opinions' topic parts kept from earlier runs (topic-memo.ts); without it every statement is read. */
  topics?: TopicMemo;
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

export { streakDays } from "./streak.js";

/** A fact's entities and, when it reports the belief of a person nobody tagged ("Dev said that ..."), that person: the opinion is theirs. */
function withReported(fact: Fact, roles?: ReadonlyMap<string, string>): string[] {
  const name = reportedName(fact.entities, fact.content, roles);
  const key = name === undefined ? undefined : entityKey(name);
  return key === undefined || fact.entities.some((e) => entityKey(e) === key)
    ? [...fact.entities]
    : [...fact.entities, name!];
}

/** The stance of an opinion's latest evidence dated before `day` (the last turn a take-back can mean). */
function lastStanceBefore(op: Opinion, day: string): "support" | "contradict" | undefined {
  let date = "";
  let stance: "support" | "contradict" | "mixed" | undefined;
  // Order-free (the page lists evidence by stance, a run by day): a day with both stances is no one turn.
  for (const e of op.evidence) {
    if (e.date >= day || e.date < date) continue;
    if (e.date > date) [date, stance] = [e.date, e.stance];
    else if (stance !== e.stance) stance = "mixed";
  }
  return stance === "mixed" ? undefined : stance;
}

const byDateThenSource = (a: Fact, b: Fact) => cmp(a.date, b.date) || byPlace(factPlace(a), factPlace(b));

/**
 * Apply facts to opinions day by day, oldest day first (DESIGN.md 1.3, issue 10).
 *
 * Identity is holder + topic (topic.ts). Per day: (1) every fact is matched against
 * opinions first stated on an EARLIER day: an O fact of an opinion's holder that covers
 * its topic is a restatement of the best-covering one (never a new opinion, whatever its
 * words); any fact naming the holder or a topic entity (tagged or in plain text) with
 * shared words or a stance cue is topic evidence. Each pair is judged (the LLM when
 * configured, else judgePair's rules); the day's judgements per opinion fold into one
 * (order-free) and move c once, counting the distinct days that agree. (2) O facts that
 * restated nothing older become new opinions, unless their holder stated an opinion on
 * the topic the same day (then they are its supporting evidence). A fact already listed
 * as evidence of an opinion is never applied to it again, which is what makes a second
 * run, and an incremental run, change nothing that a full run would not.
 */
export async function evolveOpinions(input: EvolveInput): Promise<EvolveResult> {
  const llmJudge = input.judge;
  const opinions = input.opinions.map((op) => ({
    ...op,
    entities: [...op.entities],
    evidence: [...op.evidence],
    ...(op.path ? { path: [...op.path] } : {}),
  }));
  const known =
    input.knownNames ??
    KnownNames.fromFacts([...input.facts, ...opinions.map((op) => ({ entities: op.entities, date: op.created }))]);
  const applied = new Map<string, Set<string>>();
  // What each opinion's topic is made of (its words, holder, plain-text names): its topic on a day is cheap from these.
  const parts = new Map<string, StatementTopic>();
  const byKey = new Map<string, Opinion[]>();
  const unscoped: Opinion[] = [];
  const forecasts: Opinion[] = [];
  const origins = new Set<string>();
  const index = (op: Opinion) => {
    applied.set(op.id, new Set(op.evidence.map((e) => e.factId)));
    const part =
      input.topics?.topic(op.entities, op.statement, known) ?? statementTopic(op.entities, op.statement, known);
    parts.set(op.id, part);
    origins.add(op.id);
    // The holder too: a reported belief's holder may be a name nobody tagged ("Dev said that ...").
    const keys = new Set([...op.entities.map(entityKey), ...known.mentioned(op.statement)]);
    if (part.holder !== undefined) keys.add(part.holder);
    if (keys.size === 0) unscoped.push(op);
    // A forecast nobody is tagged as reporting ("per Sofia, ...") meets an outcome whoever reports it (relation.ts).
    if (part.forecasts && part.reporters?.size === 0) forecasts.push(op);
    for (const k of keys) {
      const list = byKey.get(k) ?? [];
      list.push(op);
      byKey.set(k, list);
    }
  };
  for (const op of opinions) index(op);
  // An opinion's topic on a day (plain mentions count from the day a name was first tagged); cached per day.
  let topicDay = "";
  const topics = new Map<string, Topic>();
  const topicAt = (op: Opinion, day: string): Topic => {
    if (day !== topicDay) {
      topics.clear();
      topicDay = day;
    }
    let t = topics.get(op.id);
    if (!t) {
      t = topicOn(parts.get(op.id)!, day);
      topics.set(op.id, t);
    }
    return t;
  };
  // Stances by day of each opinion's evidence, kept up to date as evidence is added (streaks
  // are read once per opinion and day; rebuilding them from all evidence each time is quadratic).
  const stancesOf = new Map<string, DayStances>();
  const dayStances = (op: Opinion): DayStances => {
    let d = stancesOf.get(op.id);
    if (!d) {
      d = new DayStances(op.evidence);
      stancesOf.set(op.id, d);
    }
    return d;
  };
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

  const candidatesOf = (topic: Topic): Opinion[] => {
    const keys = [...(topic.holder === undefined ? [] : [topic.holder]), ...topic.entities];
    const seen = new Set<Opinion>();
    const out: Opinion[] = [];
    for (const op of [...unscoped, ...(topic.outcome ? forecasts : []), ...keys.flatMap((k) => byKey.get(k) ?? [])]) {
      if (seen.has(op)) continue;
      seen.add(op);
      out.push(op);
    }
    return out;
  };

  for (const [day, facts] of days) {
    const perOpinion = new Map<Opinion, Item[]>();
    const restated = new Set<string>();
    const factTopics = new Map<Fact, Topic>();
    for (const fact of facts) {
      const factTopic = topicOf(fact.entities, fact.content, known, day);
      factTopics.set(fact, factTopic);
      const isOpinion = fact.kind === "opinion";
      let best: { op: Opinion; score: number } | undefined;
      const pairs: { op: Opinion; relation: Relation }[] = [];
      for (const op of candidatesOf(factTopic)) {
        if (op.created >= day || opinionIdFor(fact.id) === op.id) continue;
        // An opinion that already lists the fact still competes as its best restatement, so a
        // second run does not hand the fact to the next best one (it is then applied nowhere).
        const done = applied.get(op.id)!.has(fact.id);
        const opTopic = topicAt(op, day);
        const relation = relationOf(
          opTopic,
          factTopic,
          isOpinion,
          input.matching.minSimilarity,
          input.matching.restateSimilarity,
        );
        if (relation === "restatement") {
          const score = topicScore(opTopic, factTopic, { restateSimilarity: input.matching.restateSimilarity });
          if (!best || score > best.score) best = { op, score };
        } else if (relation === "topic" && !done) pairs.push({ op, relation });
      }
      // One opinion per belief: a restatement is evidence of the opinion it covers best only.
      if (best && !applied.get(best.op.id)!.has(fact.id)) pairs.unshift({ op: best.op, relation: "restatement" });
      for (const { op, relation } of pairs) {
        judged++;
        const ref = { statement: op.statement, entities: op.entities, confidence: op.confidence };
        const history = { lastStance: lastStanceBefore(op, day) };
        let j = llmJudge ? await llmJudge.judge(ref, fact) : judgePair(ref, fact, relation, history);
        if (j.skipped) {
          warnings.push(
            `judge ${llmJudge?.id} gave no answer for ${fact.source.path}:${fact.source.line}; used heuristic`,
          );
          j = judgePair(ref, fact, relation, history);
        }
        if (j.stance === "unrelated") continue;
        // The holder's own word that bears on their belief, though in words the matcher could not
        // tie to it ("fine, standup caught the bug, it was useful today"), is evidence, not a new opinion.
        if (
          relation === "restatement" ||
          (isOpinion && factTopic.holder !== undefined && factTopic.holder === topicAt(op, day).holder)
        )
          restated.add(fact.id);
        const list = perOpinion.get(op) ?? [];
        list.push({ fact, j, relation });
        perOpinion.set(op, list);
      }
    }
    for (const [op, items] of perOpinion) applyDay(op, day, items);
    // New opinions: O facts that restate nothing older. Same-day restatements of an
    // opinion first stated today join it as support without moving c (not independent).
    for (const fact of facts) {
      if (fact.kind !== "opinion" || restated.has(fact.id) || origins.has(opinionIdFor(fact.id))) continue;
      if (earlierEvidence.has(fact.id)) continue;
      // A question ("is Postgres really the bottleneck?") or a plan ("going to try ...") states no belief to hold.
      if (isQuestion(fact.content) || isPlan(fact.content)) continue;
      const factTopic = factTopics.get(fact) ?? topicOf(fact.entities, fact.content, known, day);
      const sameDay = candidatesOf(factTopic).find(
        (op) =>
          op.created === day &&
          relationOf(
            topicAt(op, day),
            factTopic,
            true,
            input.matching.minSimilarity,
            input.matching.restateSimilarity,
          ) === "restatement",
      );
      if (sameDay) {
        if (!applied.get(sameDay.id)!.has(fact.id)) {
          sameDay.evidence.push({
            ...evidenceOf(fact, "support"),
            strength: STANCE_WEIGHTS.restated,
            reason: "restated the day it was first stated (no move)",
          });
          applied.get(sameDay.id)!.add(fact.id);
          touched.add(sameDay.id);
        }
        continue;
      }
      const stated = statedConfidence(fact);
      const c = roundConfidence(stated ?? input.defaultConfidence);
      const first: PathPoint = { date: day, confidence: c };
      if (stated === undefined) first.default = true;
      const op: Opinion = {
        id: opinionIdFor(fact.id),
        statement: fact.content.replace(/\s+/g, " ").trim(),
        entities: withReported(fact, known.roles),
        confidence: c,
        lastUpdated: day,
        created: day,
        evidence: [
          {
            ...evidenceOf(fact, "support"),
            reason:
              fact.confidence === undefined ? `first stated, no c= (default ${fmt2(c)})` : `first stated at ${fmt2(c)}`,
          },
        ],
        path: [first],
      };
      opinions.push(op);
      index(op);
      created.push(op.id);
      initial.set(op.id, op.confidence);
      touched.add(op.id);
    }
  }

  /** Fold one day's judgements on one opinion, move c once, and record why on the evidence rows. */
  function applyDay(op: Opinion, day: string, items: Item[]): void {
    const stances = dayStances(op);
    const rows = items.map(({ fact, j }) => {
      const ev: Evidence = { ...evidenceOf(fact, j.stance === "contradict" ? "contradict" : "support") };
      ev.strength = Math.round(Math.min(1, Math.max(0, j.strength)) * 100) / 100;
      if (j.reason) ev.reason = j.reason;
      op.evidence.push(ev);
      stances.add(ev);
      applied.get(op.id)!.add(fact.id);
      return ev;
    });
    op.lastUpdated = day;
    touched.add(op.id);
    const combined: DayEvidence = combineDay(items.map(({ j }) => ({ stance: j.stance, strength: j.strength })));
    if (combined.stance === "unrelated") return;
    const agreeingDays = streakOf(dayStances(op), day, combined.stance);
    const before = op.confidence;
    let after = nextConfidence(before, combined.stance, combined.strength, agreeingDays, input.constants);
    // The row that decided the day: the strongest on the winning side (first in source order on ties).
    let lead = -1;
    for (const [i, { j }] of items.entries()) {
      if (j.stance !== combined.stance) continue;
      if (lead < 0 || j.strength > items[lead]!.j.strength) lead = i;
    }
    // A restatement's own c= is where the holder now stands: the move stops there.
    const leadItem = items[lead]!;
    const reading = leadItem.relation === "restatement" ? statedConfidence(leadItem.fact) : undefined;
    if (reading !== undefined) {
      if (combined.stance === "contradict" && reading < before) after = Math.max(after, roundConfidence(reading));
      if (combined.stance === "support" && reading > before) after = Math.min(after, roundConfidence(reading));
    }
    if (after === before) return;
    rows[lead]!.from = before;
    rows[lead]!.to = after;
    const path = op.path?.length ? op.path : [{ date: op.created, confidence: before }];
    // A confidence set by hand since the last step is a point of its own.
    if (path.at(-1)!.confidence !== before) path.push({ date: path.at(-1)!.date, confidence: before, byHand: true });
    path.push({ date: day, confidence: after });
    const trimmed = trimPath(path, op.elided === true);
    op.path = trimmed.path;
    if (trimmed.elided) op.elided = true;
    op.previous = before;
    op.confidence = after;
    const change = changes.get(op.id);
    if (change) change.to = after;
    else changes.set(op.id, { id: op.id, statement: op.statement, entities: op.entities, from: before, to: after });
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

interface Item {
  fact: Fact;
  j: Judgement;
  relation: Relation;
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
