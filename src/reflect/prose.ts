import { openclawBookkeeping } from "../markdown/openclaw-lines.js";
import { findMentions } from "../retain/entities.js";
import { retainHeading } from "../retain/parse.js";
import { KIN_NAMES } from "./person-words.js";
import { fromNames, fullNames, kinNames } from "./prose-kin.js";
import { afterPlaceWord, afterWith, plainSpeakerLine } from "./prose-uses.js";
import { cleanName, isStop } from "./prose-words.js";

/**
 * Names in the prose of daily logs (issue 10 item 6): who and what a log talks about
 * outside its `## Retain` section, so a page can list "Mentioned in" lines and a workspace
 * of raw chat logs still gets entity pages. Pure: text in, names out.
 *
 * Per line, a name is one of
 *  - `k` a chat speaker (`- **Mara** (10:02): ...`, `Mara: ...`, `[10:02] Mara: ...`);
 *  - `a` an @mention;
 *  - `n` a capitalised word inside a sentence ("asked Mara about it");
 *  - `s` a capitalised word starting a sentence, or a lower-case compound (`ledger-sync`): "Today", "Booked" and "Mara" look the
 *    same there, so these count only for a name that is an entity for another reason;
 *  - `p` pairs [start, next] of a sentence-start word followed by a capitalised one (also in
 *    `s` and `n`): "Called Ben" is a verb and a name, "(Rosa Lind)" one name by its first word;
 *  - `r` runs of two or more capitalised words ("Ash Grove", "St. Mary's", "Blue Bottle"): a
 *    place or a shop whose first word never stands alone is named by the whole run;
 *  - `t` words right after a personal title ("Prof. Halvorsen", "Mr Duguid"): a surname, whose
 *    person MEMORY.md may name in full ("Prof. Ingrid Halvorsen"); and a title with an initial
 *    ("Mr K", also in `s`), the one titled surname with that initial (name-ties.ts).
 *  - `f` full names [first, second]: a capitalised word and the next one or a single capital
 *    ("Sam Whitlock", "Sam O", "thanks Jo F"), anywhere in the line: two people who share a
 *    first name are told apart by these (shared-names.ts);
 *  - `b` first names a kin word ties to the writer or someone ("my sister Jo", "Joan's sister
 *    Pat", "Pat (my sister-in-law)"): someone named by first name alone.
 *  - `g` [name, descriptor, via] a first name and where the writer knows that person from ("Jess
 *    from netball", "Pat from the allotment"; "at": "Pat at the allotment", which only confirms
 *    it): two who share a first name and no surname are told apart by these (shared-names.ts).
 *  - `l` names written inside a sentence only after a place word ("at Costa", "to Leeds"), `v`
 *    names the line uses as a person's ("Kev said", "Dale's mum", "with Freya"), `o` the speaker of
 *    a log's only plain `Word:` line, maybe a label (prose-uses.ts).
 */
export interface ProseLine {
  line: number;
  k?: string[];
  a?: string[];
  n?: string[];
  s?: string[];
  p?: [string, string][];
  r?: string[][];
  t?: string[];
  f?: [string, string][];
  b?: string[];
  g?: [name: string, descriptor: string, via: "from" | "at"][];
  l?: string[];
  v?: string[];
  o?: string[];
}

const NAME = String.raw`\p{Lu}[\p{L}\p{M}\p{N}_'’-]*`;
// `- **Mara** (10:02): `, `[10:02] Mara: `, `**Mara:** `, `Mara (via Slack): `
const SPEAKER = new RegExp(
  String.raw`^\s*(?:[-*+]\s+)?(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*[-–—]?\s*)?(?:\*\*|__)?(${NAME})(?:\*\*|__)?\s*(?:\([^)]{0,40}\))?\s*(?:\*\*|__)?:(?:\*\*|__)?(?:\s|$)`,
  "u",
);
const WORD = new RegExp(`${NAME}`, "gu");
// Starts at a word's start only: a match inside a word is skipped below anyway, and trying every letter of every word was quadratic.
const COMPOUND = /(?<![\p{L}\p{N}])\p{Ll}[\p{L}\p{N}]*(?:[-.][\p{L}\p{N}]+)+/gu;
// Characters after which the next word starts a sentence (or a list item, a quote, a label).
// A table cell's first word is a label as often as a heading's ("| Gas | 04417 |", "| Paid |").
const STARTER = /[.!?:;"“”([{>*_–—|-]/u;
/**
 * A number right after a word, as in "Flat 4", "Room 101's", "Unit 3B,": the word labels a
 * numbered thing. Not a count or a time after a name ("saw Mara 3 times", "Tom 10:30").
 */
const NUMBERED =
  /^ \d{1,4}[A-Za-z]?(?![\d:.,]\d)(?=$|['’]s\b|[\s,.;:!?)|])(?!\s+(?:x|times?|days?|nights?|weeks?|wks?|months?|years?|yrs?|hours?|hrs?|mins?|minutes?|secs?|am|pm|o['’]?clock)\b)/u;
/** "a", "an", with a number between ("a 2009 Baxi"), right before a word. */
const ARTICLE = /(?:^|[^\p{L}\p{N}'’])an?\s+(?:\d{1,4}\s+)?$/iu;
/** Verbs of speech right after a word: its speaker ("Gloria says", "Kwame texted"). */
const REPORTS =
  /^ (?:says|said|told|tells|asked|asks|texted|emailed|e-mailed|messaged|replied|mentioned|thinks|reckons|rang|rings|phoned|phones|called|calls|wrote|writes)\b/u;
/** A personal title right before a word ("Dr Okafor", "Prof. Halvorsen", "Mrs Abernethy"). */
const TITLE = /(?:^|[^\p{L}\p{N}])(?:dr|prof|mr|mrs|ms|mx|miss)\.?\s+$/iu;
/** A title and a surname's initial ("Mr K said", "Dr N's receptionist"), not a first initial ("Mr J Smith"). */
const TITLE_INITIAL =
  /(?<![\p{L}\p{N}])(Dr|Prof|Mrs|Mr|Ms|Mx|Miss)\.?\s+(\p{Lu})(?:['’]s)?(?![\p{L}\p{N}'’-]|\.?\s+\p{Lu})/gu;
/** Abbreviations whose `.` ends no sentence: "Dr. Okonjo", "St. Mary's", "Mt. Hood". */
const ABBREV = new Set("dr mr mrs ms mx st mt ft prof rev sr jr fr vs approx no".split(" "));
/** A word ending in `.` at `end` (exclusive of the dot) that is an abbreviation. */
const abbrevBefore = (text: string, dot: number) => {
  let i = dot;
  while (i > 0 && /[\p{L}]/u.test(text[i - 1]!)) i--;
  return i < dot && (i === 0 || !/[\p{L}\p{N}.]/u.test(text[i - 1]!)) && ABBREV.has(text.slice(i, dot).toLowerCase());
};

/** Does a word at `at` start a sentence: nothing but spaces before it, or a STARTER character before the spaces? */
function startsSentence(text: string, at: number): boolean {
  // Read backwards from the word (a regex anchored at the end would rescan the line for every word).
  let i = at - 1;
  while (i >= 0 && /\s/u.test(text[i]!)) i--;
  if (i >= 0 && text[i] === "." && abbrevBefore(text, i)) return false;
  return i < 0 || STARTER.test(text[i]!);
}

/** Candidate names of one prose line; undefined when it has none. */
export function scanLine(text: string, line: number): ProseLine | undefined {
  const out: ProseLine = { line };
  let rest = text;
  const sp = SPEAKER.exec(text);
  // "Attendance: 31", "Market: 40 jars gone", "Deposit: £800": a plain `Word:` before a number
  // or an amount labels a count, as weakly a name as a sentence's first word.
  let label: string | undefined;
  if (sp) {
    const name = cleanName(sp[1]!);
    if (!isStop(name) && !/\d/u.test(name)) {
      if (/^[\s\p{L}'’-]*:\s*[£$€]?\d/u.test(sp[0] + text.slice(sp[0].length, sp[0].length + 3))) label = name;
      // "Progress:", "To do:" with nothing after: a heading of the lines below, said by no one.
      else if (HEADING_LABEL.test(text)) label = name;
      else out.k = [name];
    }
    rest = " ".repeat(sp[0].length) + text.slice(sp[0].length);
  }
  const tagged = findMentions(rest);
  if (tagged.length) out.a = tagged;
  // Code, links' targets and URLs hold no names.
  const prose = rest
    .replace(/`[^`]*`/g, (m) => " ".repeat(m.length))
    .replace(/\]\([^)]*\)/g, (m) => `]${" ".repeat(m.length - 1)}`)
    .replace(/\bhttps?:\/\/\S+/g, (m) => " ".repeat(m.length))
    .replace(/@[\p{L}\p{N}_][^\s]*/gu, (m) => " ".repeat(m.length));
  const mid: string[] = [];
  const start: string[] = [];
  // End of the last name taken: "Priya Raman", "Hollow Oak" are one name, its first word the
  // one that gets counted (a surname or a second word is no one of its own).
  let lastNameEnd = -1;
  // The last word put in a list and where it ends: "Grocery list: Milk, Eggs, Bread" is a
  // list started after a colon, and its later items are as little a name as its first.
  let lastList: string[] | undefined;
  let lastEnd = -1;
  const pairs: [string, string][] = [];
  // A sentence-start word and where it ends, when the next word may be the rest of its name.
  let opener: { name: string; end: number } | undefined;
  const runs: string[][] = [];
  const titled: string[] = [];
  let run: string[] | undefined;
  // The end of a word, past the dot of an abbreviation ("St. Mary's" goes on after "St.").
  const endOf = (at: number, word: string) =>
    prose[at + word.length] === "." && abbrevBefore(prose, at + word.length) ? at + word.length + 1 : at + word.length;
  const tally = tallyItems(prose);
  const placed = new Set<string>();
  const elsewhere = new Set<string>();
  const voiced = new Set<string>();
  for (const m of prose.matchAll(WORD)) {
    const prev = m.index > 0 ? prose[m.index - 1] : undefined;
    if (prev !== undefined && /[\p{L}\p{N}_@/\\.]/u.test(prev) && !/\s/u.test(prev)) continue; // inside a token
    const name = cleanName(m[0]);
    const continues = lastNameEnd >= 0 && m.index === lastNameEnd + 1 && prose[lastNameEnd] === " ";
    if (continues) {
      run?.push(name);
      lastNameEnd = endOf(m.index, m[0]);
      continue;
    }
    lastNameEnd = -1;
    run = undefined;
    // A tally ("Scorers (Maya 2, Nadia 1)", "Votes: Grace 2, Tom 1"): its words are counted, as
    // weakly as a sentence's first word: they name someone only when the name is someone already.
    if (tally.has(m.index)) {
      opener = undefined;
      lastNameEnd = -1;
      if (!isStop(name) && name !== name.toUpperCase() && !start.includes(name)) start.push(name);
      continue;
    }
    // A word after a small number labels it ("on 4 West", "Bed 12 A"): a ward or a room, no one;
    // so does one before a number ("in Flat 4", "Room 101's key"), and one after "a"/"an" is a
    // kind or a make ("it's a 2009 Baxi", "an Aga"): people are not counted with an article.
    if (
      /(?:^|[^\p{L}\p{N}.,:])\d{1,3} $/u.test(prose.slice(Math.max(0, m.index - 5), m.index)) ||
      NUMBERED.test(prose.slice(m.index + m[0].length, m.index + m[0].length + 24)) ||
      ARTICLE.test(prose.slice(Math.max(0, m.index - 12), m.index))
    ) {
      opener = undefined;
      // Its next capitalised words are the same label or make ("a Land Rover").
      lastNameEnd = endOf(m.index, m[0]);
      continue;
    }
    const after = opener && m.index === opener.end + 1 && prose[opener.end] === " " ? opener.name : undefined;
    opener = undefined;
    if (name.length < 2 || /\d/u.test(name) || isStop(name)) continue;
    // ALL-CAPS words are acronyms (API, HTTP), not names.
    if (name === name.toUpperCase()) continue;
    // A capital inside a word after three small letters is a product's or a brand's ("PowerPoint",
    // "WhatsApp", "SharePoint"), not a person's: "McKay", "MacLeod", "DeShawn" have one or two.
    if (/\p{Ll}{3}\p{Lu}/u.test(name)) continue;
    if (TITLE.test(prose.slice(Math.max(0, m.index - 6), m.index)) && !titled.includes(name)) titled.push(name);
    const listItem = lastList !== undefined && /^\s*(?:,|,?\s+(?:and|or|&))\s*$/u.test(prose.slice(lastEnd, m.index));
    // "Gloria says", "Bev told me": a sentence opener that someone speaks through is a name;
    // so is one that owns something ("Rosemary's group", "Smudge's blood test"): a verb never takes `'s`.
    const speaks =
      REPORTS.test(prose.slice(m.index + m[0].length, m.index + m[0].length + 12)) ||
      (name !== m[0] && /['’]s$/u.test(m[0]));
    const list = listItem ? lastList! : startsSentence(prose, m.index) && !speaks ? start : mid;
    if (!list.includes(name)) list.push(name);
    if (list === mid) {
      if (afterPlaceWord(prose, m.index)) placed.add(name);
      else {
        elsewhere.add(name);
        if (speaks || afterWith(prose, m.index)) voiced.add(name);
      }
    }
    lastList = list;
    lastEnd = m.index + m[0].length;
    // Only a name inside a sentence starts a run ("Called Ben" is a verb and a name); a
    // possessive ends it ("Mara's Team" is Mara and a team).
    if (list === mid && name === m[0]) {
      lastNameEnd = endOf(m.index, m[0]);
      run = after !== undefined ? [after, name] : [name];
      runs.push(run);
    }
    if (list === mid && after !== undefined) pairs.push([after, name]);
    if (list === start && name === m[0]) opener = { name, end: m.index + m[0].length };
  }
  // Lower-case compound names (ledger-sync, node.js) count only for known entities: kept as weak.
  for (const m of prose.matchAll(COMPOUND)) {
    const prev = m.index > 0 ? prose[m.index - 1] : undefined;
    if (prev !== undefined && !/[\s(["“'‘]/u.test(prev)) continue;
    const name = m[0].replace(/[.]+$/u, "");
    if (!start.includes(name)) start.push(name);
  }
  // The writer's own mum or dad written in lower case as a name ("mum came along", "took mother
  // to the clinic", "my mum had seconds"): as weak as a sentence's first word, so it counts for a
  // page it is tied to ("Mum (Rita)" in MEMORY.md) or one the capitalised word has, never alone.
  for (const name of writersKin(prose)) if (!start.includes(name) && !mid.includes(name)) start.push(name);
  if (label !== undefined && !start.includes(label) && !mid.includes(label)) start.unshift(label);
  // "Mr K", "Dr N": a surname by its initial, as weak as a sentence's first word, so it counts for the
  // one titled surname with that initial the logs name (entity-context.ts), never a page of its own.
  for (const m of prose.matchAll(TITLE_INITIAL)) {
    const name = `${m[1]} ${m[2]}`;
    if (!start.includes(name)) start.push(name);
    if (!titled.includes(name)) titled.push(name);
  }
  if (mid.length) out.n = mid;
  const placeOnly = [...placed].filter((n) => !elsewhere.has(n));
  if (placeOnly.length) out.l = placeOnly;
  if (voiced.size) out.v = [...voiced];
  if (start.length) out.s = start;
  if (pairs.length) out.p = pairs;
  const long = runs.filter((r) => r.length > 1);
  if (long.length) out.r = long;
  if (titled.length) out.t = titled;
  const full = fullNames(prose);
  if (full.length) out.f = full;
  const kin = kinNames(prose);
  if (kin.length) out.b = kin;
  const from = fromNames(prose);
  if (from.length) out.g = from;
  return out.k || out.a || out.n || out.s ? out : undefined;
}

const KIN_NAME = new RegExp(
  String.raw`(?<![\p{L}\p{N}_'’-])(${KIN_NAMES.join("|")})(?=['’]s(?![\p{L}])|(?![\p{L}\p{N}_'’-]))`,
  "gu",
);
/** Someone else's ("Femi's mum", "her dad", "the mother", "a new mum"): not the writer's. */
const OTHERS_KIN =
  /(?:^|[^\p{L}'’])(?:his|her|their|your|its|the|a|an|this|that|whose|every|any|some|no|one|new|step|\p{L}+(?:['’]s|s['’]))\s+$/iu;

/** Lower-case kin names ("mum", "my mother") for the writer's own, capitalised ("Mum", "Mother"). */
function writersKin(prose: string): string[] {
  const out: string[] = [];
  for (const m of prose.matchAll(KIN_NAME)) {
    if (OTHERS_KIN.test(prose.slice(Math.max(0, m.index - 30), m.index))) continue;
    const name = m[1]![0]!.toUpperCase() + m[1]!.slice(1);
    if (!isStop(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/** Lists of two or more "Word N" items, N a small count: "(Maya 2, Nadia 1)", "Lou 3, Nadia 2 and Kat 0". */
const TALLY =
  /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+ \d{1,2}(?![\p{N}])(?:\s*(?:,|and|&)\s*\p{Lu}\p{Ll}+ \d{1,2}(?![\p{L}\p{N}:.]))+/gu;
const TALLY_ITEM = /(\p{Lu}\p{Ll}+) \d{1,2}/gu;

/**
 * Where a tally's words start. Its words must differ ("Flat 4, Flat 5" labels flats): a tally
 * counts for people, a list of one word's numbers labels things.
 */
function tallyItems(prose: string): Set<number> {
  const out = new Set<number>();
  for (const m of prose.matchAll(TALLY)) {
    const items = [...m[0].matchAll(TALLY_ITEM)];
    if (new Set(items.map((i) => i[1]!.toLowerCase())).size !== items.length) continue;
    for (const i of items) out.add(m.index + i.index);
  }
  return out;
}

/** A plain `Word:` and nothing after it: no `**`, no time, as a chat speaker is written. */
const HEADING_LABEL = /^\s*(?:[-*+]\s+)?\p{Lu}[\p{L}\p{M}\p{N}_'’-]*\s*:\s*$/u;
/** A list item opening with a plain `Word:` ("- Maths: past paper 2"). */
const ITEM_LABEL = /^\s*[-*+]\s+(\p{Lu}[\p{L}\p{M}\p{N}_'’-]*)\s*:/u;

/** The line's speaker read as a label: as weak as a sentence's first word. */
function asLabel(l: ProseLine): void {
  const name = l.k?.[0];
  if (name === undefined) return;
  delete l.k;
  if (!(l.n ?? []).includes(name)) l.s = [name, ...(l.s ?? []).filter((n) => n !== name)];
}

/** Candidate names of a log's prose: every line outside Retain sections, headings and code blocks. */
export function scanProse(text: string): ProseLine[] {
  const out: ProseLine[] = [];
  const texts: string[] = [];
  let inRetain = false;
  let fence: string | undefined;
  let underLabel = false;
  const lines = text.split(/\r?\n/);
  const bookkeeping = openclawBookkeeping(text, lines);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (bookkeeping?.has(i)) continue;
    const f = /^\s*(```|~~~)/.exec(l);
    if (f) {
      if (fence === undefined) fence = f[1];
      else if (fence === f[1]) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(l);
    if (h) {
      underLabel = false;
      if (retainHeading(h[2]!)) inRetain = true;
      else if (h[1]!.length <= 2) inRetain = false;
      continue;
    }
    if (inRetain || l.trim() === "") {
      underLabel = false;
      continue;
    }
    const scanned = scanLine(l, i + 1);
    // "Revision:" then "- Maths: past paper 2", "- English: quotes": the items of a heading label are labels too.
    const item = ITEM_LABEL.exec(l);
    if (scanned && underLabel && item && scanned.k?.[0] === cleanName(item[1]!)) asLabel(scanned);
    underLabel = HEADING_LABEL.test(l) || (underLabel && /^\s*[-*+]\s/u.test(l));
    if (scanned) {
      out.push(scanned);
      texts.push(l);
    }
  }
  // "Netball: lost 14-9", "Update: boiler fixed": a plain `Word:` line alone in its log is maybe a label.
  const speakers = out.flatMap((l, i) => (l.k ? [i] : []));
  const lone = speakers.length === 1 ? speakers[0]! : -1;
  if (lone >= 0 && plainSpeakerLine(texts[lone]!)) out[lone]!.o = [...out[lone]!.k!];
  return out;
}

/** "Saturday job at Costa": a place word's name is no one's; a place of two words ("at Hollow Oak") is kept, as in the logs (prose-names.ts). */
const placeOnly = (l: ProseLine): string[] => (l.l ?? []).filter((n) => !(l.r ?? []).some((r) => r[0] === n));

/**
 * The names of MEMORY.md's lines that count as core names: all but a word after a sentence
 * opener ("Charge nurse: Denise Park"): Park is Denise's surname until a log has it alone.
 */
export function coreNames(lines: readonly ProseLine[]): string[] {
  return lines.flatMap((l) => {
    const seconds = new Set([...(l.p ?? []).map(([, second]) => second), ...placeOnly(l)]);
    return [...(l.k ?? []), ...(l.a ?? []), ...(l.n ?? []).filter((n) => !seconds.has(n)), ...(l.s ?? [])];
  });
}

/**
 * The core names MEMORY.md uses as names inside a sentence ("married to Graham", "his wife
 * Kerry"): someone the agent is told about, so a log that only ever opens sentences with
 * the name ("Kerry is back at work") still names that person.
 */
export function coreNamesInSentences(lines: readonly ProseLine[]): string[] {
  return lines.flatMap((l) => {
    const seconds = new Set([...(l.p ?? []).map(([, second]) => second), ...placeOnly(l)]);
    return [...(l.k ?? []), ...(l.a ?? []), ...(l.n ?? []).filter((n) => !seconds.has(n))];
  });
}

/** A log's scanned prose. */
export interface ProseLog {
  path: string;
  date: string;
  lines: ProseLine[];
  /** The log's lower-case words (prose-uses.ts lowerWords): a label's word written as an ordinary one. */
  w?: string[];
}
