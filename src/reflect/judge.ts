import { type CueKind, LAST_WORD_TAKEBACKS, SCHEDULE_SHIFTS } from "../analysis/cue-lists.js";
import {
  type CueHit,
  compares,
  findCues,
  isForecast,
  isHypothetical,
  isPlan,
  isQuestion,
  polarity,
  tentativeCue,
} from "../analysis/cues.js";
import { cameTrue, forecastsFailure } from "../analysis/forecast.js";
import {
  claimSubject,
  evaluatedClauses,
  evaluation,
  grammaticalPolarity,
  ranks,
  recanting,
  selfCorrection,
  statedSubject,
} from "../analysis/valence.js";
import type { Judge, Judgement, OpinionRef } from "../llm/types.js";
import type { Fact } from "../retain/types.js";
import { CLAUSE_BREAK, cuesAbout, leadClause, memo, opinionClaim } from "./claim.js";
import { reportedClaim } from "./holder.js";
import { type Relation, relationOf } from "./relation.js";
import { backToClaim, gaveUp, hindsightRival, turnsRound } from "./sides.js";
import { contentTokens, similarity } from "./text.js";
import { type KnownNames, topicOf } from "./topic.js";

export { type Relation, relationOf } from "./relation.js";

/** Below this token similarity a fact that is neither a restatement nor an outcome with a cue is unrelated. */
export const HEURISTIC_MIN_SIMILARITY = 0.3;

/**
 * Evidence weights of the deterministic judge, strongest signal first (issue 10, item 2).
 * Each is the `strength` handed to the confidence rule (src/reflect/confidence.ts).
 */
export const STANCE_WEIGHTS = {
  /** The holder says the belief no longer holds ("no longer", "changed her mind", "doubts"). */
  reversal: 0.9,
  /** The holder still says it, but hedged ("fifty-fifty", "tight", "hopes"). */
  hedge: 0.6,
  /** A restatement held tentatively ("starting to think", "kinda"): held again, but less. */
  tentative: 0.3,
  /** A restatement with the same polarity and no c=: the belief is held again. */
  restated: 0.5,
  /** A restatement at about the same c (within `sameReading`): held again. */
  sameValue: 0.4,
  /** A restatement's c= differing by `fullGap` or more from the current value weighs 1. */
  fullGap: 0.3,
  /** Restated c within this of the current value counts as the same reading. */
  sameReading: 0.05,
  /** Least weight of a c= reading that does differ. */
  minReading: 0.25,
  /** An outcome about the topic (a date moved, a plan confirmed): indirect, so lower. */
  outcome: 0.5,
  /** Someone else's statement negating it, or a plain fact with a negation. */
  negation: 0.6,
  /** A plain fact that repeats the opinion's words (scaled by how closely). */
  plain: 0.7,
} as const;

/**
 * The c= a person wrote on an O fact; undefined when the line gave none (retain then
 * filled in the configured default, which is no reading of the holder's).
 */
export function statedConfidence(fact: Fact): number | undefined {
  if (fact.kind !== "opinion" || fact.defaultConfidence) return undefined;
  return fact.confidence;
}

const tokenCache = new Map<string, Set<string>>();
const statementTokens = (s: string) => memo(tokenCache, s, contentTokens);

/** What the judge may know of an opinion's evidence before the fact's day. */
export interface JudgeHistory {
  /** The stance of its latest evidence before the fact's day (its first statement supports). */
  lastStance?: "support" | "contradict";
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const has = (cues: CueHit[], ...kinds: CueKind[]) => cues.find((c) => kinds.includes(c.kind));

/**
 * Whether a fact says the opposite of an opinion, and the cue that says so. Strongest first:
 * a recanting cue ("was wrong", "changed her mind") takes the belief back however it was
 * worded; else, when both judge their subject with evaluative words, opposite signs
 * disagree ("unfair" / "fine now", "clunky" / "smooth") and equal signs agree ("a mistake" /
 * "the wrong call"), a "not" counted within its clause; else one side negated, the other not.
 */
function flipOf(
  claim: { cues: CueHit[]; text: string },
  fact: { cues: CueHit[]; text: string },
): { flipped: boolean; cue?: string } {
  const recant = recanting(fact.cues);
  if (recant && !recanting(claim.cues)) return { flipped: true, cue: recant.cue };
  // Two comparisons of the same things: which side each favours ("Python might be less painful than R").
  const turned = turnsRound(claim.text, fact.text);
  if (turned !== undefined) return turned ? { flipped: true, cue: "favours the other side" } : { flipped: false };
  const op = evaluation(claim.text);
  const said =
    ranks(claim.text) || (ranks(fact.text) && !ranksSameSubject(claim.text, fact.text))
      ? { sign: 0, words: [] }
      : evaluatedOn(claim.text, fact.text);
  // "mum admits sundays are worth opening" asserts its clause: against "sundays isn't worth it".
  const conceded = polarity(claim.cues) < 0 && grammaticalPolarity(fact.cues) > 0 && polarity(fact.cues) < 0;
  const negated = conceded || polarity(fact.cues) !== polarity(claim.cues);
  const cue = has(fact.cues, "reversal", "negation") ?? has(claim.cues, "reversal", "negation");
  if (op.sign !== 0 && said.sign !== 0) {
    if (op.sign === said.sign) return { flipped: false };
    // Name the "not" when that is what turned it ("never realistic"), else the opposite words.
    return {
      flipped: true,
      cue:
        grammaticalPolarity(fact.cues) !== grammaticalPolarity(claim.cues)
          ? (cue?.cue ?? "not")
          : `${said.words.join(", ")}" against "${op.words.join(", ")}`,
    };
  }
  return negated ? { flipped: true, cue: cue?.cue ?? "not" } : { flipped: false };
}

/**
 * A comparison that ranks what a plain judgement judges ("CEF are actually cheaper than
 * toolstation" on "CEF's prices are a joke"): it judges its own subject, relative or not.
 */
function ranksSameSubject(claim: string, fact: string): boolean {
  const [a, b] = [statedSubject(claim), statedSubject(fact)];
  if (a === undefined || b === undefined) return false;
  const mine = contentTokens(a);
  return [...contentTokens(b)].some((w) => mine.has(w));
}

/**
 * How a fact judges what a claim is about: its evaluation, or when its clauses judge both
 * ways ("my old laptop was awful, the new laptop is great"; "a pain to operate but still the
 * right backbone"), the clause closest in words to the claim.
 */
function evaluatedOn(claim: string, text: string): { sign: number; words: string[] } {
  const all = evaluation(text);
  if (all.sign !== 0 || all.words.length === 0) return all;
  // "isn't cheap but honestly worth it": a "but" clause with no subject of its own says the last word on the same one.
  const after = /\bbut\s+([^,;:()]*)$/iu.exec(text)?.[1];
  if (after !== undefined) {
    const last = evaluation(after);
    const own = [...contentTokens(after)].filter((t) => !last.words.some((w) => contentTokens(w).has(t)));
    if (last.sign !== 0 && own.length === 0) return last;
  }
  const words = statementTokens(claim);
  let best: { sign: number; words: string[] } | undefined;
  let bestSim = 0;
  let tie = false;
  for (const c of evaluatedClauses(text)) {
    const sim = similarity(words, contentTokens(c.text));
    if (sim > bestSim) [best, bestSim, tie] = [c, sim, false];
    else if (sim === bestSim && best?.sign !== c.sign) tie = true;
  }
  return best === undefined || tie ? all : best;
}

/**
 * A text that judges (evaluative words) a claim's subject, named by at least half of the
 * subject's content words and two of them, or by its last one ("collection").
 */
function judgesSubject(subject: string | undefined, text: string): boolean {
  if (subject === undefined || evaluation(text).sign === 0) return false;
  const words = [...contentTokens(subject)].filter((t) => !/\d/.test(t));
  const said = contentTokens(text);
  const shared = words.filter((w) => said.has(w)).length;
  return (shared >= 2 && shared * 2 >= words.length) || (words.length > 0 && said.has(words.at(-1)!));
}

/**
 * How a fact bears on an opinion, without an LLM. Relation first (is it related at all),
 * then the stance from the strongest signal the text offers:
 *  1. a restatement (an O fact of the same holder on the same topic):
 *     polarity flipped by a reversal or negation cue -> contradicts (cue);
 *     its own c= -> a direct reading: lower contradicts, higher supports, by the gap;
 *     a hedge cue -> contradicts (hedge);
 *     else it supports (held again);
 *  2. any other fact about the topic: an outcome cue (slipped, moved to / confirmed,
 *     on track) -> contradicts / supports at the outcome weight; a polarity flip ->
 *     contradicts; a hedge -> contradicts; plain repetition of the opinion's words ->
 *     supports, scaled by the similarity; else unrelated.
 * A negated opinion ("doubts it ships in March") reads outcomes the other way round.
 */
export function judgePair(
  opinion: OpinionRef,
  fact: Fact,
  relation: Relation | undefined,
  history?: JudgeHistory,
): Judgement {
  if (!relation) return { stance: "unrelated", strength: 0, reason: "no shared holder or topic" };
  // "going to try a rota where ...": what the writer will do says nothing of what they believe.
  if (isPlan(fact.content)) return { stance: "unrelated", strength: 0, reason: "a plan, no belief" };
  // "the till is fine now. scratch that, it crashed at lunch again": its word is what follows.
  const corrected = selfCorrection(fact.content);
  if (corrected !== undefined) {
    // "hendersons are a dream. scratch that, mrs h just asked for 14 more sockets": when what
    // follows judges nothing, the take-back itself is the word: the praise taken back is turned round.
    if (evaluation(corrected.to).sign === 0 && evaluation(corrected.taken).sign !== 0) {
      const j = judgePair(opinion, { ...fact, content: corrected.taken }, relation, history);
      if (j.stance === "support" || j.stance === "contradict") {
        return {
          stance: j.stance === "support" ? "contradict" : "support",
          strength: STANCE_WEIGHTS.restated,
          reason: `takes back "${corrected.taken}"`,
        };
      }
    }
    return judgePair(opinion, { ...fact, content: corrected.to }, relation, history);
  }
  const claim = opinionClaim(opinion.statement);
  const opCues = claim.cues;
  const about = cuesAbout(claim.words, fact.content);
  const factCues = about.cues;
  const opPol = polarity(opCues);
  const factPol = polarity(factCues);
  const W = STANCE_WEIGHTS;
  const flip = flipOf(claim, about);
  // "Switched the event bus from Kafka to Postgres" gives up what "Kafka is the right call" holds.
  const hypothetical = isHypothetical(fact.content);
  const given = factPol > 0 || hypothetical ? gaveUp(opinion.statement, fact.content) : undefined;
  if (given !== undefined && hypothetical) {
    // A switch only talked about is judged by its words: giving the thing up "would be a step
    // back" holds the belief, "would be a relief" lets it go, no judgement at all wavers.
    const said = evaluation(fact.content);
    const keeps = said.sign < 0;
    return {
      stance: keeps === opPol > 0 ? "support" : "contradict",
      strength: relation === "restatement" ? (said.sign === 0 ? W.hedge : W.restated) : W.outcome,
      reason:
        said.sign === 0
          ? `considers giving up "${given}"`
          : `giving up "${given}" would be ${keeps ? "worse" : "better"} ("${said.words.join(", ")}")`,
    };
  }
  if (given !== undefined) {
    return {
      stance: opPol > 0 ? "contradict" : "support",
      strength: relation === "restatement" ? W.reversal : W.negation,
      reason: `gives up "${given}"${opPol < 0 ? " (the opinion is negated)" : ""}`,
    };
  }
  const rival = factPol > 0 ? hindsightRival(opinion.statement, fact.content) : undefined;
  if (rival !== undefined) {
    const c = statedConfidence(fact);
    const reading = c === undefined || c >= opinion.confidence ? 0 : Math.abs(c - opinion.confidence) / W.fullGap;
    return {
      stance: opPol > 0 ? "contradict" : "support",
      strength: relation === "restatement" ? r2(Math.min(1, Math.max(W.hedge, reading))) : W.outcome,
      reason: `prefers "${rival}" in hindsight${opPol < 0 ? " (the opinion is negated)" : ""}`,
    };
  }
  if (relation === "restatement") {
    // "is the dbt run really what burns the credits?": asking again is doubt, whatever its c=.
    if (isQuestion(fact.content)) return { stance: "contradict", strength: W.hedge, reason: "asked as a question" };
    const c = statedConfidence(fact);
    // "scratch that about Python, R wins for my models": the take-back is of a turn to the rival.
    const back = recanting(factCues)
      ? backToClaim(claim.text, fact.content.split(CLAUSE_BREAK), (part) => recanting(findCues(part)) !== undefined)
      : undefined;
    if (back !== undefined) {
      return { stance: "support", strength: W.restated, reason: `takes back a turn away: "${back}"` };
    }
    // "scrap that about the rota working, nobody turned up again": "that" is the last thing said,
    // and when that was a turn away from the belief, taking it back holds the belief.
    const takeback = recanting(factCues);
    if (takeback !== undefined && LAST_WORD_TAKEBACKS.has(takeback.cue) && history?.lastStance === "contradict") {
      return { stance: "support", strength: W.restated, reason: `"${takeback.cue}" takes back the last turn away` };
    }
    const tentative = tentativeCue(fact.content);
    if (flip.flipped) {
      // A c= with a reversal is read as confidence in the reversal: it cannot weaken the cue.
      const reading = c === undefined ? 0 : Math.min(1, Math.abs(c - opinion.confidence) / W.fullGap);
      const also = c === undefined ? "" : `, restated at ${c.toFixed(2)}`;
      // A turn said with a hedge or tentatively ("not 100% sure but X might be ok") weighs as a hedge.
      const soft = recanting(factCues) ? undefined : (has(factCues, "hedge")?.cue ?? tentative);
      return {
        stance: "contradict",
        strength: r2(Math.max(soft === undefined ? W.reversal : W.hedge, reading)),
        reason: `cue "${flip.cue}"${soft === undefined ? "" : `, said tentatively ("${soft}")`}${also}`,
      };
    }
    if (c !== undefined) {
      const gap = c - opinion.confidence;
      const cur = opinion.confidence.toFixed(2);
      if (Math.abs(gap) <= W.sameReading) {
        return { stance: "support", strength: W.sameValue, reason: `restated at ${c.toFixed(2)} ~ ${cur}` };
      }
      const strength = r2(Math.min(1, Math.max(W.minReading, Math.abs(gap) / W.fullGap)));
      return gap < 0
        ? { stance: "contradict", strength, reason: `restated at ${c.toFixed(2)} < ${cur}` }
        : { stance: "support", strength, reason: `restated at ${c.toFixed(2)} > ${cur}` };
    }
    const hedge = has(factCues, "hedge");
    if (hedge && !has(opCues, "hedge")) {
      return { stance: "contradict", strength: W.hedge, reason: `cue "${hedge.cue}"` };
    }
    if (tentative !== undefined) {
      return { stance: "support", strength: W.tentative, reason: `restated tentatively ("${tentative}")` };
    }
    return { stance: "support", strength: W.restated, reason: "restated" };
  }
  // Evidence about the topic: outcomes first. A report with both kinds ("release confirmed
  // for April, the March window is gone") is news of a change: the "against" cue wins.
  // A date moved says nothing of a belief that names no time ("standups are theater").
  const timed = isForecast(opinion.statement);
  const outcomes = factCues.filter((c) => timed || !SCHEDULE_SHIFTS.has(c.cue));
  const cue = has(outcomes, "against") ?? has(outcomes, "for");
  if (cue) {
    // A forecast is read by its own clause: in "it'll rain for the fête so no point putting the
    // tables out" the "no" is of the consequence. "the brunch is going to flop" is borne out by
    // "flopped" and answered by "sold out".
    const forecast = timed ? leadClause(opinion.statement) : undefined;
    const pol = forecast !== undefined && isForecast(forecast) ? polarity(findCues(forecast)) : opPol;
    const failure = forecastsFailure(forecast ?? "");
    // A belief that names no time hopes for what it praises: a complaint ("BESCOM service is
    // pathetic") is borne out by "no improvement", praise ("the rota works") answered by it.
    const judged = timed ? 0 : evaluation(opinion.statement).sign;
    const hopes = judged !== 0 ? judged > 0 : pol > 0 !== failure;
    const bornOut = cue.kind === "against" ? !hopes : hopes;
    return {
      stance: bornOut ? "support" : "contradict",
      strength: W.outcome,
      reason: `outcome "${cue.cue}"${pol < 0 ? " (the opinion is negated)" : failure ? " (a forecast of failure)" : ""}`,
    };
  }
  const sim = similarity(statementTokens(opinion.statement), contentTokens(fact.content));
  // A belief that complains ("our Kubernetes setup is overkill") is turned round by another fact
  // only when the fact says something itself: "upgraded Kubernetes to 1.31" does not. A "not" in
  // the belief ("does not ship in March") is turned by the plain fact ("ships in March").
  const saysSomething =
    grammaticalPolarity(opCues) < 0 ||
    has(factCues, "reversal", "negation") !== undefined ||
    evaluation(about.text).sign !== 0;
  // What a forecast said would happen, reported as done, bears it out ("the school closed for snow"),
  // however little else the report shares with it.
  if (timed && fact.kind !== "opinion" && cameTrue(leadClause(opinion.statement), fact.content)) {
    return { stance: "support", strength: W.outcome, reason: "came true" };
  }
  // "Juno saved money on her railcard" says nothing of "growing your own veg doesn't save money":
  // a fact that bears on a claim speaks of the claim's subject.
  const claimed = claimSubject(reportedClaim(opinion.entities, opinion.statement) ?? opinion.statement);
  const ofSubject =
    claimed === undefined || [...contentTokens(claimed)].some((w) => contentTokens(fact.content).has(w));
  if (!ofSubject) return { stance: "unrelated", strength: 0, reason: `says nothing of "${claimed!.trim()}"` };
  // A fact judging the claim's subject in words of its own ("the green bin got collected on time"
  // against "the green waste collection is useless") is about it, however little else it shares.
  if (flip.flipped && saysSomething && (sim >= HEURISTIC_MIN_SIMILARITY || judgesSubject(claimed, about.text))) {
    return { stance: "contradict", strength: W.negation, reason: `cue "${flip.cue}"` };
  }
  const hedge = has(factCues, "hedge");
  if (hedge && !has(opCues, "hedge") && sim >= HEURISTIC_MIN_SIMILARITY) {
    return { stance: "contradict", strength: W.outcome, reason: `cue "${hedge.cue}"` };
  }
  if (sim < HEURISTIC_MIN_SIMILARITY) {
    return { stance: "unrelated", strength: 0, reason: `similarity ${sim.toFixed(2)} too low, no outcome cue` };
  }
  // A ranking is repeated by another ranking or a judgement: "moved the jira backlog into linear"
  // names both sides of "linear is miles better than jira" and ranks neither.
  if (compares(opinion.statement) && !compares(fact.content) && evaluation(fact.content).sign === 0) {
    return { stance: "unrelated", strength: 0, reason: "names what it ranks, ranks nothing" };
  }
  // Naming the same thing is not saying the same of it: "standup moved to 9:30" does not repeat
  // "standups are theater". A repetition shares a word of what the belief says of its subject.
  const subject = statedSubject(opinion.statement);
  if (subject !== undefined) {
    const said = statementTokens(opinion.statement);
    const named = contentTokens(subject);
    if (![...contentTokens(fact.content)].some((w) => said.has(w) && !named.has(w))) {
      return { stance: "unrelated", strength: 0, reason: `names "${subject.trim()}", says nothing of it` };
    }
  }
  // Similarity 0.3 -> 60 % of the plain weight, >= 0.6 -> all of it.
  const strength = r2(W.plain * Math.min(1, 0.6 + (sim - HEURISTIC_MIN_SIMILARITY) * (4 / 3)));
  return { stance: "support", strength, reason: `repeats it (similarity ${sim.toFixed(2)})` };
}

/**
 * The deterministic judge used without an LLM (the same rules the matcher applies,
 * for a single pair): relation by holder and topic, then judgePair.
 */
export const heuristicJudge: Judge = {
  id: "heuristic-v1",
  async judge(opinion: OpinionRef, fact: Fact): Promise<Judgement> {
    return judgeSync(opinion, fact);
  },
};

export function judgeSync(opinion: OpinionRef, fact: Fact, known?: KnownNames): Judgement {
  const op = topicOf(opinion.entities, opinion.statement, known);
  const f = topicOf(fact.entities, fact.content, known);
  const relation = relationOf(op, f, fact.kind === "opinion", HEURISTIC_MIN_SIMILARITY, 0.45);
  return judgePair(opinion, fact, relation);
}
