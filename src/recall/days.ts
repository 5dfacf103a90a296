/** Calendar days as UTC dates, so a window never shifts with the machine's zone (timewindow.ts, holidays.ts). */

const DAY_MS = 86_400_000;

/** How far a fuzzy "around X" reaches on each side (timewindow.ts), and a fuzzy part of a month's inner edges (month-part.ts). */
export const AROUND_DAYS = 3;

export function utc(y: number, m: number, d: number): Date {
  return new Date(Date.UTC(y, m - 1, d));
}

export function addDays(date: Date, n: number): Date {
  return new Date(date.getTime() + n * DAY_MS);
}

/** The Monday of a date's week (weeks start on Monday). */
export function mondayOf(date: Date): Date {
  return addDays(date, -((date.getUTCDay() + 6) % 7));
}

/** The first day on or after `date` that is weekday `dow` (0 Sunday .. 6 Saturday). */
export function weekdayOnOrAfter(date: Date, dow: number): Date {
  return addDays(date, (dow - date.getUTCDay() + 7) % 7);
}

/** The last day of month `m` (1-12) of year `y`. */
export function endOfMonth(y: number, m: number): Date {
  return utc(y, m + 1, 0);
}

/** The latest year, at or before asOf's, in which month `mo` (day 1) is not after asOf: recall asks about the past. */
export function pastYear(mo: number, asOf: Date): number {
  let y = asOf.getUTCFullYear();
  while (utc(y, mo, 1) > asOf) y -= 1;
  return y;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** 1-12 for a month's name or abbreviation ("Sept", "april"), 0 for anything else. */
export function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}
