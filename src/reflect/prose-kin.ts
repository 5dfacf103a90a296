import { KIN, SPOUSE_WORDS } from "./person-words.js";
import { cleanName, isStop } from "./prose-words.js";

/**
 * What a prose line says of who a first name is (prose.ts fields `f`, `b`, `g`): a full name
 * ("Sam Whitlock"), a kin word ("my sister Jo"), where from ("Jess from netball"). Pure.
 */

const FULL =
  /(?<![\p{L}\p{N}_@'’.-])(\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*)(?= (\p{Lu}(?:\p{Ll}[\p{L}\p{M}'’-]*)?)(?![\p{L}\p{N}]))/gu;

/** "Sam Whitlock", "Sam O", "Jo F": a first name and a surname or its initial (neither a common word). */
export function fullNames(prose: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of prose.matchAll(FULL)) {
    const [first, second] = [cleanName(m[1]!), cleanName(m[2]!)];
    if (first.length < 2 || isStop(first) || (second.length > 1 && isStop(second))) continue;
    if (!out.some(([a, b]) => a === first && b === second)) out.push([first, second]);
  }
  return out;
}

// Not a spouse's word: "my wife Ana" beside "Ana Silva" is likelier one person than two.
const KIN_WORDS = KIN.filter((k) => !SPOUSE_WORDS.includes(k))
  .map((k) => k.replace(/-/gu, "[- ]"))
  .join("|");
// Someone else's partner is not the writer's, though: "Idris's girlfriend Jess", "Pat, Dave's wife".
const SPOUSES = SPOUSE_WORDS.join("|");
const OTHERS = String.raw`(?:[Hh]is|[Hh]er|[Tt]heir|\p{Lu}[\p{L}'’-]*['’]s)`;
const KIN_BEFORE = new RegExp(
  String.raw`(?:^|[^\p{L}])(?:(?:[Mm]y|[Oo]ur|${OTHERS})\s+(?:(?:big|little|younger|older|elder|baby|twin|late|eldest|youngest)\s+)?(?:${KIN_WORDS})|${OTHERS}\s+(?:new\s+)?(?:${SPOUSES}))\s+(\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*)`,
  "gu",
);
const KIN_AFTER = new RegExp(
  String.raw`(?<!\p{Lu}[\p{L}'’-]*\s)(?<![\p{L}])(\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*)\s*(?:\(|,\s*)(?:(?:my|our)\s+(?:(?:big|little|younger|older|elder|baby|twin|late)\s+)?(?:${KIN_WORDS})|${OTHERS}\s+(?:${KIN_WORDS}|${SPOUSES}))(?![\p{L}])`,
  "gu",
);

/** First names a kin word names: "my sister Jo", "Joan's sister Pat", "Pat (my sister-in-law)". */
export function kinNames(prose: string): string[] {
  const out: string[] = [];
  for (const re of [KIN_BEFORE, KIN_AFTER])
    for (const m of prose.matchAll(re)) {
      const name = cleanName(m[1]!);
      if (!/^\p{Lu}/u.test(name) || isStop(name) || FULL_AFTER.test(prose.slice(m.index + m[0].length))) continue;
      if (!out.includes(name)) out.push(name);
    }
  return out;
}
/**
 * "Jess from netball", "Pat from the allotment", "Sam from Tesco", "Pat at the allotment": a
 * capitalised word and the one word after "from" or "at" (past "the", "my", "our"), not a common
 * or a time word ("Kwame from tomorrow", "Sam at ten").
 */
const FROM =
  /(?<![\p{L}\p{N}_@'’.-])(\p{Lu}\p{Ll}[\p{L}\p{M}'’-]*) (from|at) (?:the |my |our )?(\p{L}[\p{Ll}-]{2,})(?![\p{L}\p{N}'’-])/gu;

/** [name, descriptor, via] of each "Name from (the) word" and "Name at (the) word" in a line. */
export function fromNames(prose: string): [string, string, "from" | "at"][] {
  const out: [string, string, "from" | "at"][] = [];
  for (const m of prose.matchAll(FROM)) {
    const [name, tag, via] = [cleanName(m[1]!), m[3]!.toLowerCase(), m[2] as "from" | "at"];
    if (isStop(name) || isStop(tag)) continue;
    if (!out.some(([a, b, c]) => a === name && b === tag && c === via)) out.push([name, tag, via]);
  }
  return out;
}
/** A surname right after the name: "my cousin Pat Dunmore" names Pat Dunmore, no bare Pat. */
const FULL_AFTER = /^ \p{Lu}\p{Ll}/u;
