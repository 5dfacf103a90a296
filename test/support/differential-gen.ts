// Random lives of a workspace for the differential harness: days whose lines are recombined
// from the fixtures' logs (as people wrote them), with names respelled, old logs edited or
// deleted, days added back-dated, extra notes of a day and MEMORY.md changed between nights.
import path from "node:path";
import fc from "fast-check";
import { type Change, filesOf, type Night, nightAfter, type Scenario } from "./differential.js";

export interface Pools {
  retain: string[];
  prose: string[];
  core: string[];
}

const FIXTURES = [
  "natural",
  "messy",
  "freelance",
  "household",
  "beliefs",
  "beliefs-3",
  "beliefs-4",
  "opinions-2",
  "landlord",
  "bikeshop",
  "nightshift",
];

/** Every Retain item, prose line and MEMORY.md line of the fixtures, in file order. */
export function linePools(root: string): Pools {
  const pools: Pools = { retain: [], prose: [], core: [] };
  for (const name of FIXTURES) {
    for (const [rel, text] of filesOf(path.join(root, "fixtures", name), ["memory", "MEMORY.md"])) {
      let inRetain = false;
      for (const line of text.split(/\r?\n/)) {
        if (/^#{1,6}\s/.test(line)) {
          inRetain = /^##\s+retain\b/i.test(line);
          continue;
        }
        if (line.trim() === "") continue;
        if (rel === "MEMORY.md") pools.core.push(line);
        else if (inRetain && /^\s*[-*]\s+(?:[WBOS]\b|O\()/.test(line)) pools.retain.push(line);
        else if (!inRetain) pools.prose.push(line);
      }
    }
  }
  return pools;
}

/** Another spelling of the line's first longer capitalised word: a nickname, an accent, a lower-case tag. */
function respell(line: string, how: number): string {
  const m = /(@?)(\p{Lu}\p{Ll}{3,})/u.exec(line);
  if (!m) return line;
  const [whole, at, word] = [m[0], m[1]!, m[2]!];
  const variants = [
    `${at}${word.slice(0, 3)}`,
    `${at}${word.replace(/[aeiou]/, (v) => ({ a: "á", e: "é", i: "í", o: "ó", u: "ú" })[v]!)}`,
    at ? `@${word.toLowerCase()}` : word.toUpperCase(),
    `${at}${word}s`,
  ];
  return line.replace(whole, variants[how % variants.length]!);
}

/**
 * Names as people write them, in words of their own (none of the fixtures' lines): a name
 * first in the prose then tagged in another case, possessives, a married name, two Sams told
 * apart by surname later, a nickname that takes over mid-year, accents, emoji, hyphen and
 * underscore spellings. Lines starting "- " go to the Retain section.
 */
export const PEOPLE_LINES = [
  "Ana Silva dropped the contract round, signs it Ana Costa now (got married in June)",
  "- W @Ana-Costa: formerly Ana Silva; married in June, same email.",
  "- W @Ana-Silva: does our bookkeeping, invoices on the 1st.",
  "coffee w/ Sam Okafor — the other Sam, not climbing Sam",
  "- W @Sam-Okafor: new PM on the payments team.",
  "- O(c=0.7) @sam: likes the early standup, says it saves his afternoons.",
  "Sam bailed on climbing again 🙄",
  "Priya's bike got nicked again 😩 third time this year",
  "- W @Priya: bike stolen from the station rack 🚲.",
  "- B @PRIYA: I lent her my spare D-lock.",
  "- O(c=0.8) @priya: prefers the train to cycling in winter.",
  "choir: Zoë and zoe are NOT the same person lol",
  "- W @Zoë: sings alto, back from Lyon.",
  "- W @zoe: runs the choir mailing list.",
  "everyone calls Katarzyna Kasia now, even her boss",
  "Kasia's talk went really well, people asked for the slides",
  "- O(c=0.65) @Kasia: thinks the offsite should be in Kraków.",
  "- W @Katarzyna: leads the data team since March.",
  "- W @priya-shah: starts at the central library on Monday.",
  "- W @Priya_Shah: the library job is part-time.",
  "Jo (Joanna, not Jonas!) says the venue's booked",
  "- W @Jo: booked the venue for the 14th.",
];

const dayPlus = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

interface DayPlan {
  gap: number;
  title: string;
  prose: number[];
  retain: number[];
  respell?: { line: number; how: number };
  /** Lines of PEOPLE_LINES the day also holds. */
  people?: number[];
  /** The night's run is stopped after this step and run again. */
  stop?: "sessions" | "retain" | "reflect" | "commit";
  /** What else happens before this night's run. */
  extra?:
    | { kind: "edit-old"; log: number; line: number; with: number }
    | { kind: "drop-line"; log: number; line: number }
    | { kind: "delete-old"; log: number }
    | { kind: "back-dated"; back: number; retain: number[]; prose: number[] }
    | { kind: "notes"; prose: number[] }
    | { kind: "core"; line: number }
    | { kind: "same-again" };
}

const idx = fc.nat({ max: 100_000 });
const TITLES = ["", "# Mon\n\n", "# notes\n\n", "Tuesday.\n\n", "# 2026 log\n\n", "## morning\n\n"];

const dayPlan: fc.Arbitrary<DayPlan> = fc.record(
  {
    gap: fc.integer({ min: 1, max: 4 }),
    title: fc.constantFrom(...TITLES),
    prose: fc.array(idx, { minLength: 0, maxLength: 4 }),
    retain: fc.array(idx, { minLength: 0, maxLength: 4 }),
    respell: fc.record({ line: idx, how: fc.nat({ max: 3 }) }),
    people: fc.array(idx, { minLength: 1, maxLength: 3 }),
    stop: fc.constantFrom("sessions" as const, "retain" as const, "reflect" as const, "commit" as const),
    extra: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      fc.record({ kind: fc.constant("edit-old" as const), log: idx, line: idx, with: idx }),
      fc.record({ kind: fc.constant("drop-line" as const), log: idx, line: idx }),
      fc.record({ kind: fc.constant("delete-old" as const), log: idx }),
      fc.record({
        kind: fc.constant("back-dated" as const),
        back: fc.integer({ min: 1, max: 20 }),
        retain: fc.array(idx, { minLength: 1, maxLength: 3 }),
        prose: fc.array(idx, { maxLength: 2 }),
      }),
      fc.record({ kind: fc.constant("notes" as const), prose: fc.array(idx, { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant("core" as const), line: idx }),
      fc.constant({ kind: "same-again" as const }),
    ),
  },
  { requiredKeys: ["gap", "title", "prose", "retain"] },
);

export const scenarioPlan = fc.record({
  start: fc.constantFrom("2026-01-05", "2026-02-27", "2026-03-30", "2026-12-28"),
  core: fc.array(idx, { minLength: 0, maxLength: 4 }),
  days: fc.array(dayPlan, { minLength: 3, maxLength: 7 }),
});
export type ScenarioPlan = typeof scenarioPlan extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

function logText(title: string, prose: string[], retain: string[]): string {
  const parts = [title, prose.join("\n"), prose.length ? "\n" : ""];
  if (retain.length) parts.push(`${prose.length ? "\n" : ""}## Retain\n${retain.join("\n")}\n`);
  const text = parts.join("");
  return text === "" ? "nothing much today\n" : text;
}

/**
 * Does the plan edit or delete what an earlier night read, or bring facts of a day before one
 * already read (a back-dated log)? Then the bank holds history a full run on the final logs
 * cannot know: an opinion keeps evidence "no longer in the log", and a back-dated opinion
 * fact meets the opinions as they stand when it arrives (README).
 */
export function rewritesHistory(plan: ScenarioPlan): boolean {
  const kinds = new Set(["edit-old", "drop-line", "delete-old", "back-dated"]);
  return plan.days.some((d) => kinds.has(d.extra?.kind ?? ""));
}

/** The nights a plan lives, and the questions to compare answers with. */
export function buildScenario(pools: Pools, plan: ScenarioPlan): Scenario {
  const logs = new Map<string, string>();
  let core = plan.core.map((i) => pick(pools.core, i)).join("\n");
  const nights: Night[] = [];
  let day: string = plan.start;
  plan.days.forEach((d, n) => {
    day = n === 0 ? day : dayPlus(day, d.gap);
    const change: Change = {};
    if (n === 0 && core !== "") change["MEMORY.md"] = `# Me\n\n${core}\n`;
    const prose = d.prose.map((i) => pick(pools.prose, i));
    const retain = d.retain.map((i) => pick(pools.retain, i));
    for (const i of d.people ?? []) {
      const line = pick(PEOPLE_LINES, i);
      (line.startsWith("- ") ? retain : prose).push(line);
    }
    if (d.respell) {
      const lines = [...prose, ...retain];
      if (lines.length) {
        const at = d.respell.line % lines.length;
        const spelled = respell(lines[at]!, d.respell.how);
        if (at < prose.length) prose[at] = spelled;
        else retain[at - prose.length] = spelled;
      }
    }
    const rel = `memory/${day}.md`;
    change[rel] = logText(d.title, prose, retain);
    const older = [...logs.keys()].sort();
    const x = d.extra;
    if (x && older.length > 0) {
      if (x.kind === "edit-old" || x.kind === "drop-line") {
        const target = pick(older, x.log);
        const lines = logs.get(target)!.split("\n");
        const at = x.line % Math.max(1, lines.length - 1);
        if (x.kind === "edit-old") {
          const from = lines[at]!;
          lines[at] = /^\s*[-*]\s+(?:[WBOS]\b|O\()/.test(from) ? pick(pools.retain, x.with) : pick(pools.prose, x.with);
        } else lines.splice(at, 1);
        change[target] = lines.join("\n");
      } else if (x.kind === "delete-old") change[pick(older, x.log)] = null;
      else if (x.kind === "notes")
        change[`${pick(older, 0).slice(0, 17)}-notes.md`] = logText(
          "",
          x.prose.map((i) => pick(pools.prose, i)),
          [],
        );
      else if (x.kind === "core") {
        core = `${core}\n${pick(pools.core, x.line)}`.trim();
        change["MEMORY.md"] = `# Me\n\n${core}\n`;
      } else if (x.kind === "same-again") change[pick(older, 0)] = logs.get(pick(older, 0))!;
    }
    if (x?.kind === "back-dated") {
      const back = dayPlus(day, -x.back);
      const at = `memory/${back}.md`;
      if (!logs.has(at) && back >= dayPlus(plan.start, -30))
        change[at] = logText(
          "",
          x.prose.map((i) => pick(pools.prose, i)),
          x.retain.map((i) => pick(pools.retain, i)),
        );
    }
    for (const [p, text] of Object.entries(change)) {
      if (!p.startsWith("memory/")) continue;
      if (text === null) logs.delete(p);
      else logs.set(p, text);
    }
    nights.push({ now: nightAfter(day), change, ...(d.stop ? { stopAfter: d.stop } : {}) });
  });
  // Questions a person asks: about a name of the logs, about a week, about an opinion.
  const names = [...[...logs.values()].join("\n").matchAll(/@([\p{L}][\p{L}\p{N}_-]*)/gu)].map((m) => m[1]!);
  const who = names.length ? names[0]! : "Mara";
  return {
    name: `${plan.start}+${plan.days.length}`,
    nights,
    questions: [`tell me about ${who}`, `what happened around ${dayPlus(plan.start, 3)}`, "what do I prefer"],
  };
}
