/**
 * Holidays a question names ("over Easter", "on Good Friday", "the week before Christmas",
 * "New Year's Eve"), which chrono leaves alone or misreads ("Easter Monday" as last Monday).
 * Each has its principal day (what "the day after Christmas" counts from) and the days
 * people mean by it ("over Christmas": 24-26 December; "Easter": Good Friday to Easter
 * Monday); the feasts counted from Easter (Shrove Tuesday to Whit Monday) are one day each.
 * The bank holidays of England and Wales are days too: a named one ("the August bank
 * holiday"), or "the bank holiday" alone, the latest begun by asOf.
 * Without a year, the latest one begun by asOf: recall asks about the past. A season is read
 * only as the anchor of "the week before Easter" (timewindow.ts).
 */

import { addDays, endOfMonth, mondayOf, utc, weekdayOnOrAfter } from "./days.js";

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(y: number): Date {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utc(y, month, day);
}

interface Days {
  day: Date;
  from: Date;
  to: Date;
  /** A season of several days ("Easter", "Christmas"): in a question more often the topic ("staying for Easter", "the Christmas plans") than a window. */
  season?: true;
}

const one = (day: Date): Days => ({ day, from: day, to: day });
const easter = (y: number, offset: number) => one(addDays(easterSunday(y), offset));

/** The first Monday of month `m` (1-12). */
const firstMonday = (y: number, m: number): Date => weekdayOnOrAfter(utc(y, m, 1), 1);

/** The last Monday of month `m` (1-12). */
const lastMonday = (y: number, m: number): Date => mondayOf(endOfMonth(y, m));

const onWeekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;

/** The weekdays off for fixed-date holidays, in order: each on its day, or the next free weekday. */
function observed(days: readonly Date[]): Date[] {
  const taken: number[] = [];
  for (const day of days) {
    let d = day;
    while (onWeekend(d) || taken.includes(d.getTime())) d = addDays(d, 1);
    taken.push(d.getTime());
  }
  return taken.map((t) => new Date(t));
}

/**
 * The bank holidays of England and Wales in year `y`, in date order (gov.uk's rules;
 * Scotland's and Northern Ireland's own days are left out): New Year's Day, Good Friday,
 * Easter Monday, the early May (first Monday of May), spring (last Monday of May) and summer
 * (last Monday of August) bank holidays, Christmas Day and Boxing Day; a fixed day on a
 * weekend is taken on the next free weekday (the "substitute day"). One-off moves (VE Day
 * 2020, the 2022 Jubilee) follow no rule and are not here.
 */
function bankHolidays(y: number): Date[] {
  const easter = easterSunday(y);
  return [
    ...observed([utc(y, 1, 1)]),
    addDays(easter, -2),
    addDays(easter, 1),
    firstMonday(y, 5),
    lastMonday(y, 5),
    lastMonday(y, 8),
    ...observed([utc(y, 12, 25), utc(y, 12, 26)]),
  ].sort((a, b) => a.getTime() - b.getTime());
}

/** The latest of `days` not after asOf, or undefined. */
const latest = (days: readonly Date[], asOf: Date): Days | undefined => {
  const d = days.filter((x) => x.getTime() <= asOf.getTime()).at(-1);
  return d && one(d);
};

const BANK = String.raw`bank\s+holiday(?:\s+(?:monday|weekend))?`;

/**
 * Longer names first: "Easter Monday" before "Easter", "Christmas Eve" before "Christmas".
 * A rule given asOf may name no day in a year ("the bank holiday" of a year none of whose
 * bank holidays has begun): the year before is asked.
 */
const HOLIDAYS: readonly [string, (y: number, asOf: Date) => Days | undefined][] = [
  // UK bank holidays (England and Wales): a named one, or the latest begun ("the last bank holiday").
  [String.raw`(?:early\s+may|may\s+day)\s+${BANK}|may\s+day`, (y) => one(firstMonday(y, 5))],
  [String.raw`(?:spring|late\s+may|whitsun)\s+${BANK}`, (y) => one(lastMonday(y, 5))],
  [String.raw`(?:summer|august)\s+${BANK}`, (y) => one(lastMonday(y, 8))],
  [String.raw`may\s+${BANK}`, (y, asOf) => latest([firstMonday(y, 5), lastMonday(y, 5)], asOf)],
  [
    String.raw`bank\s+holiday\s+monday`,
    (y, asOf) =>
      latest(
        bankHolidays(y).filter((d) => d.getUTCDay() === 1),
        asOf,
      ),
  ],
  [BANK, (y, asOf) => latest(bankHolidays(y), asOf)],
  [String.raw`good\s+friday`, (y) => easter(y, -2)],
  [String.raw`(?:easter|holy)\s+saturday`, (y) => easter(y, -1)],
  [String.raw`easter\s+(?:sunday|day)`, (y) => easter(y, 0)],
  [String.raw`easter\s+monday`, (y) => easter(y, 1)],
  [
    String.raw`easter(?:\s+(?:weekend|holidays?|break))?`,
    (y) => ({
      day: easterSunday(y),
      from: addDays(easterSunday(y), -2),
      to: addDays(easterSunday(y), 1),
      season: true,
    }),
  ],
  // The feasts counted from Easter: named days in the calendars of much of Europe.
  [String.raw`shrove\s+tuesday|pancake\s+day`, (y) => easter(y, -47)],
  [String.raw`ash\s+wednesday`, (y) => easter(y, -46)],
  [String.raw`mothering\s+sunday`, (y) => easter(y, -21)],
  [String.raw`palm\s+sunday`, (y) => easter(y, -7)],
  [String.raw`maundy\s+thursday`, (y) => easter(y, -3)],
  [String.raw`ascension(?:\s+day)?`, (y) => easter(y, 39)],
  [String.raw`whit\s*monday|pentecost\s+monday`, (y) => easter(y, 50)],
  [String.raw`whit\s*sun(?:day)?|pentecost(?:\s+sunday)?`, (y) => easter(y, 49)],
  [String.raw`(?:christmas|xmas)\s+eve`, (y) => one(utc(y, 12, 24))],
  [String.raw`(?:christmas|xmas)\s+day`, (y) => one(utc(y, 12, 25))],
  [String.raw`boxing\s+day`, (y) => one(utc(y, 12, 26))],
  ["christmas|xmas", (y) => ({ day: utc(y, 12, 25), from: utc(y, 12, 24), to: utc(y, 12, 26), season: true })],
  [String.raw`new\s+year['’]?s\s+eve`, (y) => one(utc(y, 12, 31))],
  [String.raw`new\s+year['’]?s(?:\s+day)?`, (y) => one(utc(y, 1, 1))],
  ["hall[o']?we['’]?en", (y) => one(utc(y, 10, 31))],
  [String.raw`valentine['’]?s(?:\s+day)?`, (y) => one(utc(y, 2, 14))],
];

const HOLIDAY = new RegExp(
  String.raw`\b(?:${HOLIDAYS.map(([re]) => `(${re})`).join("|")})(?:,?\s+((?:19|20)\d{2}))?\b`,
  "iu",
);

/**
 * A holiday as the time a question asks about: one day ("on Good Friday", "Christmas Eve"),
 * not a season ("over Easter": often the topic of plans written weeks before) and not an
 * occasion ("what did I get for Valentine's Day?").
 */
export function holidayWindow(text: string, asOf: Date): HolidaySpan | undefined {
  const h = holidayIn(text, asOf);
  if (!h || h.season || /\bfor\s+(?:the\s+)?$/iu.test(text.slice(0, h.index))) return undefined;
  return h;
}

/** "The bank holiday weekend": a Monday's Saturday to Monday, a Friday's Friday to Sunday. */
function longWeekend(d: Days, text: string): Days {
  if (!/\bweekend\b/iu.test(text) || d.from.getTime() !== d.to.getTime()) return d;
  const dow = d.day.getUTCDay();
  if (dow === 1) return { ...d, from: addDays(d.day, -2) };
  if (dow === 5) return { ...d, to: addDays(d.day, 2) };
  return d;
}

export interface HolidaySpan extends Days {
  index: number;
  text: string;
}

/** The first holiday named in `text` and its days, or undefined. */
export function holidayIn(text: string, asOf: Date): HolidaySpan | undefined {
  const m = HOLIDAY.exec(text);
  if (!m) return undefined;
  const which = HOLIDAYS.findIndex((_, i) => m[i + 1] !== undefined);
  const days = HOLIDAYS[which]![1];
  const year = m[HOLIDAYS.length + 1];
  let found = days(year ? Number(year) : asOf.getUTCFullYear(), asOf);
  if (!year && (!found || found.from.getTime() > asOf.getTime())) found = days(asOf.getUTCFullYear() - 1, asOf);
  if (!found) return undefined;
  return { ...longWeekend(found, m[0]), index: m.index, text: m[0] };
}
