/**
 * Opinion identity = holder + topic (issue 10, item 1). Pure.
 *
 * - holder: who holds the belief, one of the entities before the colon (those not
 *   @-mentioned inside the text), a person's name first ("@ledger-sync @Mara: ..." is
 *   Mara's opinion about ledger-sync);
 * - topic: the content words (src/reflect/text.ts) plus every other entity the text is
 *   about: the other head entities, @mentions, and plain-text mentions of known entity
 *   names ("ledger-sync" written without @).
 *
 * A later opinion of the same holder whose topic overlaps enough is a restatement of the
 * same opinion, whatever its words; facts about a topic entity tagged only with that
 * entity (the project) are candidate evidence too.
 */
import {
  answeredQuestion,
  compares,
  findCues,
  isForecast,
  looksBack,
  praisesInHindsight,
  switchSides,
} from "../analysis/cues.js";
import { fold } from "../analysis/tokens.js";
import { claimSubject, evaluatedSubject, judgedOnScale, praisesIronically, recanting } from "../analysis/valence.js";
import { entityKey } from "../retain/entities.js";
import { attributedTo, GROUP_HOLDER, headEntities, holderOf, PERSON_LIKE, reportedClaim } from "./holder.js";
import { judgedHead } from "./judged-head.js";
import type { KnownNames } from "./known-names.js";
import { contentTokens, similarity, VAGUE_TOKENS } from "./text.js";
import { type Names, namesWithin, sharesAnyName, sharesName, writtenNames } from "./written-names.js";

export { attributedTo, headEntities, holderOf, reportedName } from "./holder.js";
export { KnownNames } from "./known-names.js";
export { type Names, writtenNames } from "./written-names.js";

export interface Topic {
  /** entityKey of the holder, if the text has one. */
  holder?: string;
  /** entityKeys of the other entities the text is about. */
  entities: Set<string>;
  /** Stemmed content words. */
  words: Set<string>;
  /** Content words written capitalised (names of tools, places, products): see writtenNames. */
  names?: Names;
  /** The text carries a stance cue (reversal, hedge, negation, sarcastic praise). */
  cued?: boolean;
  /** The text praises sarcastically ("Great, another ...", "... Fantastic planning."): a complaint. */
  ironic?: boolean;
  /** The text takes a belief or a turn back ("was wrong about", "scrap that about"). */
  recants?: boolean;
  /** The text reports an outcome ("moved to", "slipped", "confirmed", "on track"). */
  outcome?: boolean;
  /** Content words of what the statement says something about (valence.ts claimSubject). */
  subject?: Set<string>;
  /** The text forecasts (cues.ts isForecast): "the brunch menu is going to flop". */
  forecasts?: boolean;
  /** entityKeys of who reported someone else's belief ("@Wren: Ash figures ..."): Wren; empty when nobody is tagged ("per Ash, ..."). */
  reporters?: Set<string>;
  /** The text looks back on a choice: a verdict, hindsight or a counterfactual (cues.ts looksBack). */
  looksBack?: boolean;
  /** Content words of what the text judges ("milwauke", "drill" of "the new milwaukee drill was worth every penny"), vague words left out. */
  judgedWords?: Set<string>;
  /** The text praises, in hindsight, what was not chosen ("Go would have been faster"). */
  hindsight?: boolean;
  /** The text compares or ranks something ("Pulumi beats Terraform", "Svelte is miles ahead"). */
  compares?: boolean;
  /** The head word of what the text judges with praise or complaint ("the on-call rota is unfair": "rota"). */
  judged?: string;
  /** What the text judges on one scale ("the gym membership is not cheap": price, of gym and membership). */
  scaled?: { scale: string; words: Set<string> };
  /** entityKeys of what a switch in the text gives up ("moved off Linear": "linear"). */
  gaveUp?: Set<string>;
  /** entityKeys the text names only as the owner of a part ("Linear's pricing"): it is about the part. */
  aspectOf?: Set<string>;
  /** Content words of a belief the text puts as a question and answers ("handovers too long? not anymore"). */
  answers?: Set<string>;
}

/** Capitalised content words of a text (stemmed, as in `words`): `mid` inside a sentence, `lead` at a sentence's start. */
/** The text names something: mid-sentence, or at its start when the word is no stop word ("Vite is ..."). */
/**
 * A plain forecast (no stance cue: not "was wrong about ...") of another thing than the opinion's
 * forecast: each subject names something the other does not ("brunch menu", "autumn menu").
 */
export function newForecast(opinion: Topic, fact: Topic): boolean {
  const [a, b] = [opinion.subject, fact.subject];
  if (!opinion.forecasts || !fact.forecasts || fact.cued === true) return false;
  if (a === undefined || b === undefined || a.size === 0 || b.size === 0) return false;
  return [...a].some((w) => !b.has(w)) && [...b].some((w) => !a.has(w));
}

/** Every word of `a` is in `b` (both given, `a` not empty). */
const within = (a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean =>
  a !== undefined && b !== undefined && a.size > 0 && [...a].every((w) => b.has(w));

/** Words that never name what a statement is about ("new" in "the new CI pipeline"). */
const VAGUE = VAGUE_TOKENS;

const hasName = (n: Names | undefined) =>
  n !== undefined && (n.mid.size > 0 || [...n.lead].some((w) => contentTokens(w).size > 0));

/** Shared words, also counting a word that extends the other ("pars" ~ "parser"): enough for a name-anchored match. */
function looselyShared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const w of b) {
    if (a.has(w)) n++;
    else
      for (const u of a)
        if (Math.min(u.length, w.length) >= 4 && (u.startsWith(w) || w.startsWith(u))) {
          n++;
          break;
        }
  }
  return n;
}

export function topicOf(entities: readonly string[], content: string, known?: KnownNames, asOf?: string): Topic {
  return topicOn(statementTopic(entities, content, known), asOf);
}

/** What a statement's topic is made of, whatever the day: topicOn gives its topic on a day (evolve.ts reads an opinion's on every day). */
export interface StatementTopic
  extends Pick<
    Topic,
    | "holder"
    | "names"
    | "cued"
    | "ironic"
    | "recants"
    | "outcome"
    | "subject"
    | "forecasts"
    | "reporters"
    | "looksBack"
    | "hindsight"
    | "compares"
    | "judged"
    | "judgedWords"
    | "scaled"
    | "gaveUp"
    | "aspectOf"
    | "answers"
  > {
  keys: string[];
  mentions: { key: string; since: string }[];
  words: Set<string>;
}

export function statementTopic(entities: readonly string[], content: string, known?: KnownNames): StatementTopic {
  return withKnownNames(statementCore(entities, content, known?.roles), entities, content, known);
}

/**
 * The parts of a statement's topic that do not depend on which names are known (all but the
 * plain-text mentions and what is read from them), with the name a switch gives up (`lost`):
 * topic-memo.ts keeps these between runs, keyed by entities, text and role ties.
 */
export type StatementCore = Omit<StatementTopic, "mentions" | "aspectOf" | "gaveUp"> & { lost?: string };

export function statementCore(
  entities: readonly string[],
  content: string,
  roles?: ReadonlyMap<string, string>,
): StatementCore {
  const holder = holderOf(entities, content, roles);
  // Who reported someone else's belief ("@Hannah: Priya thinks ...", "the plot group consensus is ...") is not what it is about.
  const reporters =
    holder !== undefined && (holder.startsWith(GROUP_HOLDER) || attributedTo(entities, content, roles) === holder)
      ? new Set(
          headEntities(entities, content)
            .filter((e) => PERSON_LIKE.test(e) && entityKey(e) !== holder)
            .map(entityKey),
        )
      : undefined;
  const parts: StatementCore = {
    keys: entities.map(entityKey).filter((k) => k === holder || !reporters?.has(k)),
    words: contentTokens(content),
    names: writtenNames(content),
    cued:
      findCues(content).some((c) => c.kind === "reversal" || c.kind === "hedge" || c.kind === "negation") ||
      praisesIronically(content),
    looksBack: looksBack(content),
    hindsight: praisesInHindsight(content),
    compares: compares(content),
  };
  if (holder !== undefined) parts.holder = holder;
  if (praisesIronically(content)) parts.ironic = true;
  const cues = findCues(content);
  if (recanting(cues) !== undefined) parts.recants = true;
  if (cues.some((c) => c.kind === "against" || c.kind === "for")) parts.outcome = true;
  // "Bernadette is convinced the fête will be rained off" says something of the fête, not of Bernadette.
  const subject = claimSubject(reportedClaim(entities, content) ?? content);
  if (subject !== undefined) parts.subject = new Set([...contentTokens(subject)].filter((w) => !VAGUE.has(w)));
  if (isForecast(content)) parts.forecasts = true;
  // Empty when the report tags no reporter ("per Ash, ..."): still a report of someone else's belief.
  if (reporters !== undefined) parts.reporters = reporters;
  const judged = judgedHead(content);
  if (judged !== undefined) {
    parts.judged = judged;
    const what = evaluatedSubject(content);
    if (what !== undefined) parts.judgedWords = new Set([...contentTokens(what)].filter((w) => !VAGUE.has(w)));
  }
  const onScale = judgedOnScale(content);
  if (onScale !== undefined) parts.scaled = { scale: onScale.scale, words: contentTokens(onScale.subject) };
  const asked = answeredQuestion(content);
  if (asked !== undefined && contentTokens(asked).size > 0) parts.answers = contentTokens(asked);
  const lost = switchSides(content)?.lost;
  if (lost !== undefined) parts.lost = lost;
  return parts;
}

/** A statement's topic from its core and the names known now (their plain-text mentions). */
export function withKnownNames(
  core: StatementCore,
  entities: readonly string[],
  content: string,
  known?: KnownNames,
): StatementTopic {
  const { lost, ...rest } = core;
  const parts: StatementTopic = { ...rest, mentions: known?.mentions(content) ?? [] };
  const parted = possessed(content, [...parts.keys, ...parts.mentions.map((m) => m.key)]);
  if (parted.length > 0) parts.aspectOf = new Set(parted);
  if (lost !== undefined) {
    const folded = ` ${fold(lost)} `;
    const keys = new Set([
      ...entities.filter((e) => folded.includes(` ${fold(e)} `)).map(entityKey),
      ...(known?.mentions(lost).map((m) => m.key) ?? []),
    ]);
    if (keys.size > 0) parts.gaveUp = keys;
  }
  return parts;
}

/**
 * The keys among `keys` that a text names only as the owner of a part ("Linear's pricing"):
 * it is about the part. One pass finds the words written with "'s"; only those keys are checked.
 */
function possessed(content: string, keys: readonly string[]): string[] {
  if (keys.length === 0 || !/['’]s\b/u.test(content)) return [];
  const words = ` ${fold(content)
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")} `;
  return [...new Set(keys)].filter((k) => {
    const n = k.replace(/[-_]+/g, " ");
    return words.includes(` ${n}'s `) && !words.includes(` ${n} `);
  });
}

/** The topic on `asOf`: plain-text mentions count from the day their name was first tagged. */
export function topicOn(parts: StatementTopic, asOf?: string): Topic {
  const about = new Set(parts.keys);
  for (const m of parts.mentions) if (asOf === undefined || m.since <= asOf) about.add(m.key);
  if (parts.holder !== undefined) about.delete(parts.holder);
  const topic: Topic = { entities: about, words: parts.words };
  if (parts.names) topic.names = parts.names;
  if (parts.cued !== undefined) topic.cued = parts.cued;
  if (parts.ironic) topic.ironic = true;
  if (parts.recants) topic.recants = true;
  if (parts.outcome) topic.outcome = true;
  if (parts.subject !== undefined) topic.subject = parts.subject;
  if (parts.forecasts) topic.forecasts = true;
  if (parts.reporters !== undefined) topic.reporters = parts.reporters;
  if (parts.looksBack) topic.looksBack = true;
  if (parts.hindsight) topic.hindsight = true;
  if (parts.compares) topic.compares = true;
  if (parts.judged !== undefined) topic.judged = parts.judged;
  if (parts.judgedWords !== undefined) topic.judgedWords = parts.judgedWords;
  if (parts.scaled !== undefined) topic.scaled = parts.scaled;
  if (parts.gaveUp !== undefined) topic.gaveUp = parts.gaveUp;
  if (parts.aspectOf !== undefined) topic.aspectOf = parts.aspectOf;
  if (parts.answers !== undefined) topic.answers = parts.answers;
  if (parts.holder !== undefined) topic.holder = parts.holder;
  return topic;
}

export interface TopicMatching {
  /** Word similarity at or above which two statements of one holder are one topic, shared entity or not. */
  restateSimilarity: number;
}

/**
 * How well a new statement covers an opinion's topic, 0 when it does not:
 * - a shared topic entity (the project, a person) and at least one shared content word; or
 * - word similarity at or above `restateSimilarity`;
 * - a shared written name (writtenNames) and a second shared word or a stance cue;
 * - two shared content words and at least a third of `restateSimilarity`.
 * The score (higher is better) picks among several opinions of one holder.
 */
export function topicScore(opinion: Topic, fact: Topic, k: TopicMatching): number {
  // A belief put as a question and answered ("handovers too long? not anymore, Helen cut them")
  // is the belief the answer is about: not one about a name in the reason given.
  if (fact.answers !== undefined && ![...fact.answers].some((w) => opinion.words.has(w))) return 0;
  // Two forecasts of different things ("the brunch menu is going to flop", "the autumn menu will
  // be a hit") are two beliefs, though they share a word: each subject names something the other does not.
  if (newForecast(opinion, fact)) return 0;
  let sharedEntities = 0;
  for (const e of fact.entities) if (opinion.entities.has(e)) sharedEntities++;
  const sim = similarity(opinion.words, fact.words);
  let sharedWords = 0;
  for (const w of fact.words) if (opinion.words.has(w)) sharedWords++;
  // The entity's own name anchors, but a statement about a part of it ("Linear's pricing for
  // guests is annoying") is not "Linear is the best tracker" restated.
  let nameWords = 0;
  for (const e of fact.entities)
    if (opinion.entities.has(e))
      for (const t of contentTokens(e)) if (opinion.words.has(t) && fact.words.has(t)) nameWords++;
  // ... unless the statement says it of the whole thing, not of a part ("Linear's pricing").
  // A name the belief mentions in passing while it judges something else ("carol is great ...
  // ellie adores her") is no anchor on its own: "ellie still wont swim" is not about carol.
  const wholly = [...fact.entities].some(
    (e) =>
      opinion.entities.has(e) &&
      !fact.aspectOf?.has(e) &&
      (opinion.judgedWords === undefined || [...contentTokens(e)].some((t) => opinion.judgedWords!.has(t))),
  );
  if (sharedEntities > 0 && sharedWords > 0 && (sharedWords > nameWords || wholly)) return 1 + sharedEntities + sim;
  // A switch away from a thing the opinion is about ("switching off Linear would be a step
  // back", "we moved off Linear") speaks of the belief about that thing.
  if (fact.gaveUp !== undefined && [...opinion.entities].some((e) => fact.gaveUp!.has(e))) return 1 + sim;
  // A name both write (a tool, a product) anchors the topic like an entity, when the new
  // statement also shares another word or takes a stance ("starting to doubt Kafka ..."
  // ~ "Kafka is the right backbone"); the name alone would merge every belief about it.
  if (sharesName(opinion.names, fact.names) && (fact.cued === true || looselyShared(opinion.words, fact.words) >= 2)) {
    return 1 + sim;
  }
  // A look back on a choice ("Pulumi was the right call", "Kafka would have been fine if ...")
  // is about the choice its subject names, even when both start with the name.
  if (fact.looksBack === true && sharesAnyName(opinion.names, fact.names)) return 1 + sim;
  // Hindsight praise of something else ("rewriting the parser in Go would have been faster")
  // is about the holder's choice of another named thing for the same object ("Rust for the parser").
  if (
    fact.hindsight === true &&
    hasName(opinion.names) &&
    hasName(fact.names) &&
    !sharesAnyName(opinion.names, fact.names) &&
    looselyShared(opinion.words, fact.words) >= 1
  ) {
    return 1 + sim;
  }
  // A comparison of a thing another comparison names ("not only is Pulumi faster to write,
  // cheaper in CI" ~ "Pulumi beats Terraform"): the same preference in other words. One
  // naming more things than a detail is about something else.
  if (
    fact.compares === true &&
    opinion.compares === true &&
    sharesName(opinion.names, fact.names) &&
    namesWithin(fact.names, opinion.names)
  ) {
    return 1 + sim;
  }
  if (sim >= k.restateSimilarity) return sim;
  // Praise or complaint of the same thing ("the on-call rota is unfair" ~ "the rota is fine
  // now"): one belief about it, in words that share nothing else.
  if (opinion.judged !== undefined && opinion.judged === fact.judged) return 0.5 + sim;
  // Praise or complaint of a thing by a part of the name the belief gave it ("the milwaukee is
  // still the best tool" ~ "the new milwaukee drill was worth every penny"): weaker than the same head.
  if (
    fact.judged !== undefined &&
    within(fact.judgedWords, opinion.judgedWords) &&
    opinion.judgedWords!.has(fact.judged)
  ) {
    return 0.4 + sim;
  }
  // Sarcasm names what it complains of without judging it in so many words ("Great, the rota
  // has me down for Easter too. Fantastic planning."), a take-back what it takes back ("scrap
  // that about the rota working"): about the belief that judges that thing.
  // A take-back is about what it takes back, the subject of its first clause ("hendersons are a
  // dream. scratch that, ... for the same price" is not about prices).
  const takenBack =
    fact.recants === true && fact.subject !== undefined && fact.subject.size > 0 ? fact.subject : undefined;
  if (
    opinion.judged !== undefined &&
    (fact.ironic === true || fact.recants === true) &&
    (takenBack ?? fact.words).has(opinion.judged)
  ) {
    return 0.5 + sim;
  }
  // Judged on the same scale, of things that share a word ("the campus gym is overpriced" ~
  // "the gym membership is not cheap"): one belief in other words. Another scale ("the office
  // is too noisy" / "the office coffee is awful") may be another belief.
  if (
    opinion.scaled !== undefined &&
    opinion.scaled.scale === fact.scaled?.scale &&
    [...fact.scaled.words].some((w) => opinion.scaled!.words.has(w))
  ) {
    return 0.5 + sim;
  }
  // Same holder, no entity to anchor on: two shared content words and some overlap
  // ("Postgres is the right choice" ~ "Postgres was the right call"). A vague word ("new",
  // "this week") names nothing, so it is not one of them.
  let named = 0;
  for (const w of fact.words) if (opinion.words.has(w) && !VAGUE.has(w)) named++;
  if (named >= 2 && sim >= k.restateSimilarity / 3) return sim;
  return 0;
}
