import type { ParsedComponents, ParsedResult } from "chrono-node";
import { MONTH_NAME, maskWeekdayLabels, WEEKDAY_NAME } from "../analysis/time-words.js";
import { isIsoDate } from "../markdown/log-path.js";
import { MembankError } from "../workspace/errors.js";
import { chronoParse } from "./chrono.js";
import {
  addPeriod,
  clauses,
  findDurations,
  findMonthDays,
  isFutureClause,
  isPastClause,
  monthDayDate,
  weekdayDirection,
} from "./date-phrases.js";
import { mentionSpans } from "./entities.js";

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function ymd(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** UTC date string of `now` shifted by `days`. */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return ymd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/**
 * A `--since` value: a date `YYYY-MM-DD`, or an age like `7d` / `2w` counted back from
 * `today` (the workspace's day, `workspaceDay`: where its person lives, not UTC's).
 * Throws MembankError (exit code 2) with the accepted forms otherwise.
 */
export function parseSinceDate(value: string, today: string, flag = "--since"): string {
  const v = value.trim();
  if (isIsoDate(v)) return v;
  const rel = /^(\d+)\s*([dw])$/i.exec(v);
  if (rel) {
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
    String.raw`\b${MONTH_NAME}\b`,
    String.raw`\b${WEEKDAY_NAME}\b`,
    String.raw`\b(?:today|tomorrow|yesterday|tonight|weekend|fortnight)\b|\b(?:weeks?|months?|years?|days?)\b`,
    String.raw`\b(?:1[89]|2\d)\d\d\b|\d[-/.]\d|\d(?:st|nd|rd|th)\b`,
  ].join("|"),
  "i",
);
// A start ("since Mar 9", "starting Monday", "effective Mar 9") or an end ("until Friday") written before a date.
const SINCE =
  /\b(?:since|from|as\s+of|effective|commencing|(?:starts?|started|starting|begins?|began|beginning|kicks?\s+off|kicking\s+off)(?:\s+(?:on|from|in))?)\s*(?:the\s+)?(?:(?:very\s+)?(?:start|beginning|end|middle)\s+of\s+)?$/i;
const UNTIL =
  /\b(?:until|till|til|through|thru|up\s+to|(?:ends?|ending)(?:\s+on)?)\s*(?:the\s+)?(?:(?:very\s+)?(?:start|beginning|end|middle)\s+of\s+)?$/i;
// "after three weeks": time that had passed when something was seen, unless the clause plans ahead.
const ELAPSED = /^after\s+\S+\s+(?:days?|weeks?|fortnights?|months?|years?)$/i;
// A start written after the date: "Mar 9 onwards", "Mar 9 and after".
const SINCE_AFTER = /^\s*(?:onwards?|and\s+(?:after|later|beyond)|forward)\b/i;
// A weekday chrono resolved itself because it was qualified ("next Monday", "last Fri").
const QUALIFIED = /\b(?:last|next|this|past|coming|previous|following)\b/i;

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

interface Found {
  kind: "range" | "since" | "until" | "single";
  from: string;
  to: string;
  clause: number;
  at: number;
}

/** The date of a bare weekday seen from the log date: the coming one (today included) or the one just past. */
function weekdayDate(logDate: string, weekday: number, direction: "forward" | "back"): string {
  const [y, m, d] = logDate.split("-").map(Number) as [number, number, number];
  const today = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return shiftDate(logDate, direction === "forward" ? (weekday - today + 7) % 7 : -((today - weekday + 7) % 7));
}

/**
 * Dates written in a fact's text, relative to the log's date (read at noon UTC so no time
 * zone moves it across midnight). The fact's own date is always the log's date; this is
 * its validity. Rules, strongest first:
 * - a range ("Nov 27–Dec 1") sets validFrom and validTo (a month or year spans its days);
 * - a start ("since X", "starting X", "X onwards") sets only validFrom, an end ("until X") only validTo;
 * - a duration counts from the start, else from the log date (back from it in the past tense): "starting Mar 9 for a month"
 *   is Mar 9..Apr 9, "for the next 18 months" is the log date..+18 months, "the past 2 weeks"
 *   ends at the log date;
 * - else the first single date, as a one-day (or one-month, one-year) range.
 * A bare weekday ("Monday's digest") is the coming one, unless its clause is in the past tense
 * ("on Monday we shipped"). A past-tense report ("Shipped the fix today; next review on the
 * 14th") is not dated by a future date in a later clause: the 14th is another event's date.
 * `@Mentions` are masked first (`@May` is a person, not a month).
 */
export function extractValidity(text: string, logDate: string): Validity {
  if (!MAYBE_DATE.test(text)) return {};
  let masked = text;
  // A bar, not only spaces: chrono reads "9 March <spaces> Jonas" as the whole month.
  const filler = (n: number) => (n > 0 ? `|${" ".repeat(n - 1)}` : "");
  const blank = (a: number, b: number) => {
    masked = masked.slice(0, a) + filler(b - a) + masked.slice(b);
  };
  for (const [a, b] of mentionSpans(text)) blank(a, b);
  // "his Friday 1:1", "the Saturday shift": a kind of thing, not a day.
  masked = maskWeekdayLabels(masked);
  // Code spans, paths and URLs (`memory/2025-11-27.md`) cite things; they do not date the fact.
  for (const m of text.matchAll(/`[^`]*`|\S*[\p{L}][^\s/]*\/\S*|\S*\/\S*\p{L}\S*/gu))
    blank(m.index, m.index + m[0].length);
  masked = expandDayRanges(masked);
  const spans = clauses(masked);
  const clauseAt = (i: number) =>
    Math.max(
      0,
      spans.findIndex(([a, b]) => i >= a && i < b),
    );
  const clauseText = (c: number) => masked.slice(spans[c]![0], spans[c]![1]);
  // A past-tense main clause reports an event of the log's day; later clauses may name other, future events.
  const pastReport = spans.length > 1 && weekdayDirection(clauseText(0)) === "back";
  const durations = findDurations(masked).filter((d) => !(pastReport && clauseAt(d.index) > 0));
  const cleaned = durations.reduce(
    (t, d) => t.slice(0, d.index) + filler(d.length) + t.slice(d.index + d.length),
    masked,
  );
  const [y, m, d] = logDate.split("-").map(Number) as [number, number, number];
  const instant = new Date(Date.UTC(y, m - 1, d, 12));
  let results: ParsedResult[] = [];
  // The same gate on what chrono would read: a date-like word inside an @mention, a path
  // (`memory/2025-11-27.md`) or a duration is masked above, and chrono costs ~0.2 ms a call.
  if (MAYBE_DATE.test(cleaned)) {
    try {
      results = chronoParse(cleaned, { instant, timezone: 0 });
    } catch {
      return {}; // chrono is a best-effort reader; a failure means "no date", never a lost fact
    }
  }
  const found: Found[] = [];
  for (const r of results) {
    if (/^(?:right\s+)?now$/i.test(r.text.trim())) continue; // "now" is the log date: it adds nothing
    const clause = clauseAt(r.index);
    if (ELAPSED.test(r.text.trim()) && !isFutureClause(clauseText(clause))) continue;
    const before = cleaned.slice(0, r.index);
    const after = cleaned.slice(r.index + r.text.length);
    let from = bound(r.start, "start");
    let to = bound(r.start, "end");
    const weekday = r.start.get("weekday");
    if (!r.end && weekday !== null && !r.start.isCertain("day") && !QUALIFIED.test(r.text)) {
      from = to = weekdayDate(logDate, weekday, weekdayDirection(clauseText(clause)));
    }
    if (r.end) {
      const end = bound(r.end, "end");
      if (from !== undefined && end !== undefined) found.push({ kind: "range", from, to: end, clause, at: r.index });
      continue;
    }
    if (from === undefined || to === undefined) continue;
    const kind = SINCE.test(before) || SINCE_AFTER.test(after) ? "since" : UNTIL.test(before) ? "until" : "single";
    found.push({ kind, from, to, clause, at: r.index });
  }
  for (const x of findMonthDays(cleaned)) {
    if (results.some((r) => x.index < r.index + r.text.length && r.index < x.index + x.length)) continue;
    const clause = clauseAt(x.index);
    const date = monthDayDate(logDate, x.day, weekdayDirection(clauseText(clause)));
    if (date === undefined) continue;
    const before = cleaned.slice(0, x.index);
    const kind = SINCE.test(before) ? "since" : UNTIL.test(before) ? "until" : "single";
    found.push({ kind, from: date, to: date, clause, at: x.index });
  }
  found.sort((a, b) => a.at - b.at);
  const kept = found.filter((f) => !(pastReport && f.clause > 0 && f.from > logDate));
  const range = kept.find((f) => f.kind === "range");
  if (range) return { validFrom: range.from, validTo: range.to };
  const since = kept.find((f) => f.kind === "since")?.from;
  const until = kept.find((f) => f.kind === "until")?.to;
  const single = kept.find((f) => f.kind === "single");
  const span = durations[0];
  if (span) {
    if (span.kind === "past") return { validFrom: addPeriod(logDate, -span.count, span.unit), validTo: logDate };
    const anchor = since ?? single?.from;
    // "Was off sick for a week", with no start named, is the week that ended on the log's day.
    if (anchor === undefined && span.kind === "for" && isPastClause(clauseText(clauseAt(span.index))))
      return { validFrom: addPeriod(logDate, -span.count, span.unit), validTo: logDate };
    if (anchor === undefined) return { validFrom: logDate, validTo: addPeriod(logDate, span.count, span.unit) };
    return { validFrom: anchor, validTo: addPeriod(anchor, span.count, span.unit) };
  }
  if (since !== undefined || until !== undefined) {
    return { ...(since !== undefined ? { validFrom: since } : {}), ...(until !== undefined ? { validTo: until } : {}) };
  }
  return single ? { validFrom: single.from, validTo: single.to } : {};
}
