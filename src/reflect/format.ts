import path from "node:path";
import type { Fact, FactKind, SourceRef } from "../retain/types.js";

/**
 * A relative Markdown link from a bank page to a fact's source line, e.g.
 * `../../memory/2026-03-04.md#L12` from bank/entities/X.md (works on GitHub and in Obsidian).
 */
export function relLink(fromPage: string, source: SourceRef): string {
  // Both paths are workspace-relative and sources never live under bank/, so the link is
  // one "../" per folder of the page (path.relative is needlessly slow on 20,000 facts).
  if (fromPage.startsWith("bank/") && !source.path.startsWith("bank/") && !source.path.startsWith("../")) {
    const depth = fromPage.split("/").length - 1;
    return `${"../".repeat(depth)}${encodeURI(source.path)}#L${source.line}`;
  }
  const rel = path.posix.relative(path.posix.dirname(fromPage), source.path);
  return `${encodeURI(rel)}#L${source.line}`;
}

export function sourceLabel(source: SourceRef): string {
  return `${source.path}#L${source.line}`;
}

/** One fact as a bullet: date, text, link to its line. */
export function factBullet(fromPage: string, fact: Fact, withEntities = false): string {
  const ents = withEntities && fact.entities.length ? `${fact.entities.map((e) => `@${e}`).join(", ")}: ` : "";
  const conf = fact.kind === "opinion" && fact.confidence !== undefined ? ` (c=${fact.confidence.toFixed(2)})` : "";
  const text = fact.content.replace(/\s+/g, " ").trim();
  return `- ${fact.date} — ${ents}${text}${conf} ([${sourceLabel(fact.source)}](${relLink(fromPage, fact.source)}))`;
}

/** Code-point order: fast, and unlike localeCompare the same on every machine and locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest first; ties by source path and line so the order is total and stable. */
export function newestFirst(a: Fact, b: Fact): number {
  return cmp(b.date, a.date) || cmp(a.source.path, b.source.path) || a.source.line - b.source.line || cmp(a.id, b.id);
}

export const KIND_TITLES: Readonly<Record<FactKind, string>> = {
  world: "World",
  experience: "Experience",
  opinion: "Opinions stated",
  observation: "Observations",
};

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
