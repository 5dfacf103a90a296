import { cmp } from "./format.js";
import type { ProseLog } from "./prose.js";

/**
 * A run of logs reduced to what the names step needs (prose-names.ts): counts and log lists by
 * name as written (no aliases, no keys: those change from run to run). A digest depends on its
 * logs alone, so a year of logs is digested once and kept (prose-memo.ts). Pure.
 */

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
  /** Lines writing a full name ("Sam Whitlock", "Sam O"): "first\nsecond" -> lines as in `lines`. */
  full: Record<string, string>;
  /** Lines naming a first name by kin ("my sister Jo"): name -> lines as in `lines`. */
  kin: Record<string, string>;
  /** Lines telling a first name by where from ("Jess from netball"): "name\ndescriptor\nvia" -> lines as in `lines`. */
  from: Record<string, string>;
  /** Logs where a name is inside a sentence only after a place word ("at Costa"), not counted in `strong`. */
  placed: Record<string, LogList>;
  /** Logs where a name is the speaker of the log's only plain `Word:` line, not counted in `strong`. */
  labelled: Record<string, LogList>;
  /** Names used as a person's somewhere: speaking, owning, in company, a speaker, a kin word's. */
  voiced: string[];
  /** Names the logs also write in lower case, as an ordinary word ("netball"), lower-cased. */
  lower: string[];
}

/** Each (log, line) of a `lines`-style record ("log.line,log.line"), its log shifted by the digest's global offset. */
export function* digestLines(packed: string | undefined, offset: number): Generator<[number, number]> {
  if (!packed) return;
  for (const item of packed.split(",")) {
    const dot = item.indexOf(".");
    yield [offset + Number(item.slice(0, dot)), Number(item.slice(dot + 1))];
  }
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
    full: {},
    kin: {},
    from: {},
    placed: {},
    labelled: {},
    voiced: [],
    lower: [],
  };
  // Built as arrays, packed at the end (a kept digest is read back as strings and unpacked only where needed).
  const strong = new Map<string, number[]>();
  const anywhere = new Map<string, number[]>();
  const pairs = new Map<string, number[]>();
  const lines = new Map<string, number[]>();
  const full = new Map<string, number[]>();
  const kin = new Map<string, number[]>();
  const from = new Map<string, number[]>();
  const placed = new Map<string, number[]>();
  const labelled = new Map<string, number[]>();
  const voiced = new Set<string>();
  const lower = new Set<string>();
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
  const addLine = (name: string, log: number, line: number, into = lines) => {
    const list = into.get(name);
    if (list === undefined) into.set(name, [log, line]);
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
    for (const word of log.w ?? []) lower.add(word);
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
      for (const name of l.v ?? []) voiced.add(name);
      for (const name of l.b ?? []) voiced.add(name);
      for (const [name] of l.g ?? []) voiced.add(name);
      if (l.k)
        for (const name of l.k) {
          if (l.o?.includes(name)) addLog(labelled, name, i);
          else voiced.add(name);
          use(name, !l.o?.includes(name));
        }
      if (l.a)
        for (const name of l.a) {
          use(name, false);
          tagged.add(name);
        }
      if (l.n)
        for (const name of l.n) {
          if (l.l?.includes(name)) addLog(placed, name, i);
          use(name, !l.l?.includes(name));
        }
      if (l.s) for (const name of l.s) use(name, false);
      if (l.p) for (const pair of l.p) addLine(pair[0], i, l.line);
      if (l.f) for (const [first, second] of l.f) addLine(`${first}\n${second}`, i, l.line, full);
      if (l.b) for (const name of l.b) addLine(name, i, l.line, kin);
      if (l.g) for (const [name, tag, via] of l.g) addLine(`${name}\n${tag}\n${via}`, i, l.line, from);
    }
  }
  // Records built with fromEntries: a name is an own property even when it is "__proto__".
  const pack = (map: Map<string, number[]>): Record<string, LogList> =>
    Object.fromEntries([...map].map(([name, list]) => [name, [list.length, list.join(",")] as LogList]));
  out.strong = pack(strong);
  out.anywhere = pack(anywhere);
  out.pairs = pack(pairs);
  out.placed = pack(placed);
  out.labelled = pack(labelled);
  out.voiced = [...voiced].sort(cmp);
  // Only the lower-case words a name of these logs is written as: a digest stays small.
  out.lower = [...new Set([...spell.keys()].map((n) => n.toLowerCase()))].filter((w) => lower.has(w)).sort(cmp);
  const packLines = (map: Map<string, number[]>): Record<string, string> =>
    Object.fromEntries(
      [...map].map(([name, list]) => {
        const parts: string[] = [];
        for (let j = 0; j < list.length; j += 2) parts.push(`${list[j]}.${list[j + 1]}`);
        return [name, parts.join(",")];
      }),
    );
  out.lines = packLines(lines);
  out.full = packLines(full);
  out.kin = packLines(kin);
  out.from = packLines(from);
  out.spell = Object.fromEntries(spell);
  out.tagged = [...tagged];
  out.alone = [...alone];
  out.titled = [...titled];
  out.runs = Object.fromEntries([...runs].map(([head, byRun]) => [head, Object.fromEntries(byRun)]));
  return out;
}
