import { citeLine } from "../markdown/citation.js";
import { displaySafe } from "../markdown/display.js";
import { cmp, relLink } from "../markdown/links.js";
import { byPlace, type Place } from "../markdown/order.js";
import type { Fact, FactKind } from "../retain/types.js";

// Page-link helpers live in the markdown layer (the index parses opinion pages too).
export { cmp, relLink };

/** One fact as a bullet: date, text, link to its line. */
export function factBullet(fromPage: string, fact: Fact, withEntities = false): string {
  const ents = withEntities && fact.entities.length ? `${fact.entities.map((e) => `@${e}`).join(", ")}: ` : "";
  const conf = fact.kind === "opinion" && fact.confidence !== undefined ? ` (c=${fact.confidence.toFixed(2)})` : "";
  const text = fact.content.replace(/\s+/g, " ").trim();
  return `- ${fact.date} — ${ents}${text}${conf} ([${citeLine(fact.source)}](${relLink(fromPage, fact.source)}))`;
}

/** Newest first; ties by source path and line so the order is total and stable. */
export function newestFirst(a: Fact, b: Fact): number {
  return cmp(b.date, a.date) || byPlace(factPlace(a), factPlace(b));
}

/** A fact's place: its source line, and its id for two facts on one line. */
export function factPlace(f: Fact): Place {
  return { path: f.source.path, line: f.source.line, id: f.id };
}

export const KIND_ORDER: readonly FactKind[] = ["world", "experience", "opinion", "observation"];

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-03" -> "March 2026". */
export function monthTitle(month: string): string {
  const [y, m] = month.split("-");
  return `${MONTHS[Number(m) - 1] ?? m} ${y}`;
}

/** Longest text of one fact or statement in a commit message (a 128 KB fact must not make every commit fail). */
export const MESSAGE_TEXT_MAX = 300;

/**
 * A fact's text as one line of a commit message: whitespace collapsed, terminal control
 * sequences and control characters removed (a log can hold ESC/OSC bytes), at most
 * MESSAGE_TEXT_MAX characters.
 */
export function messageText(text: string, max = MESSAGE_TEXT_MAX): string {
  const clean = displaySafe(text).replace(/\s+/g, " ").trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("")}…`;
}
