import { NOUN_STOP_WORDS, STOP_WORDS } from "../analysis/stopwords.js";
import { describeWord } from "./entity-profile.js";
import { mayNameTime } from "./timewindow.js";

/**
 * The person a question names by role ("what is the accountant charging me?", "what did my
 * second supervisor say?"): MEMORY.md says who it is ("Accountant: Huw Pugh", "second
 * supervisor: Dr Kwabena Antwi"), the logs mostly say the name. Pure: the question and the
 * entities' profile words (entity-profile.ts) in, the slugs the question's roles mean out.
 *
 * A role is the one to three lower-case words after "the", "my", "our", "his", "her", "their"; the longest
 * run of them that one entity's profile words hold and no other's as well: "my second
 * supervisor" is the second supervisor even when "my supervisor" is someone else, and a word
 * several entities share ("the flat") names none.
 */
// The words in a lookahead: "the name of my daughter's vet" has a role after "my" too.
const DETERMINER = /\b(?:the|my|our|his|her|their)\s+(?=([\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2}))/giu;

/** "did the plumber quote", "will my tutor mark": the words after the subject of such a question are its verb. */
const AUX_BEFORE = /\b(?:do|does|did|didn['’]t|will|would|can|could|should|shall|might|must|may|has|have|had)\s+$/iu;

/**
 * May the first `n` words of the words after a determiner be the role when more follow?
 * Yes when the next word is no noun of the same phrase: a verb (the question inverts
 * "did the plumber quote", the verb last; "is the accountant charging"), an adverb, a time
 * ("the plumber last week"), or the role is a possessive ("my dentist's receptionist"). Otherwise the role's words
 * only describe the noun after them ("the honey show", "the bee inspector"): no one's role.
 */
/** Nouns for a meeting with, or a charge from, the person before them: "my dentist appointment". */
const ROLE_EVENT_NOUNS = new Set(
  "appointment appointments appt appts meeting meetings visit visits call calls session sessions lesson lessons checkup check-up consultation bill bills invoice invoices fee fees".split(
    " ",
  ),
);

function roleMayEndAt(raw: readonly string[], n: number, before: string): boolean {
  if (n >= raw.length || /['’]s$/u.test(raw[n - 1]!)) return true;
  // After "did the": the subject's last word is right before the verb, the run's last word.
  if (AUX_BEFORE.test(before) && n === raw.length - 1) return true;
  const next = raw[n]!;
  // "my dentist appointment", "the accountant's fee": the noun after is an event with that
  // person or a charge from them, not a kind of dentist.
  if (n === raw.length - 1 && ROLE_EVENT_NOUNS.has(next)) return true;
  return /(?:ing|ed|ly)$/u.test(next) || mayNameTime(raw.slice(n).join(" "));
}

export function roleEntities(query: string, profiles: ReadonlyMap<string, { words: ReadonlySet<string> }>): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(DETERMINER)) {
    const words: string[] = [];
    const raw: string[] = [];
    for (const w of m[1]!.split(/\s+/u)) {
      // A role is a common noun: a capitalised word is a name or an acronym ("the HMO licence").
      if (STOP_WORDS.has(w) || w !== w.toLowerCase()) {
        // "the honey show": the noun ends the phrase the words before it describe.
        if (NOUN_STOP_WORDS.has(w) && raw.length > 0) raw.push(w);
        break;
      }
      words.push(describeWord(w.replace(/['’]s$/u, "")));
      raw.push(w);
    }
    for (let n = words.length; n > 0; n--) {
      const role = words.slice(0, n);
      if (role.some((w) => w.length < 3)) continue;
      const holders = [...profiles].filter(([, p]) => role.every((w) => p.words.has(w))).map(([slug]) => slug);
      if (holders.length === 1) {
        if (!out.includes(holders[0]!) && roleMayEndAt(raw, n, query.slice(0, m.index))) out.push(holders[0]!);
        break;
      }
      if (holders.length > 1) break; // a role several share: a longer one was tried, a shorter is vaguer still
    }
  }
  return out;
}
