#!/usr/bin/env node
// Deterministic generator of a synthetic membank workspace for the benchmarks:
// one daily log per day for N years (prose + a `## Retain` section), MEMORY.md, and
// optionally one day of OpenClaw session transcripts. Same arguments, same bytes.
//
//   node bench/generate.mjs --years 10 --out bench/.corpus/10y [--seed 1] [--end 2025-12-31]
//                           [--sessions 20 --messages 2000 --sessions-day 2026-01-01]
//
// Every day draws from its own PRNG seeded by (seed, date), so a 1-year corpus is exactly
// the last year of the 10-year one, and generateDayLog(nextDay) gives "one new day" on top.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Rand } from "./generate-rand.mjs";
import { generateSessions } from "./generate-sessions.mjs";
import * as V from "./generate-vocab.mjs";

export { mulberry32, Rand } from "./generate-rand.mjs";
export { generateSessions };
export const GENERATOR_VERSION = 1;
export const DEFAULT_END = "2025-12-31";
const DAY_MS = 86_400_000;
const MARKER = ".membank-synthetic.json";

// ---- dates -------------------------------------------------------------------------

export function parseDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new Error(`not a date (YYYY-MM-DD): ${text}`);
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a date (YYYY-MM-DD): ${text}`);
  return ms;
}
export const formatDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const human = (ms, withYear = true) => {
  const d = new Date(ms);
  return `${V.MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${withYear ? `, ${d.getUTCFullYear()}` : ""}`;
};

/** A date range after `day`, written the way people write them: "Mar 20–22, 2026", "Nov 27–Dec 1, 2025". */
function rangeExpr(g, day) {
  const from = day + g.int(2, 40) * DAY_MS;
  const to = from + g.int(1, 9) * DAY_MS;
  const a = new Date(from);
  const b = new Date(to);
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${human(from)}–${human(to)}`;
  if (a.getUTCMonth() === b.getUTCMonth()) return `${human(from, false)}–${b.getUTCDate()}, ${b.getUTCFullYear()}`;
  return `${human(from, false)}–${human(to)}`;
}

function sinceExpr(g, day) {
  switch (g.int(0, 3)) {
    case 0:
      return "since last week";
    case 1:
      return `since ${g.pick(V.WEEKDAYS.slice(1, 6))}`;
    case 2:
      return `since ${human(day - g.int(3, 60) * DAY_MS)}`;
    default:
      return "since last month";
  }
}

function whenExpr(g, day) {
  switch (g.int(0, 7)) {
    case 0:
      return `next ${g.pick(V.WEEKDAYS.slice(1, 6))}`;
    case 1:
      return "next week";
    case 2:
      return "tomorrow";
    case 3:
      return `on ${human(day + g.int(1, 60) * DAY_MS)}`;
    case 4:
      return `from ${human(day + g.int(1, 20) * DAY_MS, false)} to ${human(day + g.int(21, 30) * DAY_MS, false)}`;
    case 5:
      return "this week";
    case 6:
      return `by ${g.pick(V.WEEKDAYS.slice(1, 6))}`;
    default:
      return "in two weeks";
  }
}

// ---- text --------------------------------------------------------------------------

/** Fill `{slot}` placeholders; a slot used twice in one template gets the same value. */
function fill(template, g, day, focus) {
  const memo = new Map();
  const distinct = (base, list) => {
    const other = value(base);
    for (let i = 0; i < 8; i++) {
      const v = g.pick(list);
      if (v !== other) return v;
    }
    return list.find((v) => v !== other);
  };
  const value = (key) => {
    if (memo.has(key)) return memo.get(key);
    let v;
    if (key === "P") v = g.pick(focus.people);
    else if (key === "P2") v = distinct("P", focus.people);
    else if (key === "J") v = g.pick(focus.projects);
    else if (key === "T") v = focus.thing;
    else if (key === "team" || key === "team2") v = g.pick(V.TEAMS);
    else if (key === "tech") v = g.pick(V.TECH);
    else if (key === "tech2") v = distinct("tech", V.TECH);
    else if (key === "doc") v = g.pick(V.DOCS);
    else if (key === "ch") v = g.pick(V.CHANNELS);
    else if (key === "tk" || key === "tk2") v = `${g.pick(V.TICKET_PREFIXES)}-${g.int(100, 9999)}`;
    else if (key === "sha" || key === "hex") v = g.hex(7);
    else if (key === "env")
      v = `${value("J").replace(/-/g, "_").toUpperCase()}_${g.pick(V.ENV_SUFFIXES)}=${g.pick([2, 4, 8, 50, 100, 250, 500, 1000, 2000, 30000])}`;
    else if (key === "err") v = fill(g.pick(V.ERRORS), g, day, focus);
    else if (key === "proj") v = g.pick(focus.projects).toLowerCase();
    else if (key === "n" || key === "n2" || key === "n3") v = String(g.int(2, 40));
    else if (key === "hh") v = String(g.int(7, 18)).padStart(2, "0");
    else if (key === "mm") v = String(g.int(0, 59)).padStart(2, "0");
    else if (key === "ver") v = `${g.int(1, 9)}.${g.int(0, 20)}`;
    else if (key === "date") v = human(day + g.int(1, 90) * DAY_MS);
    else if (key === "range") v = rangeExpr(g, day);
    else if (key === "when") v = whenExpr(g, day);
    else if (key === "since") v = sinceExpr(g, day);
    else throw new Error(`unknown slot {${key}}`);
    memo.set(key, v);
    return v;
  };
  return template.replace(/\{(\w+)\}/g, (_, key) => value(key));
}

/** The day's cast: a few people and projects that its notes and facts keep coming back to. */
function dayFocus(g) {
  // Mara is the person the agent works for; templates name her explicitly.
  const people = [];
  while (people.length < 3) {
    const p = g.skewed(V.PEOPLE.slice(1));
    if (!people.includes(p)) people.push(p);
  }
  const projects = [];
  while (projects.length < 2) {
    const p = g.skewed(V.PROJECTS);
    if (!projects.includes(p)) projects.push(p);
  }
  return { people, projects, thing: g.skewed(V.THINGS) };
}

/** Confidence of opinion `i` on day number `n`: a slow wave per opinion, plus noise. */
export function confidenceOn(i, n, g) {
  const period = 180 + ((i * 97) % 700);
  const phase = (i * 1.7) % (2 * Math.PI);
  const c = 0.55 + 0.38 * Math.sin((2 * Math.PI * n) / period + phase) + (g.next() - 0.5) * 0.08;
  return Math.round(Math.min(0.98, Math.max(0.05, c)) * 100) / 100;
}

function opinionLine(g, dayNumber) {
  const i = Math.floor(V.OPINIONS.length * g.next() ** 2);
  const [who, statement] = V.OPINIONS[i];
  const c = confidenceOn(i, dayNumber, g);
  // Low confidence reads as the opinion turning: the heuristic judge's "no longer" cue.
  const text = c < 0.35 ? `No longer ${statement[0].toLowerCase()}${statement.slice(1)}` : statement;
  const head = g.chance(0.2) ? "O" : `O(c=${c})`;
  return `- ${head} @${who}: ${text}`;
}

function factLine(g, day, dayNumber, focus) {
  const r = g.next();
  if (r < 0.22) return opinionLine(g, dayNumber);
  const letter = r < 0.6 ? "W" : r < 0.85 ? "B" : "S";
  const body = fill(g.pick(V.FACTS[letter]), g, day, focus);
  return body.startsWith("@") ? `- ${letter} ${body}` : `- ${letter}: ${body}`;
}

const MALFORMED = [
  (focus) => `- X @${focus.people[0]}: Wants a pairing session on the cursor code.`,
  (focus) => `- O(c=1.3) @${focus.people[0]}: Is certain about everything.`,
  (focus) => `- O(c=maybe) @${focus.people[0]}: Might change teams.`,
  (focus) => `- W @${focus.projects[0]} moved to a new cluster`,
  () => "-",
];

/** One day's log. Pure: the same (date, seed) always gives the same text. */
export function generateDayLog(date, { seed = 1 } = {}) {
  const day = parseDay(date);
  const dayNumber = Math.round(day / DAY_MS);
  const g = new Rand(seed, date);
  const focus = dayFocus(g);
  const weekday = new Date(day).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  const out = [`# ${date} (${V.WEEKDAYS[weekday]})`, "", "## Notes", ""];
  const notes = weekend ? g.int(4, 8) : g.int(8, 18);
  for (let i = 0; i < notes; i++) out.push(`- ${fill(g.pick(V.NOTES), g, day, focus)}`);
  if (!weekend && g.chance(0.3)) {
    const block = g.chance(0.5) ? fill("{env}", g, day, focus) : fill("ERROR: {err}", g, day, focus);
    out.push("", "```text", block, "```");
  }
  if (!weekend) {
    out.push("", "## Done", "");
    const done = g.int(2, 6);
    for (let i = 0; i < done; i++) out.push(`- ${fill(g.pick(V.DONE), g, day, focus)}`);
  }
  out.push("", "## Retain", "");
  const facts = g.int(3, 8);
  // No repeats within a day: the parser reports a repeated fact as a duplicate.
  const seen = new Set();
  for (let i = 0; i < facts; i++) {
    for (let attempt = 0; attempt < 6; attempt++) {
      const line = factLine(g, day, dayNumber, focus);
      const key = line.replace(/^- O(\(c=[^)]*\))?/, "- O"); // the same opinion at another confidence is a repeat too
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(line);
      break;
    }
  }
  // About one day in sixty carries a malformed line, as real hand-written logs do.
  if (g.chance(1 / 60)) out.push(g.pick(MALFORMED)(focus));
  return `${out.join("\n")}\n`;
}

export function generateMemoryMd() {
  return [
    "# MEMORY",
    "",
    "Core facts (synthetic benchmark workspace).",
    "",
    "- Mara Lindqvist leads the Payments Platform team at Fjordline, Stockholm (CET).",
    `- Team: ${V.PEOPLE.slice(1, 8).join(", ")}.`,
    `- Main projects: ${V.PROJECTS.slice(0, 6).join(", ")}.`,
    "- Renovating a stone house the family calls the Castle.",
    "",
  ].join("\n");
}

/** The days of the corpus: `years` calendar years ending on `end` (fractional years: rounded days). */
export function corpusDays(years, end = DEFAULT_END) {
  const endMs = parseDay(end);
  const e = new Date(endMs);
  const startMs = Number.isInteger(years)
    ? Date.UTC(e.getUTCFullYear() - years, e.getUTCMonth(), e.getUTCDate() + 1)
    : endMs - (Math.round(years * 365.25) - 1) * DAY_MS;
  const days = [];
  for (let t = startMs; t <= endMs; t += DAY_MS) days.push(formatDay(t));
  return days;
}

/**
 * Write the corpus to `out` (replacing a previous corpus there; refusing a non-empty
 * folder that is not one). Returns counts and the time it took.
 */
export function generateWorkspace({ years, out, seed = 1, end = DEFAULT_END, sessions = 0, messages, sessionsDay }) {
  if (!(typeof years === "number" && years > 0 && years <= 100))
    throw new Error(`--years must be in (0, 100], got ${years}`);
  if (!out) throw new Error("--out DIR is required");
  const t0 = performance.now();
  if (existsSync(out)) {
    if (existsSync(path.join(out, MARKER))) rmSync(out, { recursive: true, force: true });
    else if (readdirSync(out).length > 0)
      throw new Error(`${out} exists and is not a generated corpus; refusing to replace it`);
  }
  mkdirSync(path.join(out, "memory"), { recursive: true });
  let bytes = 0;
  let facts = 0;
  const write = (rel, text) => {
    writeFileSync(path.join(out, rel), text);
    bytes += Buffer.byteLength(text);
  };
  const days = corpusDays(years, end);
  for (const date of days) {
    const text = generateDayLog(date, { seed });
    facts += text.slice(text.indexOf("\n## Retain\n")).split("\n- ").length - 1;
    write(`memory/${date}.md`, text);
  }
  write("MEMORY.md", generateMemoryMd());
  write(".gitignore", ".memory/\n");
  let sessionFiles = 0;
  let sessionMessages = 0;
  const sDay = sessionsDay ?? formatDay(parseDay(end) + DAY_MS);
  if (sessions > 0) {
    mkdirSync(path.join(out, "sessions"), { recursive: true });
    const files = generateSessions(sDay, { seed, sessions, messages: messages ?? sessions * 100 });
    for (const f of files) {
      write(`sessions/${f.name}`, f.content);
      sessionMessages += f.messages;
    }
    sessionFiles = files.length;
  }
  const args = {
    generator: GENERATOR_VERSION,
    years,
    seed,
    end,
    sessions,
    messages: sessions ? (messages ?? sessions * 100) : 0,
    sessionsDay: sessions ? sDay : undefined,
  };
  write(MARKER, `${JSON.stringify(args, null, 2)}\n`);
  return {
    out,
    days: days.length,
    first: days[0],
    last: days.at(-1),
    facts,
    bytes,
    sessionFiles,
    sessionMessages,
    sessionsDay: sessions ? sDay : undefined,
    ms: Math.round(performance.now() - t0),
  };
}

// ---- CLI ---------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const val = argv[i + 1];
    const need = () => {
      if (val === undefined || val.startsWith("--")) throw new Error(`${flag} needs a value`);
      i++;
      return val;
    };
    const num = (name) => {
      const n = Number(need());
      if (!Number.isFinite(n)) throw new Error(`${name} must be a number`);
      return n;
    };
    if (flag === "--years") opts.years = num("--years");
    else if (flag === "--out") opts.out = need();
    else if (flag === "--seed") opts.seed = num("--seed");
    else if (flag === "--end") opts.end = need();
    else if (flag === "--sessions") opts.sessions = num("--sessions");
    else if (flag === "--messages") opts.messages = num("--messages");
    else if (flag === "--sessions-day") opts.sessionsDay = need();
    else if (flag === "--help" || flag === "-h") opts.help = true;
    else throw new Error(`unknown argument ${flag}`);
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.help || opts.years === undefined) {
      process.stdout.write(
        "usage: node bench/generate.mjs --years N --out DIR [--seed 1] [--end YYYY-MM-DD]\n" +
          "                              [--sessions 20 [--messages 2000] [--sessions-day YYYY-MM-DD]]\n",
      );
      process.exit(opts.help ? 0 : 2);
    }
    const r = generateWorkspace(opts);
    process.stdout.write(
      `${r.out}: ${r.days} daily logs (${r.first}..${r.last}), ${r.facts} Retain lines, ` +
        `${(r.bytes / 1e6).toFixed(1)} MB` +
        (r.sessionFiles ? `, ${r.sessionFiles} sessions / ${r.sessionMessages} messages on ${r.sessionsDay}` : "") +
        ` in ${r.ms} ms\n`,
    );
  } catch (error) {
    process.stderr.write(`generate: ${error.message}\n`);
    process.exit(2);
  }
}
