// The prose-names digests (prose-names.ts, kept per year by prose-memo.ts) give what the
// single walk over every log gave before them: the same names, keys and mention lines, for
// any split of the logs into years and after a round trip through the memo's JSON.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entityKey } from "../retain/entities.js";
import { cmp } from "./format.js";
import { type ProseLog, scanProse } from "./prose.js";
import { proseMemo } from "./prose-memo.js";
import { namesOf, PROSE_MIN_LOGS, type ProseNames, proseNames } from "./prose-names.js";

/** The walk over every log as it was before the digests (the oracle), unchanged but for its name. */
function reference(
  logs: readonly ProseLog[],
  known: ReadonlyMap<string, string>,
  core: ReadonlySet<string> = new Set(),
  canon: (name: string) => string = (name) => name,
): Pick<ReturnType<typeof proseNames>, "names" | "linesOf" | "keyOf"> {
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

// Lines the way people write a day's notes: chat speakers, @tags, nicknames, places of two
// words, verbs at a sentence's start, lists, the same name in other cases.
const LINES = [
  "Lunch with Kasia at Ash Grove, she's fine.",
  "Called Ben about the boiler. Ben says Tuesday.",
  "- **Mara** (10:02): can we move standup?",
  "Mara: sure, 10:30 then",
  "[09:14] Olek: pushed the fix",
  "@jo and @Rosa-Lind reviewed the draft",
  "Jo came by (Rosa Lind too), talked about the Castle",
  "Met Dr. Okonjo at St. Mary's for the results",
  "Grocery list: Milk, Eggs, Bread",
  "shipped ledger-sync to prod; Kwame was so happy",
  "Kwame texted, Kasia too",
  "KASIA forgot the keys again lol",
  "Took the bus to Blue Bottle with Ines",
  "No more Tuesdays for the Castle meeting.",
  "Gloria said the Blue Bottle closes early",
  "talked w/ ben + mara re: ledger-sync",
  "Ines: the Castle lease runs out in May",
  "",
];

const arbLog = fc.record({
  year: fc.constantFrom("2023", "2024", "2025"),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  slug: fc.constantFrom("", "-sessions"),
  lines: fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 6 }),
});

type RawLog = { year: string; month: number; day: number; slug: string; lines: string[] };

const toLogs = (raw: RawLog[]): ProseLog[] => {
  const byPath = new Map<string, ProseLog>();
  for (const r of raw) {
    const date = `${r.year}-${String(r.month).padStart(2, "0")}-${String(r.day).padStart(2, "0")}`;
    const p = `memory/${date}${r.slug}.md`;
    byPath.set(p, { path: p, date, lines: scanProse(r.lines.join("\n")) });
  }
  return [...byPath.values()];
};

const KNOWN = new Map([
  ["mara", "Mara"],
  ["the-castle", "The-Castle"],
  ["ledger-sync", "ledger-sync"],
]);
const canon = (name: string) => (name.toLowerCase() === "jo" ? "Jonas" : name);

type Walk = Pick<ProseNames, "names" | "linesOf" | "keyOf">;

function same(a: Walk, b: Walk, focus?: Set<string>): void {
  expect([...b.names].sort()).toEqual([...a.names].sort());
  for (const raw of ["Kasia", "Ash", "Jo", "jo", "Castle", "Ben", "Rosa", "Blue", "St", "Okonjo", "Milk"])
    expect(b.keyOf(raw)).toBe(a.keyOf(raw));
  for (const key of [...a.names.keys(), "ash", "blue", "nobody"])
    expect(b.linesOf(key, focus)).toEqual(a.linesOf(key, focus));
}

describe("prose names from digests", () => {
  it("names, keys and mention lines are those of one walk over every log, however the logs are split", () => {
    fc.assert(
      fc.property(fc.array(arbLog, { minLength: 1, maxLength: 14 }), fc.boolean(), (raw, withCore) => {
        const logs = toLogs(raw);
        const core = withCore ? new Set(["rosa", "okonjo"]) : new Set<string>();
        const oracle = reference(logs, KNOWN, core, canon);
        same(oracle, proseNames(logs, KNOWN, core, canon));
        // Per year, through the memo's JSON and back, as a nightly reads it.
        const first = proseMemo([], true);
        first.digests(logs);
        const kept = JSON.parse(first.serialise()).years;
        const again = proseMemo(kept);
        const focus = new Set(["kasia", "mara", "jonas"]);
        same(reference(logs, KNOWN, core, canon), namesOf(again.digests(logs), KNOWN, core, canon), focus);
        expect(again.dirty).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it("a year whose prose changed is digested again, the others are kept", () => {
    const log = (p: string, text: string): ProseLog => ({ path: p, date: p.slice(7, 17), lines: scanProse(text) });
    const logs = [
      log("memory/2024-05-01.md", "Coffee with Tamsin, then Tamsin left early."),
      log("memory/2025-02-03.md", "Tamsin: running late"),
    ];
    const first = proseMemo([], true);
    first.digests(logs);
    const kept = JSON.parse(first.serialise()).years;
    const edited = [logs[0]!, log("memory/2025-02-03.md", "Tamsin: running late\nTamsin: here now")];
    const memo = proseMemo(kept);
    const names = namesOf(memo.digests(edited), new Map());
    expect(memo.dirty).toBe(true);
    expect(names.linesOf("tamsin").map((m) => `${m.date}#${m.line}`)).toEqual([
      "2024-05-01#1",
      "2025-02-03#1",
      "2025-02-03#2",
    ]);
    expect(JSON.parse(memo.serialise()).years[0].hash).toBe(kept[0].hash);
    expect(PROSE_MIN_LOGS).toBe(2);
  });
});

describe("a name MEMORY.md uses inside a sentence", () => {
  const log = (p: string, text: string): ProseLog => ({ path: p, date: p.slice(7, 17), lines: scanProse(text) });
  const logs = [
    log("memory/2026-03-16.md", "Rang the bank. Kerry is back at work full time now."),
    log("memory/2026-04-24.md", "Kerry is not happy about the move.\nLovely walk."),
  ];

  it("gets a page from logs that only open sentences with it", () => {
    // "his wife Kerry" in MEMORY.md: the logs' "Kerry is back at work" is that person.
    const found = proseNames(logs, new Map(), new Set(["kerry"]), (n) => n, new Set(["kerry"]));
    expect([...found.names.values()]).toEqual(["Kerry"]);
    expect(found.linesOf("kerry").map((l) => `${l.path}#L${l.line}`)).toEqual([
      "memory/2026-03-16.md#L1",
      "memory/2026-04-24.md#L1",
    ]);
  });

  it("not when MEMORY.md only opens a line with it, nor for other sentence starts", () => {
    const found = proseNames(logs, new Map(), new Set(["kerry", "lovely"]), (n) => n, new Set());
    expect([...found.names.values()]).toEqual([]);
  });
});
