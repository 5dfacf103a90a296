/** Small pure text helpers shared by matching and judging. */

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but of to in on at for with by from as is are was were be been being it its this that these those " +
    "i me my we our you your he she they them his her their there here so than then too very just also about into over " +
    "has have had do does did will would can could should may might must shall up out if when while which who whom what"
  ).split(" "),
);

/** Words that flip or undo a statement; kept out of the similarity tokens so "not X" still matches "X". */
export const NEGATION_CUES: readonly string[] = [
  "no longer",
  "not anymore",
  "instead of",
  "rather than",
  "not",
  "no",
  "never",
  "isn't",
  "isnt",
  "aren't",
  "wasn't",
  "won't",
  "wont",
  "doesn't",
  "doesnt",
  "don't",
  "dont",
  "didn't",
  "didnt",
  "can't",
  "cannot",
  "stopped",
  "quit",
  "dropped",
  "abandoned",
  "cancelled",
  "canceled",
  "slipped",
  "delayed",
  "postponed",
  "missed",
  "failed",
  "wrong",
  "false",
  "dislikes",
  "hates",
  "avoids",
  "reversed",
  "changed mind",
];

const CUE_WORDS = new Set(NEGATION_CUES.flatMap((cue) => cue.split(" ")));

/** Lower-case word tokens without stopwords, entity markers or negation cues, deduplicated. */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}'’-]+/u)) {
    const word = raw.replace(/^['’-]+|['’-]+$/g, "").replace(/’/g, "'");
    if (word.length < 2 || STOPWORDS.has(word) || CUE_WORDS.has(word)) continue;
    for (const part of word.split("-")) if (part.length >= 2 && !STOPWORDS.has(part)) out.add(stem(part));
  }
  return out;
}

/** A deliberately tiny stemmer: plural and 3rd-person "s" only ("ships" ~ "ship", not "class"). */
export function stem(word: string): string {
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !/\d/.test(word)) return word.slice(0, -1);
  return word;
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

/** Token Jaccard similarity, 0..1. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** How many negation/reversal cues a text carries (whole words or phrases). */
export function negationCount(text: string): number {
  const norm = ` ${text
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .trim()} `;
  let count = 0;
  let rest = norm;
  for (const cue of NEGATION_CUES) {
    const needle = ` ${cue} `;
    while (rest.includes(needle)) {
      count++;
      rest = rest.replace(needle, " ");
    }
  }
  return count;
}
