import { porterStem } from "./stem.js";
import { STOP_WORDS } from "./stopwords.js";

/**
 * English irregular verbs: the forms the Porter stemmer (./stem.ts, and SQLite's `porter`
 * tokenizer over the index's lines) cannot bring together, so "bring" and "brought", "run"
 * and "ran" stay different words. A question is usually asked in the present ("how much
 * do we pay") and the log written in the past ("paid out £1,460"): a query word asks for
 * all forms of its verb. Forms Porter already joins ("says", "paying") are not listed.
 *
 * Left out on purpose: forms that are more often another word than the verb ("spoke" of a
 * wheel, "bit" as in "a bit", "sat" for Saturday, "born"/"bear", "ring", "shot", "tear",
 * "ground", "wound", "rose", "fell", "felt", "lay", "left" as a side, "saw" the tool), where asking for the verb's other forms would mostly add
 * noise; and verbs whose every form is a stop word ("go", "say", "get": stopwords.ts).
 */
const VERBS = [
  "arise arose arisen",
  "awake awoke awoken",
  "become became",
  "begin began begun",
  "bend bent",
  "bind bound",
  "bleed bled",
  "blow blew blown",
  "break broke broken",
  "breed bred",
  "bring brought",
  "build built",
  "burn burnt",
  "buy bought",
  "catch caught",
  "choose chose chosen",
  "cling clung",
  "come came",
  "creep crept",
  "deal dealt",
  "dig dug",
  "draw drew drawn",
  "dream dreamt",
  "drink drank drunk",
  "drive drove driven",
  "eat ate eaten",
  "feed fed",
  "fight fought",
  "find found",
  "flee fled",
  "fling flung",
  "fly flew flown",
  "forbid forbade forbidden",
  "forget forgot forgotten",
  "forgive forgave forgiven",
  "freeze froze frozen",
  "grow grew grown",
  "hang hung",
  "hear heard",
  "hide hid hidden",
  "hold held",
  "keep kept",
  "kneel knelt",
  "lead led",
  "lend lent",
  "light lit",
  "lose lost",
  "make made",
  "meet met",
  "overtake overtook overtaken",
  "pay paid",
  "prove proven",
  "ride rode ridden",
  "rise risen",
  "run ran",
  "seek sought",
  "sell sold",
  "send sent",
  "shake shook shaken",
  "shine shone",
  "show shown",
  "shrink shrank shrunk",
  "sing sang sung",
  "sink sank sunk",
  "sleep slept",
  "slide slid",
  "speak spoken",
  "speed sped",
  "spend spent",
  "spin spun",
  "stand stood",
  "steal stole stolen",
  "stick stuck",
  "sting stung",
  "stink stank stunk",
  "strike struck",
  "swear swore sworn",
  "sweep swept",
  "swim swam swum",
  "swing swung",
  "take took taken",
  "teach taught",
  "think thought",
  "throw threw thrown",
  "undergo underwent undergone",
  "understand understood",
  "wake woke woken",
  "wear wore worn",
  "weep wept",
  "win won",
  "withdraw withdrew withdrawn",
  "write wrote written",
];

/** Each listed form -> its verb's base form and all its forms (base first), built once. */
const FORMS = new Map<string, readonly string[]>();
for (const entry of VERBS) {
  const forms = entry.split(" ");
  for (const f of forms) FORMS.set(f, forms);
}

/** The verb's base form of an irregular form ("brought" -> "bring"), else undefined. */
export function irregularBase(word: string): string | undefined {
  const w = word.toLowerCase();
  const base = FORMS.get(w)?.[0];
  return base === w ? undefined : base;
}

/**
 * The other forms of the irregular verb a word is (a listed form, or its third person:
 * "brings", "teaches"), without those Porter already joins to the word ("ran" -> ["run"],
 * "pay" -> ["paid"]). Empty for any other word; also for "-ing" forms, more often nouns
 * ("a meeting", "the building") than the verb. Nor a form Porter stems into a stop word: "ate"
 * is stemmed "at", and asking for it finds every line with "at" ("eat" asks for "eaten" only).
 */
export function verbForms(word: string): string[] {
  const w = word.toLowerCase();
  const stem = porterStem(w);
  const forms = FORMS.get(w) ?? FORMS.get(w.replace(/e?s$/u, "")) ?? FORMS.get(w.replace(/s$/u, ""));
  if (!forms) return [];
  const seen = new Set([stem]);
  const out: string[] = [];
  for (const f of forms) {
    const s = porterStem(f);
    if (seen.has(s) || (s !== f && STOP_WORDS.has(s))) continue;
    seen.add(s);
    out.push(f);
  }
  return out;
}
