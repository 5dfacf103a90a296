/**
 * The Porter stemmer (M.F. Porter, 1980), the algorithm SQLite's FTS5 `porter` tokenizer
 * runs for the index's line store (src/recall/lines.ts). Reflect's matching uses it too,
 * so "ships", "shipped" and "shipping" are one word in both places. Input: one lower-case
 * word; words of 2 letters or fewer, and words with digits, are returned as they are.
 */

const isVowelAt = (w: string, i: number): boolean => {
  const ch = w[i]!;
  if ("aeiou".includes(ch)) return true;
  return ch === "y" && i > 0 && !isVowelAt(w, i - 1);
};

/** m: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const v = isVowelAt(stem, i);
    if (!v && prevVowel) m++;
    prevVowel = v;
  }
  return m;
}

const hasVowel = (stem: string): boolean => [...stem].some((_, i) => isVowelAt(stem, i));

const endsDoubleConsonant = (w: string): boolean =>
  w.length >= 2 && w.at(-1) === w.at(-2) && !isVowelAt(w, w.length - 1);

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
const endsCvc = (w: string): boolean =>
  w.length >= 3 &&
  !isVowelAt(w, w.length - 1) &&
  isVowelAt(w, w.length - 2) &&
  !isVowelAt(w, w.length - 3) &&
  !"wxy".includes(w.at(-1)!);

/** Replace the first matching suffix when its stem has measure > `minM`. */
function replaceSuffix(w: string, rules: readonly (readonly [string, string])[], minM: number): string {
  for (const [suffix, repl] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return measure(stem) > minM ? stem + repl : w;
  }
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: readonly (readonly [string, string])[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

// Ten years of facts hold ~200k words but only ~4k distinct ones, and reflect stems each
// fact again for every page and matcher that reads it: remember stems (bounded, so a
// long-running process does not grow without end).
const MEMO = new Map<string, string>();
const MEMO_MAX = 100_000;

export function porterStem(word: string): string {
  if (word.length <= 2 || /[^a-z]/.test(word)) return word;
  let stem = MEMO.get(word);
  if (stem === undefined) {
    if (MEMO.size >= MEMO_MAX) MEMO.clear();
    stem = stemWord(word);
    MEMO.set(word, stem);
  }
  return stem;
}

function stemWord(word: string): string {
  let w = word;
  // Step 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);
  // Step 1b: -ed, -ing.
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith("ed") ? "ed" : w.endsWith("ing") ? "ing" : undefined;
    if (suffix && hasVowel(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
      else if (endsDoubleConsonant(w) && !"lsz".includes(w.at(-1)!)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += "e";
    }
  }
  // Step 1c: y -> i after a vowel-containing stem.
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  // Step 4: drop a suffix when the stem is long enough (m > 1).
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (measure(stem) > 1 && (suffix !== "ion" || /[st]$/.test(stem))) w = stem;
    break;
  }
  // Step 5a: a final e.
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  // Step 5b: -ll -> -l when m > 1.
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
  return w;
}

/** Stems the -nd rule below would turn into another word ("intense" is not "intend"). */
const NOT_ND = new Set(["intens", "commenc"]);

/**
 * One stem for a word family Porter leaves split: a Latin verb in -nd and its noun or
 * adjective in -nse/-nce/-nsion ("defend" / "defence", "defense", "defensive"; "expand" /
 * "expansion"; "respond" / "response"). Reflect's matching uses it so "defending in May"
 * and "the defense moved to June" are about one thing; the index keeps plain Porter stems.
 * Short stems ("sens", "tens", "dens") are left alone: "sense" is not "send".
 */
export function stemFamily(stem: string): string {
  return stem.length >= 6 && /[aeo]n[sc]$/.test(stem) && !NOT_ND.has(stem) ? `${stem.slice(0, -1)}d` : stem;
}
