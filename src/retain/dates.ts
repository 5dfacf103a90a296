import path from "node:path";
// The English parser only: the package root loads all 15 locales (266 files, ~0.1 s per CLI call).
import type { ParsedComponents, ParsedResult } from "chrono-node";
import * as chrono from "chrono-node/en";
import { MembankError } from "../workspace/errors.js";
import { mentionSpans } from "./entities.js";

const DAILY_NAME = /^(\d{4})-(\d{2})-(\d{2})(?:-[^/]+)?\.md$/i;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function ymd(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The date of a daily log from its file name (`2025-11-27.md`, `2025-11-27-sessions.md`), else undefined. */
export function dateFromPath(p: string): string | undefined {
  const m = DAILY_NAME.exec(path.posix.basename(p.replace(/\\/g, "/")));
  if (!m) return undefined;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  return isIsoDate(date) ? date : undefined;
}

/** UTC date string of `now` shifted by `days`. */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return ymd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/**
 * A `--since` value: a date `YYYY-MM-DD`, or an age like `7d` / `2w` counted back from
 * today (UTC). Throws MembankError (exit code 2) with the accepted forms otherwise.
 */
export function parseSinceDate(value: string, now: Date = new Date(), flag = "--since"): string {
  const v = value.trim();
  if (isIsoDate(v)) return v;
  const rel = /^(\d+)\s*([dw])$/i.exec(v);
  if (rel) {
    const today = ymd(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate());
    const days = Number(rel[1]) * (rel[2]!.toLowerCase() === "w" ? 7 : 1);
    return shiftDate(today, -days);
  }
  throw new MembankError(`${flag} must be a date YYYY-MM-DD or an age like 7d or 2w, got ${JSON.stringify(value)}`, {
    exitCode: 2,
    code: "EBADSINCE",
  });
}

export interface Validity {
  validFrom?: string;
  validTo?: string;
}

// Cheap gate: chrono costs ~20µs a line, and most facts mention no date at all.
const MAYBE_DATE = new RegExp(
  [
    String.raw`\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b`,
    String.raw`\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b|\b(?:tues|wednes|satur)day\b`,
    String.raw`\b(?:today|tomorrow|yesterday|tonight|weekend|fortnight)\b|\b(?:weeks?|months?|years?|days?)\b`,
    String.raw`\b(?:1[89]|2\d)\d\d\b|\d[-/.]\d|\d(?:st|nd|rd|th)\b`,
  ].join("|"),
  "i",
);
const SINCE = /\b(?:since|from|starting(?:\s+(?:on|from))?|as\s+of|beginning)\s*$/i;
const UNTIL = /\b(?:until|till|til|through|thru|up\s+to)\s*$/i;

type Component = ParsedComponents;

/** First or last day of the period a component names (day, month or year), undefined for time-only. */
function bound(c: Component, edge: "start" | "end"): string | undefined {
  const year = c.get("year");
  const month = c.get("month");
  const day = c.get("day");
  if (year === null || month === null || day === null) return undefined;
  if (c.isCertain("day") || c.isCertain("weekday")) return ymd(year, month, day);
  if (c.isCertain("month")) {
    if (edge === "start") return ymd(year, month, 1);
    return ymd(year, month, new Date(Date.UTC(year, month, 0)).getUTCDate());
  }
  if (c.isCertain("year")) return edge === "start" ? ymd(year, 1, 1) : ymd(year, 12, 31);
  return undefined;
}

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const MONTH_FIRST = new RegExp(`\\b(${MONTH})\\s+(\\d{1,2})\\s*[-–—]\\s*(\\d{1,2})\\b(?!\\s*[:.]\\d)`, "gi");
const DAY_FIRST = new RegExp(`\\b(\\d{1,2})\\s*[-–—]\\s*(\\d{1,2})\\s+(${MONTH})`, "gi");

/** chrono reads "Nov 27–Dec 1" but not "Mar 20–22": spell the month on both ends. */
function expandDayRanges(text: string): string {
  return text
    .replace(MONTH_FIRST, (_all, mon: string, a: string, b: string) => `${mon} ${a} - ${mon} ${b}`)
    .replace(DAY_FIRST, (_all, a: string, b: string, mon: string) => `${a} ${mon} - ${b} ${mon}`);
}

/**
 * Dates written in a fact's text, relative to the log's date (read at noon UTC so no time
 * zone moves it across midnight). A range or a single date sets validFrom and validTo
 * (a month or year spans its days); "since X" sets only validFrom, "until X" only validTo.
 * `@Mentions` are masked first (`@May` is a person, not a month).
 */
export function extractValidity(text: string, logDate: string): Validity {
  if (!MAYBE_DATE.test(text)) return {};
  let masked = text;
  const blank = (a: number, b: number) => {
    masked = masked.slice(0, a) + " ".repeat(b - a) + masked.slice(b);
  };
  for (const [a, b] of mentionSpans(text)) blank(a, b);
  // Code spans, paths and URLs (`memory/2025-11-27.md`) cite things; they do not date the fact.
  for (const m of text.matchAll(/`[^`]*`|\S*[\p{L}][^\s/]*\/\S*|\S*\/\S*\p{L}\S*/gu))
    blank(m.index, m.index + m[0].length);
  masked = expandDayRanges(masked);
  const [y, m, d] = logDate.split("-").map(Number) as [number, number, number];
  const instant = new Date(Date.UTC(y, m - 1, d, 12));
  let results: ParsedResult[];
  try {
    results = chrono.parse(masked, { instant, timezone: 0 });
  } catch {
    return {}; // chrono is a best-effort reader; a failure means "no date", never a lost fact
  }
  const out: Validity = {};
  for (const r of results) {
    if (/^(?:right\s+)?now$/i.test(r.text.trim())) continue; // "now" is the log date: it adds nothing
    const before = masked.slice(0, r.index);
    const from = bound(r.start, "start");
    if (r.end) {
      const to = bound(r.end, "end");
      if (from === undefined || to === undefined) continue;
      if (out.validFrom === undefined && out.validTo === undefined) return { validFrom: from, validTo: to };
      continue;
    }
    if (from === undefined) continue;
    if (SINCE.test(before)) {
      out.validFrom ??= from;
      continue;
    }
    if (UNTIL.test(before)) {
      out.validTo ??= bound(r.start, "end");
      continue;
    }
    if (out.validFrom === undefined && out.validTo === undefined) {
      return { validFrom: from, validTo: bound(r.start, "end") ?? from };
    }
  }
  return out;
}
