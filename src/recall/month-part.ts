import { MONTH_NAME } from "../analysis/time-words.js";
import { AROUND_DAYS, addDays, endOfMonth, monthNumber, pastYear, utc } from "./days.js";

/**
 * A part of a named month: "early March", "mid-April", "late in May", "the end of April",
 * "the beginning of June 2025". chrono reads the first ones as the whole month and "the end
 * of April" as its last day alone (a question about the end of April asks about its last
 * days, not the 30th). Thirds of the month, as fuzzy at their inner edges as "around" a day
 * is (AROUND_DAYS): early (the start, the beginning) the 1st-13th, mid (the middle) the
 * 8th-23rd ("mid-March" may be the 9th), late (the end) the 18th to the last day. The
 * part's days rank first, but the rest of its month is not outside the window
 * (TimeWindow.month). "The first half of March" is left to chrono: the month, with "first
 * half" searched as words (on LoCoMo those words found the answer). Without a year, the
 * latest such month begun by asOf (recall asks about the past). "Since" / "after" / "from"
 * one runs to asOf, "before" ends the day before it, "until" / "by" at its end.
 */
export interface MonthPartSpan {
  from?: Date;
  to?: Date;
  index: number;
  text: string;
  /** The whole month, for a part of it (not for "since mid-April"): TimeWindow.month. */
  month?: { from: Date; to: Date };
}

const PART = String.raw`(early|mid|late)(?:\s*-\s*|\s+in\s+|\s+)|(?:the\s+)?(start|beginning|middle|end)\s+of\s+`;
const MONTH_PART = new RegExp(
  String.raw`\b(?:(since|after|from|before|until|till|by)\s+)?(?:${PART})(${MONTH_NAME})\b\.?(?:,?\s+((?:19|20)\d{2})\b)?`,
  "iu",
);

/** First and last day of the month a part word names (1-based; `last` is the month's length). */
function days(part: string, last: number): [number, number] {
  if (/^(?:early|start|beginning)$/u.test(part)) return [1, 10 + AROUND_DAYS];
  if (/^(?:mid|middle)$/u.test(part)) return [11 - AROUND_DAYS, 20 + AROUND_DAYS];
  return [21 - AROUND_DAYS, last]; // late, end
}

export function partOfMonth(query: string, asOf: Date): MonthPartSpan | undefined {
  const m = MONTH_PART.exec(query);
  if (!m) return undefined;
  const mo = monthNumber(m[4]!);
  if (mo === 0) return undefined;
  const y = m[5] ? Number(m[5]) : pastYear(mo, asOf);
  const part = (m[2] ?? m[3]!).toLowerCase().replace(/\s+/gu, " ");
  const [first, lastDay] = days(part, endOfMonth(y, mo).getUTCDate());
  const from = utc(y, mo, first);
  const to = utc(y, mo, lastDay);
  const span = { index: m.index, text: m[0] };
  switch (m[1]?.toLowerCase()) {
    case "since":
    case "after":
    case "from":
      return { ...span, from, to: asOf > from ? asOf : to };
    case "before":
      return { ...span, to: addDays(from, -1) };
    case "until":
    case "till":
    case "by":
      return { ...span, to };
    default:
      return { ...span, from, to, month: { from: utc(y, mo, 1), to: endOfMonth(y, mo) } };
  }
}
