/**
 * Holidays a question names ("over Easter", "on Good Friday", "the week before Christmas",
 * "New Year's Eve"), which chrono leaves alone or misreads ("Easter Monday" as last Monday).
 * Each has its principal day (what "the day after Christmas" counts from) and the days
 * people mean by it ("over Christmas": 24-26 December; "Easter": Good Friday to Easter
 * Monday); the feasts counted from Easter (Shrove Tuesday to Whit Monday) are one day each.
 * Without a year, the latest one begun by asOf: recall asks about the past. A season is read
 * only as the anchor of "the week before Easter" (timewindow.ts).
 */

import { addDays, utc } from "./days.js";

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

/** Longer names first: "Easter Monday" before "Easter", "Christmas Eve" before "Christmas". */
const HOLIDAYS: readonly [string, (y: number) => Days][] = [
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
  let y = year ? Number(year) : asOf.getUTCFullYear();
  if (!year && days(y).from.getTime() > asOf.getTime()) y -= 1;
  return { ...days(y), index: m.index, text: m[0] };
}
