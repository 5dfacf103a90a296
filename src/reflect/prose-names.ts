import { entityKey } from "../retain/entities.js";
import { cmp } from "./format.js";
import type { ProseLog } from "./prose.js";

/**
 * Which names of the logs' prose are entities, and where each is mentioned (issue 10 item 6).
 *
 * In two steps, so ten years of logs are not walked on every run: `digestProse` reduces a run
 * of logs to counts and log lists by name as written (no aliases, no keys: those change
 * from run to run), and `namesOf` merges digests under the run's keys. A digest depends on
 * its logs alone, so a year of logs is digested once and kept (prose-memo.ts).
 */

/**
 * Logs a name must recur in (as a speaker or inside a sentence) to get a page from the
 * prose alone: a name seen on one day is as often a place, a product or a typo as a person;
 * two days make it someone the agent keeps meeting. An @mention or a fact needs no recurrence.
 */
export const PROSE_MIN_LOGS = 2;

/** Log indices (into the digest's logs), ascending and distinct: their count and "i,j,k". */
export type LogList = [count: number, packed: string];

/** What the names step needs of a run of logs, by raw name (the spelling in the log). */
export interface ProseDigest {
  /** The logs, in path order. */
  logs: { path: string; date: string }[];
  /** Uses of a name as a speaker, @mention, in a sentence or at its start (spelling votes). */
  spell: Record<string, number>;
  /** Logs with a name as a speaker or inside a sentence (not as a verb's second word). */
  strong: Record<string, LogList>;
  /** Logs naming a name anywhere. */
  anywhere: Record<string, LogList>;
  /** Names written as @mentions. */
  tagged: string[];
  /** Names seen outside a run's head and a pair's second word. */
  alone: string[];
  /** Names seen right after a personal title ("Mr Duguid"): surnames. */
  titled: string[];
  /** Runs of capitalised words ("Ash Grove") by their first word: joined run -> uses. */
  runs: Record<string, Record<string, number>>;
  /** Sentence-start pairs "first\nsecond" -> logs. */
  pairs: Record<string, LogList>;
  /** Lines naming a name: "log.line,log.line" in (log, line) order. */
  lines: Record<string, string>;
}

/** A digest of logs (any order; they are sorted by path here). Pure. */
export function digestProse(logs: readonly ProseLog[]): ProseDigest {
  const sorted = [...logs].sort((a, b) => cmp(a.path, b.path));
  const out: ProseDigest = {
    logs: [],
    spell: {},
    strong: {},
    anywhere: {},
    tagged: [],
    alone: [],
    titled: [],
    runs: {},
    pairs: {},
    lines: {},
  };
  // Built as arrays, packed at the end (a kept digest is read back as strings and unpacked only where needed).
  const strong = new Map<string, number[]>();
  const anywhere = new Map<string, number[]>();
  const pairs = new Map<string, number[]>();
  const lines = new Map<string, number[]>();
  const spell = new Map<string, number>();
  const tagged = new Set<string>();
  const alone = new Set<string>();
  const titled = new Set<string>();
  const runs = new Map<string, Map<string, number>>();
  const addLog = (map: Map<string, number[]>, name: string, log: number) => {
    const list = map.get(name);
    if (list === undefined) map.set(name, [log]);
    else if (list[list.length - 1] !== log) list.push(log);
  };
  const addLine = (name: string, log: number, line: number) => {
    const list = lines.get(name);
    if (list === undefined) lines.set(name, [log, line]);
    else if (list[list.length - 2] !== log || list[list.length - 1] !== line) list.push(log, line);
  };
  const index = new Map<string, number>();
  for (const log of sorted) {
    // The same path twice is one log (as a set of paths would have it).
    let i = index.get(log.path);
    if (i === undefined) {
      i = out.logs.length;
      index.set(log.path, i);
      out.logs.push({ path: log.path, date: log.date });
    }
    for (const l of log.lines) {
      const seconds = l.p && new Set(l.p.map(([, second]) => second));
      const heads = l.r && new Set(l.r.map((r) => r[0]!));
      if (l.t) for (const name of l.t) titled.add(name);
      if (l.p) for (const [first, second] of l.p) addLog(pairs, `${first}\n${second}`, i);
      if (l.r)
        for (const r of l.r) {
          let byRun = runs.get(r[0]!);
          if (byRun === undefined) {
            byRun = new Map();
            runs.set(r[0]!, byRun);
          }
          const joined = r.join("-");
          byRun.set(joined, (byRun.get(joined) ?? 0) + 1);
        }
      const use = (name: string, isStrong: boolean) => {
        spell.set(name, (spell.get(name) ?? 0) + 1);
        if (isStrong && !seconds?.has(name)) addLog(strong, name, i);
        addLog(anywhere, name, i);
        if (!heads?.has(name) && !seconds?.has(name)) alone.add(name);
        addLine(name, i, l.line);
      };
      if (l.k) for (const name of l.k) use(name, true);
      if (l.a)
        for (const name of l.a) {
          use(name, false);
          tagged.add(name);
        }
      if (l.n) for (const name of l.n) use(name, true);
      if (l.s) for (const name of l.s) use(name, false);
      if (l.p) for (const pair of l.p) addLine(pair[0], i, l.line);
    }
  }
  // Records built with fromEntries: a name is an own property even when it is "__proto__".
  const pack = (map: Map<string, number[]>): Record<string, LogList> =>
    Object.fromEntries([...map].map(([name, list]) => [name, [list.length, list.join(",")] as LogList]));
  out.strong = pack(strong);
  out.anywhere = pack(anywhere);
  out.pairs = pack(pairs);
  out.lines = Object.fromEntries(
    [...lines].map(([name, list]) => {
      const parts: string[] = [];
      for (let j = 0; j < list.length; j += 2) parts.push(`${list[j]}.${list[j + 1]}`);
      return [name, parts.join(",")];
    }),
  );
  out.spell = Object.fromEntries(spell);
  out.tagged = [...tagged];
  out.alone = [...alone];
  out.titled = [...titled];
  out.runs = Object.fromEntries([...runs].map(([head, byRun]) => [head, Object.fromEntries(byRun)]));
  return out;
}

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
  /** Entity key -> the prose spellings whose lines count for it, sorted: which lines go to which page. */
  spellings(): Map<string, string[]>;
  /** Entity key -> the first line naming it by its own name (any case) and the spelling written there. */
  firstSpellings(): Map<string, FirstSpelling>;
}

/** Where a spelling of a name was first written. */
export interface FirstSpelling {
  name: string;
  date: string;
  path: string;
  line: number;
}

/** Order of first uses: by date, path, line, then spelling (two spellings on one line). */
export function compareFirst(a: FirstSpelling, b: FirstSpelling): number {
  return cmp(a.date, b.date) || cmp(a.path, b.path) || a.line - b.line || cmp(a.name, b.name);
}

const unpack = (packed: string): number[] => (packed === "" ? [] : packed.split(",").map(Number));

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
  coreInSentences: ReadonlySet<string> = new Set(),
): ProseNames {
  return namesOf([digestProse(logs)], known, core, canon, coreInSentences);
}

/**
 * proseNames over digests of disjoint runs of logs, in path order (each run's logs come
 * after the previous run's).
 */
export function namesOf(
  digests: readonly ProseDigest[],
  known: ReadonlyMap<string, string>,
  core: ReadonlySet<string> = new Set(),
  canon: (name: string) => string = (name) => name,
  coreInSentences: ReadonlySet<string> = new Set(),
): ProseNames {
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
  const offsets: number[] = [];
  let total = 0;
  for (const d of digests) {
    offsets.push(total);
    total += d.logs.length;
  }
  /**
   * Logs per key: the lists of every name (and digest) that counts for it. Logs of two
   * digests are distinct, so one list per key and digest is counted without unpacking.
   */
  class Logs {
    private parts: { digest: number; list: LogList }[] = [];
    private extra?: Set<number>;
    add(digest: number, list: LogList) {
      this.parts.push({ digest, list });
    }
    credit(log: number) {
      if (this.extra === undefined) this.extra = new Set();
      this.extra.add(log);
    }
    get size(): number {
      const perDigest = new Map<number, number>();
      for (const p of this.parts) perDigest.set(p.digest, (perDigest.get(p.digest) ?? 0) + 1);
      if (this.extra === undefined && [...perDigest.values()].every((n) => n === 1))
        return this.parts.reduce((sum, p) => sum + p.list[0], 0);
      const all = new Set(this.extra);
      for (const p of this.parts) for (const i of unpack(p.list[1])) all.add(offsets[p.digest]! + i);
      return all.size;
    }
  }
  const strong = new Map<string, Logs>();
  const anywhere = new Map<string, Logs>();
  const logsOf = (map: Map<string, Logs>, key: string) => {
    let logs = map.get(key);
    if (logs === undefined) {
      logs = new Logs();
      map.set(key, logs);
    }
    return logs;
  };
  const tagged = new Set<string>();
  const alone = new Set<string>();
  const spellings = new Map<string, Map<string, number>>();
  const runsOf = new Map<string, Map<string, number>>();
  digests.forEach((d, at) => {
    for (const [raw, n] of Object.entries(d.spell)) {
      const key = keyOf(raw);
      if (known.has(key)) {
        // A known entity keeps its spelling: nothing to count, only that it was seen.
        if (!spellings.has(key)) spellings.set(key, new Map());
        continue;
      }
      const name = canon(raw);
      const m = spellings.get(key) ?? new Map<string, number>();
      m.set(name, (m.get(name) ?? 0) + n);
      spellings.set(key, m);
    }
    for (const [raw, list] of Object.entries(d.strong)) logsOf(strong, keyOf(raw)).add(at, list);
    for (const [raw, list] of Object.entries(d.anywhere)) logsOf(anywhere, keyOf(raw)).add(at, list);
    for (const raw of d.tagged) tagged.add(keyOf(raw));
    for (const raw of d.alone) alone.add(keyOf(raw));
    for (const [head, byRun] of Object.entries(d.runs)) {
      const key = keyOf(head);
      let into = runsOf.get(key);
      if (into === undefined) {
        into = new Map();
        runsOf.set(key, into);
      }
      for (const [run, n] of Object.entries(byRun)) into.set(run, (into.get(run) ?? 0) + n);
    }
  });
  // "Called Ben": Ben is named on his own elsewhere, so the line names him. "(Rosa Lind)",
  // "today: Rosa Lind": Lind never stands alone, so it is Rosa's surname and the line names Rosa.
  // A name MEMORY.md lists or facts carry is someone even when only ever seen after a verb.
  const named = new Set([...strong.keys(), ...tagged, ...known.keys(), ...core]);
  digests.forEach((d, at) => {
    for (const [pair, list] of Object.entries(d.pairs)) {
      const cut = pair.indexOf("\n");
      const [first, second] = [pair.slice(0, cut), pair.slice(cut + 1)];
      const key = named.has(keyOf(second)) ? keyOf(second) : keyOf(first);
      const logs = logsOf(strong, key);
      for (const i of unpack(list[1])) logs.credit(offsets[at]! + i);
    }
  });
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
    const logsOfKey = strong.get(key)?.size ?? 0;
    // A name used as one inside a sentence and written in three logs: "Kwame says", "Kwame was so happy".
    const ok =
      known.has(key) ||
      tagged.has(key) ||
      (core.has(key) && logsOfKey >= 1) ||
      // MEMORY.md names them inside a sentence: a log's "Kerry is back at work" is that person.
      (coreInSentences.has(key) && (anywhere.get(key)?.size ?? 0) >= 1) ||
      logsOfKey >= PROSE_MIN_LOGS ||
      (logsOfKey >= 1 && (anywhere.get(key)?.size ?? 0) >= 3);
    if (!ok) continue;
    const run = renamed.get(key);
    if (run !== undefined) {
      names.set(entityKey(run), run);
      continue;
    }
    // The first spelling written (logs in path order), not the most used: the night the page is
    // made it gets the name one full run over all the logs gives it later (entitySpellings).
    names.set(key, known.get(key) ?? bySpelling.keys().next().value ?? "");
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
      // Key -> (global log, line) pairs of every name counting for it.
      const found = new Map<string, number[][]>();
      digests.forEach((d, at) => {
        for (const [raw, packed] of Object.entries(d.lines)) {
          const k = keyOfName(raw);
          if (!names.has(k) || (focus && !focus.has(k))) continue;
          const pairs: number[] = [];
          for (const item of packed.split(",")) {
            const dot = item.indexOf(".");
            pairs.push(offsets[at]! + Number(item.slice(0, dot)), Number(item.slice(dot + 1)));
          }
          const list = found.get(k);
          if (list === undefined) found.set(k, [pairs]);
          else list.push(pairs);
        }
      });
      const logs = digests.flatMap((d) => d.logs);
      lines = new Map();
      for (const [k, lists] of found) {
        let pairs = lists[0]!;
        if (lists.length > 1) {
          // Several names for one key: in (log, line) order, a line naming it twice is one mention.
          const all: [number, number][] = [];
          for (const list of lists) for (let j = 0; j < list.length; j += 2) all.push([list[j]!, list[j + 1]!]);
          all.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          pairs = [];
          for (const [log, line] of all)
            if (pairs[pairs.length - 2] !== log || pairs[pairs.length - 1] !== line) pairs.push(log, line);
        }
        const out: { path: string; line: number; date: string }[] = [];
        for (let j = 0; j < pairs.length; j += 2) {
          const log = logs[pairs[j]!];
          if (log === undefined) continue; // (a kept digest read back wrong: no such log)
          out.push({ path: log.path, line: pairs[j + 1]!, date: log.date });
        }
        lines.set(k, out);
      }
    }
    return lines.get(key) ?? [];
  };
  const spellingsOf = () => {
    const out = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const d of digests)
      for (const raw of Object.keys(d.lines)) {
        if (seen.has(raw)) continue;
        seen.add(raw);
        const k = keyOfName(raw);
        if (!names.has(k)) continue;
        const list = out.get(k);
        if (list === undefined) out.set(k, [raw]);
        else list.push(raw);
      }
    for (const list of out.values()) list.sort(cmp);
    return out;
  };
  const firstSpellings = () => {
    const out = new Map<string, FirstSpelling>();
    const logs = digests.flatMap((d) => d.logs);
    digests.forEach((d, at) => {
      for (const [raw, packed] of Object.entries(d.lines)) {
        const k = keyOfName(raw);
        // Its own name only: "Ash" of "Ash Grove" counts for ash-grove but is no spelling of it.
        if (!names.has(k) || entityKey(raw) !== k) continue;
        const comma = packed.indexOf(",");
        const item = comma < 0 ? packed : packed.slice(0, comma); // (log, line) order: the first is the earliest
        const dot = item.indexOf(".");
        const log = logs[offsets[at]! + Number(item.slice(0, dot))];
        if (log === undefined) continue;
        const here = { name: raw, date: log.date, path: log.path, line: Number(item.slice(dot + 1)) };
        const best = out.get(k);
        if (best === undefined || compareFirst(here, best) < 0) out.set(k, here);
      }
    });
    return out;
  };
  return { names, linesOf, keyOf: keyOfName, spellings: spellingsOf, firstSpellings };
}
