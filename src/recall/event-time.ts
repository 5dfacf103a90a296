import { porterStem } from "../analysis/stem.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { MONTH_NAME } from "../analysis/time-words.js";
import { ftsWords, nameWords } from "../analysis/tokens.js";
import type { IndexDb } from "../index/db.js";
import { logLinesMatching } from "../index/lines.js";
import { findMonthDays, monthDayDate } from "../retain/date-phrases.js";
import { extractValidity, shiftDate } from "../retain/dates.js";
import { mayNameTime, type TimeWindow } from "./timewindow.js";

/**
 * Time anchored to an event instead of a date: "the day after the flood", "the week of the
 * move", "the night before Dee's wedding", "since the surgery". The logs date the event: the day whose
 * lines name it (a heading "# Moving day" most of all), moved by what the line says about
 * it ("... tomorrow", "on the 11th"); the window is then taken around that day. Pure: the
 * lines naming the event come from the caller (recall searches the line store).
 */
export interface EventAnchor {
  /** A span around the event ("the day after"), or none: from the event on ("since the flood"). */
  unit?: "day" | "week" | "weekend";
  /** "The Sunday before the move": that weekday (0 = Sunday), with unit "day". */
  weekday?: number;
  relation: "before" | "after" | "of";
  /** The event's words ("hospice", "ride"), lower case. */
  words: string[];
  /** The question's words the anchor came from ("the day after the flood"). */
  text: string;
  /** Its words before the event's name ("the day after the"): structure, never search words. */
  lead: string;
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const SPAN = String.raw`(?:the|a)\s+(day|night|morning|evening|week|weekend|${WEEKDAYS.join("|")})\s+(before|after|of)`;
// "After the flood" alone is as often "because of" as a time, and asked in the very talk
// that tells the event (LoCoMo: 19 such questions, a window from the event cost 3 of them
// their top-5 answer): only "since" opens a window at the event.
const OPEN = "(since)";
// The event: "the flood", "my surgery", "Dee's wedding", "the hospice ride"; up to three words.
const EVENT = String.raw`(?:the|my|our|his|her|their|(\p{Lu}[\p{L}'’-]*['’]s))\s+((?:[\p{L}][\p{L}'’-]*)(?:\s+[\p{L}][\p{L}'’-]*){0,2})`;
const ANCHOR = new RegExp(String.raw`\b(?:${SPAN}|${OPEN})\s+${EVENT}`, "iu");

const TIME_NOUN =
  /^(?:start|end|beginning|middle|rest|first|last|next|same|other|summer|winter|spring|autumn|fall|holidays?|season|term|semester|quarter|weekend|week|month|year|day|night|morning|evening|afternoon)$/iu;

/** The event anchor of a question, or undefined. Call only when the question names no date. */
export function parseEventAnchor(query: string): EventAnchor | undefined {
  const m = ANCHOR.exec(query);
  if (!m) return undefined;
  const phrase = m[5]!.split(/\s+/u);
  // The event's name ends at the first function word ("the move with Neil" is "move").
  const cut = phrase.findIndex((w) => STOP_WORDS.has(w.toLowerCase()));
  const head = cut < 0 ? phrase : phrase.slice(0, cut);
  // "since the start of May", "the week after the holidays": a time, not an event of the logs.
  if (head.length === 0 || TIME_NOUN.test(head[0]!) || mayNameTime(head.join(" "))) return undefined;
  const owner = m[4] ? nameWords(m[4]) : [];
  // "since it's raining": a possessive of a function word names no event.
  if (m[4] && owner.every((w) => STOP_WORDS.has(w))) return undefined;
  const words = [...owner, ...head.flatMap((w) => nameWords(w))].filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) return undefined;
  const text = query.slice(m.index, m.index + m[0].length - m[5]!.length + head.join(" ").length);
  const unitWord = m[1]?.toLowerCase();
  const unit = !unitWord ? undefined : unitWord === "week" || unitWord === "weekend" ? unitWord : "day";
  const rel = (m[2] ?? m[3])!.toLowerCase();
  const relation = rel === "since" ? "after" : (rel as EventAnchor["relation"]);
  // "the week of the move" is a span; "of" alone ("because of the flood") is no time.
  if (relation === "of" && !unit) return undefined;
  const lead = m[0].slice(0, m[0].length - m[5]!.length).trimEnd();
  const weekday = WEEKDAYS.indexOf(unitWord ?? "");
  return { ...(unit ? { unit } : {}), ...(weekday >= 0 ? { weekday } : {}), relation, words, text, lead };
}

/** A log line naming the event. */
export interface EventMention {
  date: string;
  text: string;
}

/** How many days a mention may name at most before the event is a habit, not one event ("after the gym"). */
export const MAX_EVENT_DAYS = 12;

/**
 * The day of the event, from the lines naming it: each line votes for its log's day (a
 * heading for its section, twice), or for the day it gives the event ("... tomorrow",
 * "yesterday", "on the 11th"). A line that names it as past or coming ("after the flood",
 * "since the move", "before the move") dates only the writing, not the event: no vote. The
 * day with most votes, if it has more than any other; undefined when none leads or the
 * event is named on too many days to be one.
 */
export function eventDay(mentions: readonly EventMention[], words: readonly string[]): string | undefined {
  const votes = new Map<string, number>();
  const head = porterStem(words.at(-1) ?? "").replace(/[^\p{L}]/gu, "");
  // "after the flood", "since Dee's wedding", "before the big move": the event is elsewhere in time.
  const aside = new RegExp(
    String.raw`\b(?:after|since|before|until|till)\s+(?:the|my|our|\p{L}+['’]s)\s+(?:\p{L}+\s+){0,2}?${head}`,
    "u",
  );
  for (const m of mentions) {
    const lower = m.text.toLowerCase();
    if (head && aside.test(lower)) continue;
    const day = mentionDay(m.date, lower, head);
    if (!day) continue;
    votes.set(day, (votes.get(day) ?? 0) + (/^\s{0,3}#{1,6}\s/u.test(m.text) ? 2 : 1));
  }
  if (votes.size === 0 || votes.size > MAX_EVENT_DAYS) return undefined;
  const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (ranked.length > 1 && ranked[1]![1] === ranked[0]![1]) return undefined;
  return ranked[0]![0];
}

// A day and a month's name, either way round ("10 March", "Mar 10th").
const DAY_MONTH = new RegExp(
  String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH_NAME}\b|\b${MONTH_NAME}\.?\s+\d{1,2}(?:st|nd|rd|th)?\b`,
  "u",
);

/** The day a mention gives the event: its log's day, or the day it names relative to it. */
function mentionDay(logDate: string, lower: string, head: string): string | undefined {
  if (/\btomorrow\b/u.test(lower)) return shiftDate(logDate, 1);
  if (/\b(?:yesterday|last night)\b/u.test(lower)) return shiftDate(logDate, -1);
  // "The inspection is Tuesday 10 March": a line giving the event one day of the calendar.
  if (DAY_MONTH.test(lower)) {
    // Only the sentence naming the event: "Spoke to the council. The inspection is 10 March."
    const sentence = lower.split(/(?<=[.!?])\s+/u).find((x) => head !== "" && x.includes(head)) ?? lower;
    const v = extractValidity(sentence, logDate);
    if (v.validFrom && v.validTo === v.validFrom) return v.validFrom;
  }
  // "on the 11th" in a line about the event plans it ahead.
  const d = findMonthDays(lower)[0];
  if (d) return monthDayDate(logDate, d.day, "forward");
  return logDate;
}

/** The weekday `wd` (0 = Sunday) before or after a day, or in its Monday-to-Sunday week ("of"). */
function weekdayNear(day: string, wd: number, relation: EventAnchor["relation"]): string {
  const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (relation === "after") return shiftDate(day, (wd - dow + 7) % 7 || 7);
  if (relation === "before") return shiftDate(day, -((dow - wd + 7) % 7 || 7));
  return shiftDate(day, ((wd + 6) % 7) - ((dow + 6) % 7));
}

/** The window an anchor names once its event's day is known (asOf: today, the end of an open window). */
export function eventWindow(anchor: EventAnchor, day: string): TimeWindow {
  const text = anchor.text;
  const { unit, relation } = anchor;
  if (!unit) return { from: day, text };
  if (anchor.weekday !== undefined) {
    const d = weekdayNear(day, anchor.weekday, relation);
    return { from: d, to: d, text };
  }
  if (relation === "of") {
    if (unit === "day") return { from: day, to: day, text };
    const dow = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
    const monday = shiftDate(day, -dow);
    return unit === "week"
      ? { from: monday, to: shiftDate(monday, 6), text }
      : { from: shiftDate(monday, 5), to: shiftDate(monday, 6), text };
  }
  const sign = relation === "after" ? 1 : -1;
  if (unit === "day") {
    const d = shiftDate(day, sign);
    return { from: d, to: d, text };
  }
  if (unit === "week") {
    return sign > 0
      ? { from: shiftDate(day, 1), to: shiftDate(day, 7), text }
      : { from: shiftDate(day, -7), to: shiftDate(day, -1), text };
  }
  // The weekend after (before) the event: the next (previous) Saturday and Sunday.
  const dow = new Date(`${day}T00:00:00Z`).getUTCDay(); // Sunday = 0
  const sat = sign > 0 ? shiftDate(day, dow === 6 ? 7 : 6 - dow) : shiftDate(day, -(dow + 1));
  return { from: sat, to: shiftDate(sat, 1), text };
}

/** Lines of the dated logs naming the event read at most: more are a habit ("the gym"), not one event. */
export const MENTION_LINES = 40;

/** The event's day from the logs of the index (eventDay over the lines naming every word of it), or undefined. */
export function findEventDay(idx: IndexDb, words: readonly string[]): string | undefined {
  if (!idx.fts) return undefined;
  const match = words.flatMap((w) => ftsWords(w).map((x) => `"${x}"`)).join(" AND ");
  if (!match) return undefined;
  const rows = logLinesMatching(idx, match, MENTION_LINES + 1);
  if (rows.length > MENTION_LINES) return undefined;
  return eventDay(
    rows.map((r) => ({ date: r.date!, text: r.text })),
    words,
  );
}
