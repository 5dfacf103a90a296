import { STOP_WORDS } from "./stopwords.js";

/**
 * Month and weekday names as people abbreviate them (English), as regular-expression
 * source: the one spelling list behind retain's date gate (`retain/dates.ts`) and recall's
 * "may this question name a time?" gate (`recall/timewindow.ts`). Use inside `\b...\b`,
 * case-insensitive.
 */
export const MONTH_NAME =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
export const WEEKDAY_NAME = "(?:sun|mon|tues?|wed|thu|thurs?|fri|sat|(?:sun|mon|tues|wednes|thurs|fri|satur)day)";

const STOP_ALTERNATION = [...STOP_WORDS]
  .map((w) => w.replace(/[^a-z]/g, ""))
  .filter(Boolean)
  .join("|");

/**
 * A weekday naming a kind of thing, not a day: "the Saturday job", "my Monday class", "a
 * Friday meeting", "his Friday 1:1" (an article or possessive before it, a word that is no
 * time or function word after it). "On the Saturday we went", "the Sunday before" and "the
 * Friday night" stay times.
 */
const WEEKDAY_LABEL = new RegExp(
  String.raw`\b(?:the|a|an|my|our|his|her|their|your)\s+(${WEEKDAY_NAME}s?)\s+(?!(?:before|after|of|morning|afternoon|evening|night|just|last|next|and|or|${STOP_ALTERNATION})\b)(?:[a-z]|1:1\b)`,
  "giu",
);

/** The text with the weekday of each weekday label blanked (same length: offsets hold), for date readers. */
export function maskWeekdayLabels(text: string): string {
  return text.replace(WEEKDAY_LABEL, (m, day: string) => m.replace(day, " ".repeat(day.length)));
}
