/**
 * Small pure text helpers shared by matching and judging. Tokens use the one analyzer
 * (src/analysis/): its stop words, folding and the Porter stemmer the index's line store
 * runs, so reflect and recall agree on what a word is.
 */

import { sameThing } from "../analysis/abbreviations.js";
import { CUE_WORDS, findCues } from "../analysis/cues.js";
import { SPEECH_FILLERS, UNAPOSTROPHED_STOP_WORDS } from "../analysis/fillers.js";
import { porterStem, stemFamily } from "../analysis/stem.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { fold } from "../analysis/tokens.js";

/**
 * Particles that make a phrasal verb a noun when written together: "cut over" is a
 * "cutover", "roll back" a "rollback", "sign off" a "signoff".
 */
const PARTICLES = new Set(["over", "off", "out", "up", "back", "live"]);

/**
 * Verbs and adverbs that say how someone holds a belief, not what it is about: "Mara
 * thinks X", "Mara still believes X" and "Mara reckons X" are about X.
 */
const HOLDING_WORDS = new Set(
  (
    "think thinks thought believe believes believed expect expects expected feel feels felt reckon reckons " +
    "guess guesses suppose supposes bet bets says say call calls called put puts still really probably " +
    "definitely certainly convinced confident sure view opinion even yet honestly actually basically"
  ).split(" "),
);

/**
 * A word as matching reads it: one word for the spellings of one thing ("k8s", "Kubernetes";
 * "rota", "schedule"), then its stem, one for a word family ("defence", "defending").
 */
const matchStem = (word: string) => stemFamily(porterStem(sameThing(word)));

/**
 * Words that never name a thing on their own (beyond the stop words): "the new CI pipeline" is
 * named by "CI pipeline", so "demoed the new refunds flow" is not news of it. facets.ts, topic.ts.
 */
export const VAGUE_WORDS: readonly string[] = [
  "now",
  "new",
  "today",
  "week",
  "month",
  "next",
  "last",
  "still",
  "again",
  "finally",
  "got",
];

/** Phrases of time that name no topic: "these days", "a day early", "six weeks late". */
const TIME_PHRASES =
  /\b(?:(?:these|those) days|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|\d+)\s+(?:days?|weeks?|months?)\s+(?:early|late|ahead|behind))\b/gu;

const skip = (w: string) =>
  STOP_WORDS.has(w) ||
  CUE_WORDS.has(w) ||
  HOLDING_WORDS.has(w) ||
  SPEECH_FILLERS.has(w) ||
  UNAPOSTROPHED_STOP_WORDS.has(w);

/**
 * Lower-case, accent-folded, stemmed (matchStem) content words without stop words, entity markers
 * or belief cues ("no longer", "doubts"), deduplicated. Hyphenated words count by their
 * parts; a verb and its particle also count as their compound ("cuts over" ~ "cutover").
 */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  const words = fold(text)
    .replace(/’/g, "'")
    // "these days", "six days late" say when, never what ("prices are a joke these days" / "pricing by the day").
    .replace(TIME_PHRASES, " ")
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((raw) => raw.replace(/^['-]+|['-]+$/g, "").replace(/'s$/, ""));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.length < 2) continue;
    const next = words[i + 1];
    if (next && PARTICLES.has(next) && !skip(word)) out.add(porterStem(porterStem(word) + next));
    if (skip(word)) continue;
    for (const part of word.split("-")) if (part.length >= 2 && !skip(part)) out.add(matchStem(part));
  }
  return out;
}

/**
 * Similarity of a fact to an opinion, 0..1: the mean of token Jaccard and the share of
 * the opinion's words the fact repeats. The second term lets a restatement that adds
 * detail ("... ; she replaced the standup with a thread") still count as the same claim.
 */
export function similarity(opinion: ReadonlySet<string>, fact: ReadonlySet<string>): number {
  if (opinion.size === 0) return 0;
  let inter = 0;
  for (const t of opinion) if (fact.has(t)) inter++;
  const union = opinion.size + fact.size - inter;
  return (inter / union + inter / opinion.size) / 2;
}

/**
 * How much of its text a line kept through an edit, 0..1: the Dice coefficient of the
 * character trigrams of both (case and spacing ignored). A fixed typo or a changed word keeps
 * most trigrams, where word tokens would count every misspelt word as a different word.
 */
export function editSimilarity(a: string, b: string): number {
  const grams = (text: string) => {
    const t = ` ${text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim()} `;
    const out = new Map<string, number>();
    for (let i = 0; i + 3 <= t.length; i++) out.set(t.slice(i, i + 3), (out.get(t.slice(i, i + 3)) ?? 0) + 1);
    return out;
  };
  const [x, y] = [grams(a), grams(b)];
  let shared = 0;
  let total = 0;
  for (const [g, n] of x) {
    shared += Math.min(n, y.get(g) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 0 : (2 * shared) / total;
}

/** Token Jaccard similarity, 0..1. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** How many negation, reversal and hedge cues a text carries (whole words or phrases; src/reflect/cues.ts). */
export function negationCount(text: string): number {
  return findCues(text).filter((c) => c.kind === "negation" || c.kind === "reversal" || c.kind === "hedge").length;
}

/** VAGUE_WORDS as content tokens ("dai", "week"): words that name nothing a statement is about. */
export const VAGUE_TOKENS: ReadonlySet<string> = contentTokens(VAGUE_WORDS.join(" "));

/** The words that name something: without VAGUE_TOKENS ("these days", "this week", "the new ..."). */
export const namingWords = (words: ReadonlySet<string>): Set<string> =>
  new Set([...words].filter((w) => !VAGUE_TOKENS.has(w)));
