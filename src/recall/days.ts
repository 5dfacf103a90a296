/** Calendar days as UTC dates, so a window never shifts with the machine's zone (timewindow.ts, holidays.ts). */

export const DAY_MS = 86_400_000;

export function utc(y: number, m: number, d: number): Date {
  return new Date(Date.UTC(y, m - 1, d));
}

export function addDays(date: Date, n: number): Date {
  return new Date(date.getTime() + n * DAY_MS);
}
