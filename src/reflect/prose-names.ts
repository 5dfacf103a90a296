import { entityKey } from "../retain/entities.js";
import { cmp } from "./format.js";
import type { ProseLine, ProseLog } from "./prose.js";
import { digestProse, type LogList, type ProseDigest } from "./prose-digest.js";
import { sharedFirstNames } from "./shared-names.js";

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

export { digestProse, type LogList, type ProseDigest } from "./prose-digest.js";

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
  /** The page keys of the people a shared first name's key stands for (shared-names.ts), if it is one. */
  split(key: string): string[] | undefined;
  /** Per shared first name: its people's page names and the lines that name neither ("path#Lline"). */
  unclear(): { people: string[]; lines: string[] }[];
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
  split: SplitOptions = {},
): ProseNames {
  return namesOf([digestProse(logs)], known, core, canon, coreInSentences, split);
}

/** What telling apart two people who share a first name needs (shared-names.ts). */
export interface SplitOptions {
  /** MEMORY.md's scanned lines: full names and kin words there tell people apart too. */
  core?: readonly ProseLine[];
  /** Keys of entities with facts or opinions: the facts say who they are, never split. */
  fixed?: ReadonlySet<string>;
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
  split: SplitOptions = {},
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
  // A name only ever after place words ("at Costa", "in Leeds") is a place unless it is used as a
  // person's somewhere or MEMORY.md lists it; a log's lone `Word:` line is a label when the writer
  // also writes the word in lower case ("netball Jess"): those uses count for nothing (prose-uses.ts).
  const voiced = new Set(digests.flatMap((d) => d.voiced.map(keyOf)));
  const lower = new Set(digests.flatMap((d) => d.lower));
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
  // A place of two words or more ("coffee at Little Fern") is named by its run, as it was: kept.
  const kept = (key: string) => voiced.has(key) || core.has(key) || (runsOf.has(key) && !alone.has(key));
  digests.forEach((d, at) => {
    for (const [raw, list] of Object.entries(d.placed)) if (kept(keyOf(raw))) logsOf(strong, keyOf(raw)).add(at, list);
    for (const [raw, list] of Object.entries(d.labelled))
      if (!lower.has(raw.toLowerCase())) logsOf(strong, keyOf(raw)).add(at, list);
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
  const runKey = (key: string) => {
    const run = renamed.get(key);
    return run === undefined ? key : entityKey(run);
  };
  // Two people sharing a first name: a page each, and each line of the name to the one it names.
  // Keyed by the first name itself: "Sam Okoro" and "Sam Whitlock" with no Sam alone are two people, not the likelier run.
  const shared = sharedFirstNames(
    digests,
    offsets,
    split.core ?? [],
    keyOf,
    (k) => names.has(runKey(k)) && !(split.fixed?.has(k) ?? false),
    (k) => known.get(k) ?? names.get(k) ?? spellings.get(k)?.keys().next().value ?? k,
  );
  for (const s of shared.values()) {
    names.delete(runKey(s.key));
    names.delete(s.key);
    for (const p of s.persons) names.set(p.key, p.name);
  }
  const keyOfName = (raw: string) => {
    const key = keyOf(raw);
    return shared.has(key) ? key : runKey(key);
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
          const s = shared.get(k);
          if (s === undefined && (!names.has(k) || (focus && !focus.has(k)))) continue;
          const pairs: number[] = [];
          for (const item of packed.split(",")) {
            const dot = item.indexOf(".");
            pairs.push(offsets[at]! + Number(item.slice(0, dot)), Number(item.slice(dot + 1)));
          }
          const add = (key: string, list: number[]) => {
            const lists = found.get(key);
            if (lists === undefined) found.set(key, [list]);
            else lists.push(list);
          };
          if (s === undefined) {
            add(k, pairs);
            continue;
          }
          for (let j = 0; j < pairs.length; j += 2)
            for (const owner of s.owners.get(`${pairs[j]}.${pairs[j + 1]}`) ?? [])
              if (!focus || focus.has(owner)) add(owner, [pairs[j]!, pairs[j + 1]!]);
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
    // A shared first name's spellings count for each of its people, with who they all are.
    for (const s of shared.values()) {
      const raws = out.get(s.key) ?? [];
      out.delete(s.key);
      for (const p of s.persons) out.set(p.key, [...raws, ...s.persons.map((q) => `=${q.name}`)]);
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
  const unclear = () =>
    [...shared.values()].map((s) => {
      const logs = digests.flatMap((d) => d.logs);
      const lines = [...s.owners]
        .filter(([, owners]) => owners.length === 0)
        .map(([item]) => item.split(".").map(Number) as [number, number])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map(([log, line]) => `${logs[log]?.path}#L${line}`);
      return { people: s.persons.map((p) => p.name), lines };
    });
  return {
    names,
    linesOf,
    keyOf: keyOfName,
    spellings: spellingsOf,
    firstSpellings,
    split: (key) => shared.get(key)?.persons.map((p) => p.key),
    unclear,
  };
}
