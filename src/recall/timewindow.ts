import type { ParsedResult } from "chrono-node";
import { MONTH_NAME, maskWeekdayLabels, WEEKDAY_NAME } from "../analysis/time-words.js";
import { chronoEn } from "../retain/chrono.js";
import { toCount } from "../retain/date-phrases.js";
import { AROUND_DAYS, addDays, endOfMonth, mondayOf, monthNumber, pastYear, utc, weekdayOnOrAfter } from "./days.js";
import { holidayIn, holidayWindow } from "./holidays.js";
import { partOfMonth } from "./month-part.js";
import { mayHoldTimeWord } from "./time-gate.js";

/** An inclusive window of days, YYYY-MM-DD. An open end is left out. */
export interface TimeWindow {
  from?: string;
  to?: string;
  /** The words of the query the window came from ("around March 12", "since last week"). */
  text: string;
  /**
   * Only a vague word named the time ("recently", "lately"): a hint to prefer newer
   * matches, not a boundary (the newest mention of "blogging" may be months old).
   */
  vague?: true;
  /**
   * A part of a month ("late April", month-part.ts): the whole month. The part's days rank
   * first; a result elsewhere in the month is not outside the window (a log may place the
   * day loosely, or report it a week later).
   */
  month?: { from: string; to: string };
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

type Span = { from?: Date; to?: Date; index: number; text: string; month?: { from: Date; to: Date } };

/** "last 3 days", "past two weeks", "the last few months", "in the past year": asOf minus N units .. asOf. */
function lastN(query: string, asOf: Date): Span | undefined {
  const m =
    /\b(?:the\s+)?(?:last|past|previous)\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|few|couple(?:\s+of)?)\s+(days?|weeks?|months?|years?)\b/i.exec(
      query,
    ) ??
    // "in the last year" is the rolling year; "last year" alone is the calendar year (chrono's).
    /\b(?:in|over|during|within)\s+the\s+(?:last|past)\s+()(day|week|month|year)\b(?!\s+of\b)/i.exec(query);
  if (!m) return undefined;
  const raw = m[1]!.toLowerCase().replace(/\s+of$/, "");
  const n = raw === "" ? 1 : toCount(raw);
  const unit = m[2]!.toLowerCase();
  const days = unit.startsWith("day")
    ? n
    : unit.startsWith("week")
      ? 7 * n
      : unit.startsWith("month")
        ? 30 * n
        : 365 * n;
  return { from: addDays(asOf, -days), to: asOf, index: m.index, text: m[0] };
}

const ORDINALS: Record<string, number> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
};

/** The Saturday on or after a date. */
const saturdayFrom = (date: Date): Date => weekdayOnOrAfter(date, 6);

/** "the first weekend of August 2023", "the last week of October": chrono reads these loosely. */
function weekOfMonth(query: string, asOf: Date): Span | undefined {
  const m =
    /\b(?:the\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(week|weekend)\s+(?:of|in)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:,?\s+((?:19|20)\d{2}))?\b/i.exec(
      query,
    );
  if (!m) return undefined;
  const mo = monthNumber(m[3]!);
  const y = m[4] ? Number(m[4]) : pastYear(mo, asOf);
  const last = m[1]!.toLowerCase() === "last";
  const nth = ORDINALS[m[1]!.toLowerCase()] ?? 1;
  let from: Date;
  let to: Date;
  if (m[2]!.toLowerCase() === "weekend") {
    const firstSat = saturdayFrom(utc(y, mo, 1));
    from = last ? saturdayFrom(addDays(endOfMonth(y, mo), -6)) : addDays(firstSat, 7 * (nth - 1));
    to = addDays(from, 1);
  } else {
    from = last ? addDays(endOfMonth(y, mo), -6) : utc(y, mo, 1 + 7 * (nth - 1));
    to = last ? endOfMonth(y, mo) : addDays(from, 6);
  }
  return { from, to, index: m.index, text: m[0] };
}

/** "the day before March 3", "the weekend after 4th October, 2023", "the week before August 3". */
function relativeTo(query: string, asOf: Date): Span | undefined {
  const m = /\b(?:the\s+)?(day|night|week|weekend)\s+(before|after)\s+/i.exec(query);
  if (!m) return undefined;
  const rest = query.slice(m.index + m[0].length);
  const anchor = anchorDay(rest, asOf);
  if (!anchor) return undefined;
  const x = anchor.day;
  const unit = m[1]!.toLowerCase();
  const after = m[2]!.toLowerCase() === "after";
  let from: Date;
  if (unit === "week") from = after ? addDays(x, 1) : addDays(x, -7);
  else if (unit === "weekend") from = after ? saturdayFrom(addDays(x, 1)) : saturdayFrom(addDays(x, -7));
  else from = addDays(x, after ? 1 : -1);
  const to = unit === "week" ? addDays(from, 6) : unit === "weekend" ? addDays(from, 1) : from;
  return { from, to, index: m.index, text: query.slice(m.index, m.index + m[0].length + anchor.length) };
}

/** The day a "before"/"after" phrase counts from, at the start of `rest`: a holiday or a date chrono reads to the day. */
function anchorDay(rest: string, asOf: Date): { day: Date; length: number } | undefined {
  // "the day after Boxing Day", "the week before the bank holiday".
  const lead = /^the\s+/iu.exec(rest)?.[0].length ?? 0;
  const h = holidayIn(rest.slice(lead), asOf);
  if (h?.index === 0) return { day: h.day, length: lead + h.text.length };
  const r = chronoEn().parse(rest, { instant: asOf, timezone: 0 }, { forwardDate: false })[0];
  if (r?.index !== 0 || !r.start.isCertain("day")) return undefined;
  const c = r.start;
  const mo = c.get("month") ?? 1;
  const y = c.isCertain("year") ? (c.get("year") ?? asOf.getUTCFullYear()) : pastYear(mo, asOf);
  return { day: utc(y, mo, c.get("day") ?? 1), length: r.text.length };
}

/**
 * "last weekend", "this weekend", "over the weekend": Saturday and Sunday (chrono reads one
 * day). Weeks run Monday to Sunday, as for "last week": "this weekend" is the one of asOf's
 * week, "last" the one before, "next" the one after; a bare "the weekend" is the latest one
 * begun by asOf (recall asks about the past). Anchored weekends ("the first weekend of
 * August", "the weekend after May 3") are read by the rules above first.
 */
function weekend(query: string, asOf: Date): Span | undefined {
  const today = utc(asOf.getUTCFullYear(), asOf.getUTCMonth() + 1, asOf.getUTCDate());
  const thisSat = addDays(mondayOf(today), 5);
  // "two weekends ago", "the weekend before last": counted back from this week's, as "last weekend" is one back.
  const back =
    /\b(\d{1,2}|a\s+couple\s+of|couple\s+of|two|three|four|five|six|seven|eight|nine|ten)\s+weekends\s+ago\b/i.exec(
      query,
    ) ?? /\b(?:the\s+)?weekend\s+before\s+()last\b/i.exec(query);
  if (back) {
    const from = addDays(thisSat, -7 * (back[1] === "" ? 2 : toCount(back[1]!.toLowerCase())));
    return { from, to: addDays(from, 1), index: back.index, text: back[0] };
  }
  // "the weekend", "last weekend"; not "a recent weekend" (vague) or "weekends" (a habit).
  const m =
    /\b(?:(?:over|at|on|during)\s+)?(?:the\s+(?:(?:past|previous|coming)\s+)?|(?:last|past|previous|this|next|coming)\s+)weekend\b/i.exec(
      query,
    );
  if (!m) return undefined;
  const begun = today.getTime() >= thisSat.getTime();
  const which = /\b(last|past|previous|this|next|coming)\s+weekend/i.exec(m[0])?.[1]?.toLowerCase();
  const from =
    which === "this"
      ? thisSat
      : which === "next"
        ? addDays(thisSat, 7)
        : which === "coming"
          ? addDays(thisSat, begun ? 7 : 0)
          : which
            ? addDays(thisSat, -7)
            : addDays(thisSat, begun ? 0 : -7);
  return { from, to: addDays(from, 1), index: m.index, text: m[0] };
}

/** How far back "recently" reaches. */
const VAGUE_DAYS = 14;

/**
 * "recently", "lately", "these days", and "now" or "currently" ("what's Sanna's job now?"
 * asks for the latest state, not for today's log): the last two weeks, as a hint. "From now"
 * and "until now" are no such hint.
 */
function vague(query: string, asOf: Date): Span | undefined {
  const m =
    /\b(recently|lately|these days|nowadays|currently|this past week|in a recent \w+|(?<!\b(?:from|until|till|by|up to)\s+)(?:right\s+)?now)\b/i.exec(
      query,
    );
  if (!m) return undefined;
  return { from: addDays(asOf, -VAGUE_DAYS), to: asOf, index: m.index, text: m[0] };
}

/** Bare years ("in 2025", "during 2024"), which chrono leaves alone. */
function bareYear(query: string): Span | undefined {
  const m = /\b(?:in|during|of|for|throughout)\s+((?:19|20)\d{2})\b(?![-/.:]\d)/i.exec(query);
  if (!m) return undefined;
  const y = Number(m[1]);
  return { from: utc(y, 1, 1), to: utc(y, 12, 31), index: m.index, text: m[0] };
}

/**
 * Could chrono find a date in this text? A cheap superset of what its English parsers
 * match in words as people separate them (spaces, punctuation): every result holds a digit,
 * a month or weekday name, a casual day or time word, a time unit word, or a number word
 * or "next"/"last" before a unit ("a few d", "next h"). A question with none ("what does Mara prefer?")
 * is answered without loading chrono (~50 files) or running its ~30 patterns, whose first
 * run in a process costs tens of milliseconds. Broader than retain's MAYBE_DATE
 * (dates.ts), which leaves out "now" and hours on purpose.
 */
const REL = String.raw`(?:(?:this|last|past|next|after)\s*)?`;
// "half" may carry a glued article, as in chrono ("half am": half a minute).
const NUMBER_WORD = String.raw`(?:an?\b|the|few|several|half(?:\s*an?)?|couple|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
// chrono's unit words and abbreviations ("3 hrs", "a few d ago").
const UNIT =
  "(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|mo|mon|mos|months?|qtr|quarters?|y|yrs?|years?)";
export const MAY_NAME_TIME = new RegExp(
  [
    String.raw`\d`,
    String.raw`\b${MONTH_NAME}\b`,
    String.raw`\b${WEEKDAY_NAME}\b`,
    String.raw`\b${REL}(?:now|today|tonight|tmrw?|tomorrow|overmorrow|yesterday|night|noon|midday|midnight|morning|afternoon|evening)\b`,
    String.raw`\b${REL}(?:second|minute|hour|day|week|fortnight|month|quarter|year)`,
    String.raw`(?:\b${NUMBER_WORD}|\b(?:this|last|past|next|after)|[+-])\s*${UNIT}(?:ago|before|earlier|later|after|from|henceforth|forward|out)?\b`,
  ].join("|"),
  "i",
);

export function mayNameTime(text: string): boolean {
  // The word pre-check first: most questions without a time are turned away before the pattern is compiled.
  return mayHoldTimeWord(text) && MAY_NAME_TIME.test(text);
}

/** The span one chrono result covers, at the granularity the words imply (day, week, month). */
function spanOf(r: ParsedResult, query: string, asOf: Date): Span | undefined {
  const text = r.text.toLowerCase();
  // A bare number or a time of day is not a date ("batch of 500", "at 3pm").
  const c = r.start;
  const dateKnown = c.isCertain("day") || c.isCertain("month") || c.isCertain("year") || c.isCertain("weekday");
  const relative = /\b(yesterday|today|tonight|tomorrow|ago|last|this|next|past|week|month|year)\b/.test(text);
  if (!dateKnown && !relative) return undefined;
  if (!/\p{L}/u.test(text) && !/^\d{4}-\d{2}-\d{2}$|^\d{1,2}\/\d{1,2}(?:\/\d{2,4})?$/.test(text)) return undefined;

  const mo = c.get("month") ?? 1;
  const d = c.get("day") ?? 1;
  let y = c.get("year") ?? asOf.getUTCFullYear();
  // Recall asks about the past: a month or day named without a year ("in March", "on March 12")
  // is the latest one on or before asOf, not the nearest one, which chrono may put next year.
  if (!c.isCertain("year") && c.isCertain("month") && !/\b(next|tomorrow|coming)\b/.test(text)) {
    while (utc(y, mo, c.isCertain("day") ? d : 1) > asOf) y -= 1;
    while (utc(y + 1, mo, c.isCertain("day") ? d : 1) <= asOf) y += 1;
  }
  let from = utc(y, mo, d);
  let to = from;
  if (/\bweek\b/.test(text)) {
    from = mondayOf(from);
    to = addDays(from, 6);
  } else if (/\byear\b/.test(text) || (c.isCertain("year") && !c.isCertain("month") && !c.isCertain("day"))) {
    from = utc(y, 1, 1);
    to = utc(y, 12, 31);
  } else if (/\bmonth\b/.test(text) || (c.isCertain("month") && !c.isCertain("day"))) {
    from = utc(y, mo, 1);
    to = endOfMonth(y, mo);
  }
  if (r.end) {
    const e = r.end;
    const em = e.get("month") ?? mo;
    // An end without its own year follows the start ("Dec 28 to Jan 3" ends the year after).
    const ey = e.isCertain("year") ? (e.get("year") ?? y) : em < mo ? y + 1 : y;
    to = e.isCertain("day") ? utc(ey, em, e.get("day") ?? 1) : endOfMonth(ey, em);
  }
  let index = r.index;
  let spanText = r.text;
  const before = query.slice(0, r.index).toLowerCase();
  const prefix =
    /\b(around|about|near|circa|approximately|roughly|week of|since|after|from|before|until|till|up to|as of|by|on|in|during)\s*(?:the\s+)?$/.exec(
      before,
    );
  const word = prefix?.[1];
  if (prefix) {
    index = r.index - prefix[0].length;
    spanText = query.slice(index, r.index + r.text.length);
  }
  if (word === "week of") {
    to = addDays(from, 6);
  } else if (word && ["around", "about", "near", "circa", "approximately", "roughly"].includes(word)) {
    from = addDays(from, -AROUND_DAYS);
    to = addDays(to, AROUND_DAYS);
  } else if (word === "since" || word === "after" || word === "from") {
    return { from, to: asOf > from ? asOf : to, index, text: spanText };
  } else if (word && ["before", "until", "till", "up to", "as of", "by"].includes(word)) {
    return { to, index, text: spanText };
  }
  return { from, to, index, text: spanText };
}

/**
 * The time window a question asks about, relative to `asOf` (chrono-node for the
 * phrases, a few rules for what it leaves open), or undefined when it names no time.
 * Several phrases ("between March 2 and March 5") widen to one window covering all.
 */
export function parseTimeWindow(query: string, asOf: Date): TimeWindow | undefined {
  const spans: Span[] = [];
  let fuzzy: Span | undefined;
  const counted = lastN(query, asOf);
  if (counted) spans.push(counted);
  else {
    // Phrases chrono reads loosely come first; their words are masked so chrono skips them.
    // "the evening of 7 July": chrono leaves the date uncertain behind a part of the day.
    let masked = query.replace(/\b(?:the\s+)?(?:morning|afternoon|evening|night)\s+of\b/gi, (m) =>
      " ".repeat(m.length),
    );
    masked = maskWeekdayLabels(masked);
    // holidayWindow: "on Good Friday", "the early May bank holiday" (holidays.ts), before
    // partOfMonth: "late April" (month-part.ts).
    for (const rule of [weekOfMonth, relativeTo, holidayWindow, partOfMonth, weekend, vague]) {
      const s = rule(masked, asOf);
      if (!s) continue;
      if (rule === vague) fuzzy = s;
      else spans.push(s);
      masked = masked.slice(0, s.index) + " ".repeat(s.text.length) + masked.slice(s.index + s.text.length);
    }
    const results = mayNameTime(masked)
      ? chronoEn().parse(masked, { instant: asOf, timezone: 0 }, { forwardDate: false })
      : [];
    for (const r of results) {
      const s = spanOf(r, masked, asOf);
      if (s) spans.push(s);
    }
    if (spans.length === 0) {
      const y = bareYear(query);
      if (y) spans.push(y);
    }
  }
  // "recently" counts only when nothing more precise names the time ("recently, on 3 June").
  if (spans.length > 0) fuzzy = undefined;
  else if (fuzzy) spans.push(fuzzy);
  if (spans.length === 0) return undefined;
  const froms = spans.map((s) => s.from).filter((d): d is Date => d !== undefined);
  const tos = spans.map((s) => s.to).filter((d): d is Date => d !== undefined);
  const open = spans.some((s) => s.from === undefined);
  const openEnd = spans.some((s) => s.to === undefined);
  const first = Math.min(...spans.map((s) => s.index));
  const last = Math.max(...spans.map((s) => s.index + s.text.length));
  const window: TimeWindow = { text: query.slice(first, last) };
  if (!open && froms.length > 0) window.from = isoDay(new Date(Math.min(...froms.map((d) => d.getTime()))));
  if (!openEnd && tos.length > 0) window.to = isoDay(new Date(Math.max(...tos.map((d) => d.getTime()))));
  if (fuzzy) window.vague = true;
  const month = spans.length === 1 ? spans[0]!.month : undefined;
  if (month) window.month = { from: isoDay(month.from), to: isoDay(month.to) };
  return window;
}

/**
 * Logs report the past: the note of March 13 tells what happened "yesterday". A window's
 * log lines are therefore looked for up to this many days after it ends.
 */
export const REPORT_LAG_DAYS = 2;

/** A window at its month's bounds when it is a part of a month ("late April" -> April), else itself. */
export function monthBounds(w: TimeWindow): TimeWindow {
  return w.month ? { ...w, ...w.month } : w;
}

/**
 * The window that log lines about a closed window `w` fall in: the same start, the end
 * `lagDays` later (the chat profile's rule, profile.ts; plain logs: 0, the window itself).
 */
export function reportedWindow<T extends Pick<TimeWindow, "from" | "to">>(w: T, lagDays = REPORT_LAG_DAYS): T {
  // "Before March 2" and "as of May" bound what was known then: a later report is past that bound.
  if (!w.to || !w.from || lagDays <= 0) return w;
  return { ...w, to: isoDay(addDays(new Date(`${w.to}T00:00:00Z`), lagDays)) };
}

/**
 * "Recently" when the last log is older than the vague window: the last two weeks of logs
 * there are (an agent asked after a quiet month means its latest weeks, not an empty range).
 */
export function anchorVague(w: TimeWindow, newestLogDay: string | undefined): TimeWindow {
  if (!w.vague || !newestLogDay || !w.from || newestLogDay >= w.from) return w;
  const to = new Date(`${newestLogDay}T00:00:00Z`);
  return { ...w, from: isoDay(addDays(to, -VAGUE_DAYS)), to: newestLogDay };
}

/** Does a fact or log dated `date` (optionally valid `validFrom..validTo`) overlap the window? */
export function overlapsWindow(
  window: Pick<TimeWindow, "from" | "to">,
  date: string,
  validFrom?: string,
  validTo?: string,
): boolean {
  const start = validFrom && validFrom < date ? validFrom : date;
  const end = validTo && validTo > date ? validTo : date;
  if (window.from && end < window.from) return false;
  if (window.to && start > window.to) return false;
  return true;
}
