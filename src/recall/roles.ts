import { STOP_WORDS } from "../analysis/stopwords.js";
import { describeWord } from "./entity-profile.js";

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

export function roleEntities(query: string, profiles: ReadonlyMap<string, { words: ReadonlySet<string> }>): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(DETERMINER)) {
    const words: string[] = [];
    for (const w of m[1]!.split(/\s+/u)) {
      // A role is a common noun: a capitalised word is a name or an acronym ("the HMO licence").
      if (STOP_WORDS.has(w) || w !== w.toLowerCase()) break;
      words.push(describeWord(w.replace(/['’]s$/u, "")));
    }
    for (let n = words.length; n > 0; n--) {
      const role = words.slice(0, n);
      if (role.some((w) => w.length < 3)) continue;
      const holders = [...profiles].filter(([, p]) => role.every((w) => p.words.has(w))).map(([slug]) => slug);
      if (holders.length === 1) {
        if (!out.includes(holders[0]!)) out.push(holders[0]!);
        break;
      }
      if (holders.length > 1) break; // a role several share: a longer one was tried, a shorter is vaguer still
    }
  }
  return out;
}
