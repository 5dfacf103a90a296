import { STOP_WORDS } from "../analysis/stopwords.js";
import { entityKey, findMentions } from "../retain/entities.js";
import { retainHeading } from "../retain/parse.js";
import { cmp } from "./format.js";
import { COMMON, NOT_SPEAKERS } from "./prose-words.js";

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
 *    place or a shop whose first word never stands alone is named by the whole run.
 */
export interface ProseLine {
  line: number;
  k?: string[];
  a?: string[];
  n?: string[];
  s?: string[];
  p?: [string, string][];
  r?: string[][];
}

const isStop = (word: string) => {
  const w = word.toLowerCase();
  // "No more Tuesdays", "Mondays are for planning": a weekday in the plural is still no one.
  return STOP_WORDS.has(w) || COMMON.has(w) || COMMON.has(w.replace(/s$/u, "")) || NOT_SPEAKERS.has(w);
};

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
const STARTER = /[.!?:;"“”([{>*_–—-]/u;
/** Verbs of speech right after a word: its speaker ("Gloria says", "Kwame texted"). */
const REPORTS =
  /^ (?:says|said|told|tells|asked|asks|texted|emailed|e-mailed|messaged|replied|mentioned|thinks|reckons)\b/u;
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

function cleanName(raw: string): string {
  return raw.replace(/['’]s$/u, "").replace(/[-'’]+$/u, "");
}

/** Candidate names of one prose line; undefined when it has none. */
export function scanLine(text: string, line: number): ProseLine | undefined {
  const out: ProseLine = { line };
  let rest = text;
  const sp = SPEAKER.exec(text);
  if (sp) {
    const name = cleanName(sp[1]!);
    if (!isStop(name) && !/\d/u.test(name)) out.k = [name];
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
  let run: string[] | undefined;
  // The end of a word, past the dot of an abbreviation ("St. Mary's" goes on after "St.").
  const endOf = (at: number, word: string) =>
    prose[at + word.length] === "." && abbrevBefore(prose, at + word.length) ? at + word.length + 1 : at + word.length;
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
    // A word after a small number labels it ("on 4 West", "Bed 12 A"): a ward or a room, no one.
    if (/(?:^|[^\p{L}\p{N}.,:])\d{1,3} $/u.test(prose.slice(Math.max(0, m.index - 5), m.index))) {
      opener = undefined;
      continue;
    }
    const after = opener && m.index === opener.end + 1 && prose[opener.end] === " " ? opener.name : undefined;
    opener = undefined;
    if (name.length < 2 || /\d/u.test(name) || isStop(name)) continue;
    // ALL-CAPS words are acronyms (API, HTTP), not names.
    if (name === name.toUpperCase()) continue;
    const listItem = lastList !== undefined && /^\s*(?:,|,?\s+(?:and|or|&))\s*$/u.test(prose.slice(lastEnd, m.index));
    // "Gloria says", "Bev told me": a sentence opener that someone speaks through is a name.
    const speaks = REPORTS.test(prose.slice(m.index + m[0].length, m.index + m[0].length + 12));
    const list = listItem ? lastList! : startsSentence(prose, m.index) && !speaks ? start : mid;
    if (!list.includes(name)) list.push(name);
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
  if (mid.length) out.n = mid;
  if (start.length) out.s = start;
  if (pairs.length) out.p = pairs;
  const long = runs.filter((r) => r.length > 1);
  if (long.length) out.r = long;
  return out.k || out.a || out.n || out.s ? out : undefined;
}

/** Candidate names of a log's prose: every line outside Retain sections, headings and code blocks. */
export function scanProse(text: string): ProseLine[] {
  const out: ProseLine[] = [];
  let inRetain = false;
  let fence: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const f = /^\s*(```|~~~)/.exec(l);
    if (f) {
      if (fence === undefined) fence = f[1];
      else if (fence === f[1]) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(l);
    if (h) {
      if (retainHeading(h[2]!)) inRetain = true;
      else if (h[1]!.length <= 2) inRetain = false;
      continue;
    }
    if (inRetain || l.trim() === "") continue;
    const scanned = scanLine(l, i + 1);
    if (scanned) out.push(scanned);
  }
  return out;
}

/**
 * The names of MEMORY.md's lines that count as core names: all but a word after a sentence
 * opener ("Charge nurse: Denise Park"): Park is Denise's surname until a log has it alone.
 */
export function coreNames(lines: readonly ProseLine[]): string[] {
  return lines.flatMap((l) => {
    const seconds = new Set((l.p ?? []).map(([, second]) => second));
    return [...(l.k ?? []), ...(l.a ?? []), ...(l.n ?? []).filter((n) => !seconds.has(n)), ...(l.s ?? [])];
  });
}

/** A log's scanned prose. */
export interface ProseLog {
  path: string;
  date: string;
  lines: ProseLine[];
}

/**
 * Logs a name must recur in (as a speaker or inside a sentence) to get a page from the
 * prose alone: a name seen on one day is as often a place, a product or a typo as a person;
 * two days make it someone the agent keeps meeting. An @mention or a fact needs no recurrence.
 */
export const PROSE_MIN_LOGS = 2;

export interface ProseNames {
  /** Entity key -> spelling of every name that gets a page or is already an entity. */
  names: Map<string, string>;
  /**
   * Lines naming an entity key, in (path, line) order. The first call indexes the keys of
   * `focus` (all when absent); later calls use that index.
   */
  linesOf(key: string, focus?: ReadonlySet<string>): { path: string; line: number; date: string }[];
  /** The entity key a name of the prose counts for ("Ash" of "Ash Grove" -> `ash-grove`). */
  keyOf(name: string): string;
}

/**
 * Which prose names are entities, and where each is mentioned. `known` are the entity keys
 * that have facts (their spelling wins); `core` the keys of names MEMORY.md lists (one
 * log is enough for those). Sentence-start words count only for names that qualify
 * otherwise. Pure and order-independent (logs are sorted here).
 */
export function proseNames(
  logs: readonly ProseLog[],
  known: ReadonlyMap<string, string>,
  core: ReadonlySet<string> = new Set(),
  canon: (name: string) => string = (name) => name,
): ProseNames {
  const sorted = [...logs].sort((a, b) => cmp(a.path, b.path));
  // Ten years of logs name the same few hundred spellings again and again: key each once.
  const keys = new Map<string, string>();
  const keyOf = (raw: string) => {
    let key = keys.get(raw);
    if (key === undefined) {
      key = entityKey(canon(raw));
      // "at the Castle" names @The-Castle: prose drops the article a fact's name keeps.
      if (!known.has(key) && known.has(`the-${key}`)) key = `the-${key}`;
      keys.set(raw, key);
    }
    return key;
  };
  const strong = new Map<string, Set<string>>(); // key -> logs with a speaker/mid-sentence use
  const tagged = new Set<string>();
  const spellings = new Map<string, Map<string, number>>();
  const spell = (raw: string) => {
    const key = keyOf(raw);
    if (known.has(key)) {
      // A known entity keeps its spelling: nothing to count, only that it was seen.
      if (!spellings.has(key)) spellings.set(key, new Map());
      return key;
    }
    const name = canon(raw);
    const m = spellings.get(key) ?? new Map<string, number>();
    m.set(name, (m.get(name) ?? 0) + 1);
    spellings.set(key, m);
    return key;
  };
  const credit = (key: string, log: string) => {
    const set = strong.get(key) ?? new Set<string>();
    set.add(log);
    strong.set(key, set);
  };
  // Second words of a sentence-start pair wait until every log is read (see below).
  const paired: { log: string; first: string; second: string }[] = [];
  // Logs naming a key anywhere, sentence starts included.
  const anywhere = new Map<string, Set<string>>();
  // Runs of words by the key of their first word, and the keys seen outside a run's head.
  const runsOf = new Map<string, Map<string, number>>();
  const alone = new Set<string>();
  // (~50k lines on ten years: no arrays or sets for a line without pairs or runs.)
  for (const log of sorted) {
    for (const l of log.lines) {
      const seconds = l.p && new Set(l.p.map(([, second]) => second));
      const heads = l.r && new Set(l.r.map((r) => r[0]!));
      if (l.p) for (const [first, second] of l.p) paired.push({ log: log.path, first, second });
      if (l.r)
        for (const r of l.r) {
          const head = keyOf(r[0]!);
          let byRun = runsOf.get(head);
          if (byRun === undefined) {
            byRun = new Map<string, number>();
            runsOf.set(head, byRun);
          }
          const joined = r.join("-");
          byRun.set(joined, (byRun.get(joined) ?? 0) + 1);
        }
      if (l.k)
        for (const name of l.k) {
          const key = spell(name);
          if (!seconds?.has(name)) credit(key, log.path);
        }
      if (l.n)
        for (const name of l.n) {
          const key = spell(name);
          if (!seconds?.has(name)) credit(key, log.path);
        }
      if (l.a) for (const name of l.a) tagged.add(spell(name));
      if (l.s) for (const name of l.s) spell(name);
      const seen = (name: string) => {
        const key = keyOf(name);
        let set = anywhere.get(key);
        if (set === undefined) {
          set = new Set<string>();
          anywhere.set(key, set);
        }
        set.add(log.path);
        if (!heads?.has(name) && !seconds?.has(name)) alone.add(key);
      };
      if (l.k) for (const name of l.k) seen(name);
      if (l.a) for (const name of l.a) seen(name);
      if (l.n) for (const name of l.n) seen(name);
      if (l.s) for (const name of l.s) seen(name);
    }
  }
  // "Called Ben": Ben is named on his own elsewhere, so the line names him. "(Rosa Lind)",
  // "today: Rosa Lind": Lind never stands alone, so it is Rosa's surname and the line names Rosa.
  // A name MEMORY.md lists or facts carry is someone even when only ever seen after a verb.
  const named = new Set([...strong.keys(), ...tagged, ...known.keys(), ...core]);
  for (const { log, first, second } of paired) {
    const key = keyOf(second);
    credit(named.has(key) ? key : keyOf(first), log);
  }
  // "Ash Grove", "Blue Bottle": a first word never seen on its own is no name alone, the run is.
  const renamed = new Map<string, string>();
  for (const [head, byRun] of runsOf) {
    if (alone.has(head) || known.has(head) || tagged.has(head)) continue;
    let best = "";
    let count = -1;
    for (const [run, n] of byRun) if (n > count || (n === count && cmp(run, best) < 0)) [best, count] = [run, n];
    renamed.set(head, best);
  }
  const names = new Map<string, string>();
  for (const [key, bySpelling] of spellings) {
    const logsOf = strong.get(key)?.size ?? 0;
    // A name used as one inside a sentence and written in three logs: "Kwame says", "Kwame was so happy".
    const often = logsOf >= 1 && (anywhere.get(key)?.size ?? 0) >= 3;
    const ok = known.has(key) || tagged.has(key) || (core.has(key) && logsOf >= 1) || logsOf >= PROSE_MIN_LOGS || often;
    if (!ok) continue;
    const run = renamed.get(key);
    if (run !== undefined) {
      names.set(entityKey(run), run);
      continue;
    }
    let best = "";
    let count = -1;
    for (const [name, n] of bySpelling)
      if (n > count || (n === count && cmp(name, best) < 0)) [best, count] = [name, n];
    names.set(key, known.get(key) ?? best);
  }
  const keyOfName = (raw: string) => {
    const key = keyOf(raw);
    const run = renamed.get(key);
    return run === undefined ? key : entityKey(run);
  };
  // Lines are collected on first use, for the keys asked for (a nightly run renders a few pages).
  let lines: Map<string, { path: string; line: number; date: string }[]> | undefined;
  const linesOf = (key: string, focus?: ReadonlySet<string>) => {
    if (!lines) {
      const index = new Map<string, { path: string; line: number; date: string }[]>();
      lines = index;
      // Ten years are ~50k prose lines: no arrays or objects per line, only per mention found.
      const add = (raw: string, log: ProseLog, line: number) => {
        const k = keyOfName(raw);
        if (!names.has(k) || (focus && !focus.has(k))) return;
        let found = index.get(k);
        if (found === undefined) {
          found = [];
          index.set(k, found);
        }
        // A line naming one entity twice (speaker and @mention) is one mention.
        const last = found[found.length - 1];
        if (last === undefined || last.line !== line || last.path !== log.path)
          found.push({ path: log.path, line, date: log.date });
      };
      for (const log of sorted) {
        for (const l of log.lines) {
          if (l.k) for (const raw of l.k) add(raw, log, l.line);
          if (l.a) for (const raw of l.a) add(raw, log, l.line);
          if (l.n) for (const raw of l.n) add(raw, log, l.line);
          if (l.s) for (const raw of l.s) add(raw, log, l.line);
          if (l.p) for (const pair of l.p) add(pair[0], log, l.line);
        }
      }
    }
    return lines.get(key) ?? [];
  };
  return { names, linesOf, keyOf: keyOfName };
}
