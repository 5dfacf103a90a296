/**
 * The date of a log path: the one rule (issue 12), used by retain, reflect, recall, the
 * index, LLM extraction and the nightly pipeline.
 *
 * A path has a date exactly when
 *  - it is workspace-relative and under `memory/` (any depth; `\` counts as `/`),
 *  - its file name is `YYYY-MM-DD.md` or `YYYY-MM-DD-<slug>.md` (`.md` in any case), and
 *  - YYYY-MM-DD is a real calendar day (`memory/2026-02-30.md` has none).
 * A dated name outside memory/ (`bank/2026-03-01.md`, `notes/2026-03-01.md`) is no log:
 * DESIGN.md 1 puts the day records under memory/; bank pages are curated, undated pages.
 */

const DAILY_NAME = /^(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$/i;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The date of a daily log path (rule above), else undefined. */
export function logDate(rel: string): string | undefined {
  const p = rel.replace(/\\/g, "/");
  if (!p.startsWith("memory/")) return undefined;
  const m = DAILY_NAME.exec(p.slice(p.lastIndexOf("/") + 1));
  return m && isIsoDate(m[1]!) ? m[1] : undefined;
}

/** Daily logs: the paths that have a date (`memory/**​/YYYY-MM-DD[-slug].md`, a real day). */
export function isDailyLog(rel: string): boolean {
  return logDate(rel) !== undefined;
}
