/**
 * The person MEMORY.md says a kin or role word names (pure): "Mum (Rita)", "Rita (mum)", "my
 * sister Cass", "Kemal is the chef", "our accountant, Huw Pugh", "Cass, my sister, ...",
 * "Accountant: Huw Pugh", "Tasha: head barista". A belief the logs give "mum" or "the chef"
 * (holder.ts) is then that person's, on their page.
 *
 * Only a tie written as one: the word and the name side by side, in one of the shapes above.
 * "Mum and Rita went to the market" or "the chef at Rita's place" tie no one. A word tied to two
 * names ("my sister Cass", "my sister Jo") is no one's. Recall reads roles more loosely
 * (recall/roles.ts: any word of a person's MEMORY.md clause, to answer a question); a holder is
 * who a belief belongs to, so it takes the strict reading.
 */
import { STOP_WORDS } from "../analysis/stopwords.js";
import { entityKey } from "../retain/entities.js";
import { reportedName } from "./holder.js";
import { INITIALS_ROLES, KIN, KIN_NAMES, PERSON_ROLES } from "./person-words.js";
import { COMMON } from "./prose-words.js";

/** A word in either case of its first letter: "[Mm]um" (a name is told by its capital, so no `i` flag). */
const eitherCase = (w: string) => `[${w[0]!.toLowerCase()}${w[0]!.toUpperCase()}]${w.slice(1)}`;

const ROLE = `(${[...new Set([...PERSON_ROLES, ...KIN_NAMES])]
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  .map((w) => (INITIALS_ROLES.includes(w) ? `${eitherCase(w)}|${w.toUpperCase()}` : eitherCase(w)))
  .join("|")})`;
/** "my", "our new", "the head": who the role is to, and words describing it. */
const DET = `(?:${["my", "our", "the"].map(eitherCase).join("|")})\\s+(?:[\\p{Ll}-]+\\s+){0,2}?`;
/** A first name, and a surname after it that the tie does not need ("Huw Pugh" is Huw's page). */
const NAME = "(\\p{Lu}[\\p{Ll}\\p{M}'’]+)(?:\\s+\\p{Lu}[\\p{L}\\p{M}'’-]+)?";
/** After a role: the clause ends, or goes on about the person ("Kemal is the chef, here since day one"), not "the chef at ...". */
const ENDS = "(?![\\p{L}\\p{N}'’-])(?=\\s*(?:[,.;:()!?—–]|$)|\\s+(?:and|since|who|here|now|too)\\b)";
const B = "(?<![\\p{L}\\p{N}'’-])";
const START = "(?:^|(?<=[.;]\\s+))";
/** Kin words written capitalised before a first name, like a title: "Husband Tomasz", "Sister Jo". */
const KIN_TITLE = `(${[...KIN]
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  .map((w) => w[0]!.toUpperCase() + w.slice(1))
  .join("|")})`;

/** Each shape, with the group of its role and of its name. */
const SHAPES: { re: RegExp; role: number; name: number }[] = [
  // "Mum (Rita)", "my sister (Cass)"
  { re: new RegExp(`${B}(?:${DET})?${ROLE}\\s*\\(\\s*${NAME}\\s*\\)`, "gu"), role: 1, name: 2 },
  // "Rita (mum)", "Huw Pugh (our accountant)"
  { re: new RegExp(`${B}${NAME}\\s*\\(\\s*(?:${DET})?${ROLE}\\s*\\)`, "gu"), role: 2, name: 1 },
  // "my sister Cass", "our accountant, Huw Pugh"
  { re: new RegExp(`${B}${DET}${ROLE},?\\s+${NAME}`, "gu"), role: 1, name: 2 },
  // "Kemal is the chef", "Huw Pugh is our accountant"
  { re: new RegExp(`${B}${NAME}\\s+(?:is|was)\\s+${DET}${ROLE}${ENDS}`, "gu"), role: 2, name: 1 },
  // "Cass, my sister, does the books"
  { re: new RegExp(`${B}${NAME},\\s+${DET}${ROLE}${ENDS}`, "gu"), role: 2, name: 1 },
  // "Accountant: Huw Pugh", "Partner: Jonas. Sister: Ifeoma" (a label, at a line's or sentence's start)
  { re: new RegExp(`${START}(?:${DET})?${ROLE}\\s*:\\s*${NAME}`, "gu"), role: 1, name: 2 },
  // "Husband Tomasz (works from home)", "Sister Josephine lives in York": kin as a title, at a line's start
  { re: new RegExp(`^${KIN_TITLE}\\s+${NAME}`, "gu"), role: 1, name: 2 },
  // "Tasha: head barista, four days a week"
  { re: new RegExp(`^${NAME}\\s*:\\s*(?:[\\p{Ll}-]+\\s+){0,2}?${ROLE}${ENDS}`, "gu"), role: 2, name: 1 },
];

/** Every shape's role word (ROLE, or KIN_TITLE's, which KIN_NAMES and PERSON_ROLES hold), lower case. */
const ROLE_WORDS = [...new Set([...PERSON_ROLES, ...KIN_NAMES])];
/** A letter with case: what a role word never touches in a tie (the shapes want no letter on either side). */
const cased = (ch: string | undefined) => ch !== undefined && ch.toLowerCase() !== ch.toUpperCase();

/**
 * Whether a shape could match `text`: every match holds a role word with no cased letter right
 * before or after it. V8 compiles the eight shapes (Unicode classes, a 150-word alternation) on
 * their first use, ~20-40 ms once a process; a MEMORY.md with no role word in it never needs
 * them (same ties: test/role-ties-gate.test.ts). `gated` false in tests only.
 */
export function mayTie(text: string): boolean {
  const low = text.toLowerCase();
  for (const w of ROLE_WORDS)
    for (let at = low.indexOf(w); at >= 0; at = low.indexOf(w, at + 1))
      if (!cased(low[at - 1]) && !cased(low[at + w.length])) return true;
  return false;
}

/** The ties one line writes: [role word, lower case; name as written]. */
export function lineRoleTies(line: string, gated = true): [string, string][] {
  const text = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/u, "").replace(/\*\*|__/g, "");
  const out: [string, string][] = [];
  if (gated && !mayTie(text)) return out;
  for (const { re, role, name } of SHAPES) {
    for (const m of text.matchAll(re)) {
      const r = m[role]!.toLowerCase();
      const n = m[name]!;
      // "Landlord: Mr Osei" (a title, not a first name), "my physio, Tuesdays" (a day): no one's name.
      const low = n.toLowerCase();
      if (STOP_WORDS.has(low) || PERSON_ROLES.includes(low) || COMMON.has(low) || COMMON.has(low.replace(/s$/u, "")))
        continue;
      out.push([r, n]);
    }
  }
  return out;
}

/** "Sam Whitlock": a first name and a surname, as MEMORY.md writes a person in full. */
const FULL_NAME = /(?<![\p{L}\p{N}'’-])(\p{Lu}[\p{Ll}\p{M}'’]+)\s+(\p{Lu}[\p{Ll}\p{M}'’-]+)/gu;

/** First names MEMORY.md gives two surnames ("Sam Whitlock", "Sam Okoro"): a tie to one says not which. */
function sharedFirstNames(coreText: string): Set<string> {
  const surnames = new Map<string, Set<string>>();
  for (const m of coreText.matchAll(FULL_NAME)) {
    const [first, last] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
    if (COMMON.has(first) || COMMON.has(last) || STOP_WORDS.has(last)) continue;
    const set = surnames.get(first) ?? new Set<string>();
    set.add(last);
    surnames.set(first, set);
  }
  return new Set([...surnames].filter(([, set]) => set.size > 1).map(([first]) => first));
}

/**
 * Kin or role word (lower case) -> the one name MEMORY.md ties it to. Words tied to two names,
 * or to a first name two people share, are left out. Same text, same map (lines in order; a
 * name's first spelling wins).
 */
export function roleTies(coreText: string): Map<string, string> {
  const names = new Map<string, Map<string, string>>();
  for (const line of coreText.split(/\r?\n/u))
    for (const [role, name] of lineRoleTies(line)) {
      const set = names.get(role) ?? new Map<string, string>();
      if (!set.has(name.toLowerCase())) set.set(name.toLowerCase(), name);
      names.set(role, set);
    }
  const out = new Map<string, string>();
  if (names.size === 0) return out;
  const shared = sharedFirstNames(coreText);
  for (const [role, set] of [...names].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
    if (set.size === 1 && !shared.has([...set.keys()][0]!)) out.set(role, [...set.values()][0]!);
  return out;
}

/**
 * An opinion's entities with the kin or role word its statement reports ("mum reckons ...") put
 * as the person `roles` ties it to: a tie MEMORY.md gained after the opinion was made gives it to
 * the person, as a full run would. (The word is among the entities then, as if tagged: the
 * statement is read without it.)
 */
export function tiedEntities(
  entities: readonly string[],
  statement: string,
  roles: ReadonlyMap<string, string>,
): string[] {
  for (const word of entities) {
    const name = roles.get(word.toLowerCase());
    if (name === undefined || entityKey(name) === entityKey(word)) continue;
    const others = entities.filter((e) => e !== word);
    if (reportedName(others, statement, roles) !== name) continue;
    return [...others.filter((e) => entityKey(e) !== entityKey(name)), name];
  }
  return [...entities];
}
