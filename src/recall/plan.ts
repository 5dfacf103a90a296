import { hasCjk, nameWords } from "../analysis/tokens.js";
import type { EntityRow } from "../index/queries.js";
import type { Intent, LexicalTerm } from "./intent.js";
import type { RecallProfile } from "./profile.js";

/**
 * The plan of one recall: what the question asks (intent), which profile the logs call
 * for, and every tuning number, named. Arms (arm-list.ts) and ranking stages read the
 * plan; nothing reads what another arm did.
 */

/** Arm weights: structure (entity, time, opinion) leads when the question asks for it. */
export const DEFAULT_WEIGHTS: Readonly<Record<string, number>> = {
  lexical: 1,
  facts: 0.4,
  entity: 1.2,
  time: 1.3,
  opinion: 1.3,
  // Line-level USE similarity re-ranks lexical hits poorly on LoCoMo (bench/README.md): a light touch.
  vector: 0.2,
  // The vector arm's own nearest lines as candidates (vector-source.ts; swept in bench/README.md "LoCoMo").
  semantic: 0.2,
  // Second-hop lines reached through a name on a first-hop line (multihop.ts; bench/README.md "LoCoMo").
  multihop: 0.8,
  // WordNet synonyms: below the question's own words (bench/README.md).
  synonyms: 0.3,
};

/**
 * When the synonym pass runs: `always`; `paraphrase`, only when no line has at least half
 * of the question's topic words (the words themselves found little); `off`.
 */
export type SynonymMode = "always" | "paraphrase" | "off";

/** Vectors as a candidate source (vector-source.ts). */
export interface SemanticSource {
  /** Nearest chunks (by the index's chunk vectors) whose lines become candidates. */
  chunks: number;
  /** Lines below this cosine to the question are left out. */
  minSimilarity: number;
  /**
   * The arm's weight when the question's own words find little (no line holds half of
   * them: synonym-arm.ts wordsFoundEnough): then meaning, not words, has to find the line.
   */
  paraphraseWeight: number;
}

/** The multi-hop stage (multihop.ts). */
export interface MultiHopTuning {
  /** First-hop lines to bridge from (the lexical arm's best). */
  seeds: number;
  /** A seed must hold at least this many of the question's words (it connects part of it). */
  minSeedTerms: number;
  /** ... and more than this share of them. */
  minSeedShare: number;
  /** Bridges (names the question does not use) per seed. */
  bridgesPerSeed: number;
  /** A bridge on more lines than max(minCommonLines, commonShare x lines) says nothing (a speaker, the user). */
  commonShare: number;
  minCommonLines: number;
  /** Second-hop lines per bridge. */
  hopLines: number;
}

export interface RecallTuning {
  /** Arm weights by name (config recall.tuning.weights overrides some). */
  weights: Readonly<Record<string, number>>;
  /** An entity with more facts than this is too common to be a useful search word (the entity arm covers it). */
  commonEntityFacts: number;
  /** What a result outside a time window the question names is worth (soft: the window may be off). */
  outsideWindow: number;
  /** A vague "recently" next to other words: the time arm at this share of its weight, and no window penalty. */
  vagueTime: number;
  /** The entity arm's share of its weight when the question also asks about something (it ranks by recency). */
  entityWithWords: number;
  /**
   * The lexical arm's share of its weight when the question's only words are an entity's
   * name ("who is Priya?"): every line naming her matches; the entity arm answers.
   */
  nameOnlyLexical: number;
  /** Candidates per arm: max(minPool, k x poolPerK). */
  minPool: number;
  poolPerK: number;
  /** Lines the lexical arm ranks: max(minLexicalLines, pool x lexicalLinesPerPool). */
  minLexicalLines: number;
  lexicalLinesPerPool: number;
  /** Opinions among the first k x evidencePerK results get evidence. */
  evidencePerK: number;
  /** Evidence links per opinion result found by the index's heuristics. */
  evidenceLinks: number;
  /** Evidence links a result lists at most: a judged opinion's page list (hundreds after years) is cut to its newest. */
  maxEvidenceLinks: number;
  /** When the WordNet synonym pass runs (synonym-arm.ts; chosen by bench/README.md "Synonyms"). */
  synonyms: SynonymMode;
  /** The semantic candidate arm (runs only with an embedder and vectors in the index). */
  semantic: SemanticSource;
  /** The multi-hop stage (its weight is weights.multihop; 0 turns it off). */
  multiHop: MultiHopTuning;
}

export const DEFAULT_TUNING: RecallTuning = {
  weights: DEFAULT_WEIGHTS,
  commonEntityFacts: 300,
  outsideWindow: 0.5,
  vagueTime: 0.3,
  entityWithWords: 0.5,
  nameOnlyLexical: 0.3,
  minPool: 20,
  poolPerK: 4,
  minLexicalLines: 300,
  lexicalLinesPerPool: 10,
  evidencePerK: 2,
  evidenceLinks: 5,
  maxEvidenceLinks: 10,
  synonyms: "paraphrase",
  semantic: { chunks: 4, minSimilarity: 0.3, paraphraseWeight: 1 },
  multiHop: {
    seeds: 3,
    minSeedTerms: 2,
    minSeedShare: 0.5,
    bridgesPerSeed: 2,
    commonShare: 0.01,
    minCommonLines: 20,
    hopLines: 5,
  },
};

export interface RecallPlan {
  query: string;
  intent: Intent;
  k: number;
  /** Candidates each arm returns at most. */
  pool: number;
  tuning: RecallTuning;
  profile: RecallProfile;
  /** Words for the lexical searches: without a very common entity's name (the entity arm covers it). */
  lexTerms: LexicalTerm[];
  /** Run the lexical arms (the question has words beyond a common entity's name, or CJK text). */
  lexical: boolean;
  /** "Recently" next to other words: a light preference, not a window. */
  vagueOnly: boolean;
}

/** Pure: the plan for a question, given its intent and the index's entities. */
export function makePlan(
  query: string,
  intent: Intent,
  entities: readonly EntityRow[],
  k: number,
  profile: RecallProfile,
  tuning: RecallTuning = DEFAULT_TUNING,
): RecallPlan {
  const commonEntityAsked = entities.some(
    (e) => intent.entities.includes(e.slug) && e.facts > tuning.commonEntityFacts,
  );
  // "Tell me about Priya": when the entity has many facts, her name alone is no lexical
  // question (it would rank thousands of lines that merely mention her).
  const nameOnly = intent.contentTerms.length === 0 && commonEntityAsked;
  return {
    query,
    intent,
    k,
    pool: Math.max(tuning.minPool, k * tuning.poolPerK),
    tuning,
    profile,
    lexTerms: commonEntityAsked && intent.contentTerms.length > 0 ? intent.contentTerms : intent.terms,
    lexical: !nameOnly && (intent.terms.length > 0 || hasCjk(query)),
    // "What did John recently get promoted to?": the words decide, not a guessed two weeks.
    vagueOnly: intent.window?.vague === true && intent.terms.length > 0,
  };
}

/** Does a candidate's text or entities name the entity `slug` (the --entity filter)? */
export function mentionsEntity(c: { entities: readonly string[]; content: string }, slug: string): boolean {
  const s = slug.toLowerCase();
  return (
    c.entities.some((e) => e.toLowerCase() === s) || nameWords(c.content).join(" ").includes(nameWords(s).join(" "))
  );
}
