import path from "node:path";

/** A line of a workspace file (structurally the same as retain's SourceRef; markdown sits below retain). */
export interface LineRef {
  path: string;
  line: number;
}

/**
 * A relative Markdown link from a bank page to a fact's source line, e.g.
 * `../../memory/2026-03-04.md#L12` from bank/entities/X.md (works on GitHub and in Obsidian).
 */
export function relLink(fromPage: string, source: LineRef): string {
  // Both paths are workspace-relative and sources never live under bank/, so the link is
  // one "../" per folder of the page (path.relative is needlessly slow on 20,000 facts).
  if (fromPage.startsWith("bank/") && !source.path.startsWith("bank/") && !source.path.startsWith("../")) {
    const depth = fromPage.split("/").length - 1;
    return `${"../".repeat(depth)}${encodeURI(source.path)}#L${source.line}`;
  }
  const rel = path.posix.relative(path.posix.dirname(fromPage), source.path);
  return `${encodeURI(rel)}#L${source.line}`;
}

/** Code-point order: fast, and unlike localeCompare the same on every machine and locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
