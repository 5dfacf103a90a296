/**
 * The parts of date reading that chrono gets wrong for log-style writing, as small pure
 * rules: durations ("for a month", "next 18 months"), the direction of a bare weekday
 * (by tense) and the clause a past-tense report ends at. dates.ts combines them.
 */

export type Unit = "day" | "week" | "month" | "year";

/** A duration phrase: "for a month" counts from a start, "next 18 months" from the log date, "past 2 weeks" back to it. */
export interface Duration {
  index: number;
  length: number;
  kind: "for" | "next" | "past";
  count: number;
  unit: Unit;
}

/** Counts written as words ("three weeks", "a couple of days", "the last few months"). */
const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
  few: 3,
  couple: 2,
  "a couple of": 2,
  "couple of": 2,
  "a couple": 2,
};

const NUM = String.raw`(\d{1,3}|a\s+couple(?:\s+of)?|couple\s+of|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen)`;
const MORE = String.raw`(?:more\s+|further\s+|additional\s+|extra\s+)?`;
const UNIT = "(days?|weeks?|fortnights?|months?|years?|yrs?)";
const NEXT = new RegExp(
  String.raw`\b(?:(?:for|over|in|within|during)\s+)?(?:the\s+)?(?:next|coming|upcoming|following)\s+${NUM}\s*${MORE}${UNIT}\b`,
  "gi",
);
const PAST = new RegExp(
  String.raw`\b(?:(?:for|over|in|within|during)\s+)?(?:the\s+)?(?:last|past|previous)\s+${NUM}\s*${MORE}${UNIT}\b`,
  "gi",
);
const FOR = new RegExp(String.raw`\bfor\s+(?:another\s+|a\s+further\s+)?${NUM}\s*${MORE}${UNIT}\b`, "gi");

/** A count as written: digits or a number word ("a couple of" is 2, "few" 3, anything else 1). */
export function toCount(word: string): number {
  const w = word.toLowerCase().replace(/\s+/g, " ");
  return /^\d+$/.test(w) ? Number(w) : (WORD_NUMBERS[w] ?? 1);
}

function toUnit(word: string): { unit: Unit; factor: number } {
  const w = word.toLowerCase();
  if (w.startsWith("fortnight")) return { unit: "week", factor: 2 };
  if (w.startsWith("y")) return { unit: "year", factor: 1 };
  return { unit: w.replace(/s$/, "") as Unit, factor: 1 };
}

/** Duration phrases in `text`, left to right, never overlapping ("for the next 3 months" is one "next"). */
export function findDurations(text: string): Duration[] {
  const found: Duration[] = [];
  for (const [re, kind] of [
    [NEXT, "next"],
    [PAST, "past"],
    [FOR, "for"],
  ] as const) {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((d) => start < d.index + d.length && d.index < end)) continue;
      const { unit, factor } = toUnit(m[2]!);
      const count = toCount(m[1]!) * factor;
      if (count === 0) continue;
      found.push({ index: start, length: m[0].length, kind, count, unit });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** `date` (YYYY-MM-DD) moved by count units; a month step keeps the day or clamps to the month's end (Jan 31 + 1 month = Feb 28). */
export function addPeriod(date: string, count: number, unit: Unit): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  if (unit === "day" || unit === "week") {
    const t = new Date(Date.UTC(y, m - 1, d + count * (unit === "week" ? 7 : 1)));
    return t.toISOString().slice(0, 10);
  }
  const months = m - 1 + count * (unit === "year" ? 12 : 1);
  const ty = y + Math.floor(months / 12);
  const tm = ((months % 12) + 12) % 12;
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
  return new Date(Date.UTC(ty, tm, Math.min(d, last))).toISOString().slice(0, 10);
}

// Tense cues for a bare weekday. A log is written on its day: "Monday's digest", "demo
// Friday" name the coming one; "on Monday we shipped" the one just past. Words that
// look past but plan ahead ("scheduled", "planned", "booked") count as future, and a
// future cue wins over a past one ("said he will send it Friday" is a plan).
const FUTURE =
  /\b(?:will|won't|shall|going\s+to|gonna|plan(?:s|ned|ning)?|schedul\w*|booked|expect\w*|due|upcoming|coming|next|until|till|starts?|starting|begins?|beginning|need(?:s)?\s+to|ha(?:ve|s)\s+to|must|should|wants?\s+to|hopes?\s+to|aims?\s+to|remind\w*|tomorrow|tonight|later|deadline)\b|'ll\b/i;
// Common irregular past forms; regular ones are caught by "-ed" (not "-eed": need, speed).
const IRREGULAR_PAST =
  "was|were|did|had|went|met|said|made|took|got|gave|came|saw|sent|spent|wrote|ran|began|brought|bought|thought|told|found|left|kept|held|lost|paid|built|chose|drove|flew|fell|felt|forgot|heard|knew|led|meant|sold|spoke|stood|taught|won|woke|broke|caught|drew|fought|hung|lent|rode|rang|rose|sang|sat|slept|stole|threw|wore|agreed|freed|yesterday|ago|last|already|earlier";
const PAST_WORD = new RegExp(String.raw`\b(?:${IRREGULAR_PAST})\b|\b\p{L}{2,}(?<![e])ed\b`, "iu");
const FUTURE_PARTICIPLE = /\b(?:schedul|plann|book|expect)ed\b/gi;

/** Is this clause written in the past tense (a report of something that happened)? */
export function isPastClause(clause: string): boolean {
  return PAST_WORD.test(clause.replace(FUTURE_PARTICIPLE, " "));
}

/** Does this clause plan ahead ("will", "scheduled", "next", "until", ...)? */
export function isFutureClause(clause: string): boolean {
  return FUTURE.test(clause);
}

/** Which way a bare weekday ("Monday", no last/next/this) points in this clause: the coming one unless the clause reports the past. */
export function weekdayDirection(clause: string): "forward" | "back" {
  if (isFutureClause(clause)) return "forward";
  return isPastClause(clause) ? "back" : "forward";
}

// Clause breaks: semicolons, dashes set off by spaces, sentence ends, and a comma before a
// new thought ("..., next review on the 14th"). Commas inside dates ("Mar 9, 2026") are not breaks.
const CLAUSE_BREAK =
  /;|\s[—–-]\s|[.!?](?=\s+\p{Lu})|,(?=\s+(?:and|but|then|next|so|while|plus|after\s+that)\b)|\s(?=(?:and|but|then)\s+next\b)/giu;

/** [start, end) offsets of the clauses of `text`. */
export function clauses(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  out.push([start, text.length]);
  return out;
}

const MONTH_NAME = String.raw`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?`;
// "on the 14th": a day of the month with no month named (chrono does not read it).
const DAY_ORDINAL = new RegExp(
  String.raw`(?<!${MONTH_NAME}\s*)\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s*(?:of\s+)?${MONTH_NAME})`,
  "gi",
);

/** Days of the month written alone ("the 14th"), with their offsets. */
export function findMonthDays(text: string): Array<{ index: number; length: number; day: number }> {
  return [...text.matchAll(DAY_ORDINAL)]
    .map((m) => ({ index: m.index, length: m[0].length, day: Number(m[1]) }))
    .filter((x) => x.day >= 1 && x.day <= 31);
}

/** "the 14th" seen from the log date: this month's or the next (back: the previous) month's, undefined if that month has no such day. */
export function monthDayDate(logDate: string, day: number, direction: "forward" | "back"): string | undefined {
  const [y, m, d] = logDate.split("-").map(Number) as [number, number, number];
  let month = m - 1;
  if (direction === "forward" && day < d) month += 1;
  if (direction === "back" && day > d) month -= 1;
  const t = new Date(Date.UTC(y, month, day));
  if (t.getUTCDate() !== day) return undefined;
  return t.toISOString().slice(0, 10);
}
