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
 * Nor is anything under `memory/dreaming/`: OpenClaw 2026.9's dreaming writes its nightly
 * reports there (`memory/dreaming/<light|rem|deep>/YYYY-MM-DD.md`, by default), restating
 * snippets of the logs as "Candidate:" lines dated the night it dreamt; read as logs, each
 * line of a log would count twice, on the wrong day. OpenClaw keeps them out of its own
 * recall the same way (memory-core's DREAMING_MEMORY_PATH_RE).
 */

const DAILY_NAME = /^(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$/i;
/** A day at the start of a Markdown file's name, whatever follows it. */
const NEAR_DAILY_NAME = /^(\d{4}-\d{2}-\d{2})[^/]*\.md$/i;
/** OpenClaw's dreaming reports: machine-written, no log (above). */
const DREAMING_DIR = "memory/dreaming/";

/** Is this `/`-separated path under memory/ and outside OpenClaw's dreaming reports? */
function underLogs(p: string): boolean {
  return p.startsWith("memory/") && !p.startsWith(DREAMING_DIR);
}

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
  if (!underLogs(p)) return undefined;
  const m = DAILY_NAME.exec(p.slice(p.lastIndexOf("/") + 1));
  return m && isIsoDate(m[1]!) ? m[1] : undefined;
}

/**
 * Why a file under memory/ named like a daily log has no date (`2026-02-30.md`,
 * `2026-13-01-trip.md`), else undefined: its facts are not read, and that must be said.
 */
export function logNameProblem(rel: string): string | undefined {
  const p = rel.replace(/\\/g, "/");
  if (!underLogs(p)) return undefined;
  const name = p.slice(p.lastIndexOf("/") + 1);
  const day = DAILY_NAME.exec(name)?.[1];
  if (day !== undefined) {
    if (isIsoDate(day)) return undefined;
    return `${day} is not a calendar day, so this is no daily log and its Retain facts are not read: rename it to the day it records`;
  }
  // A real day, then something other than "-<slug>": what sync tools name a conflicted copy
  // (`2026-03-16 (Lena's conflicted copy).md`, `2026-03-16.sync-conflict-….md`, iCloud's
  // `2026-03-16 2.md`), or a hand-made `2026-03-16 standup.md`. Its facts would be lost unsaid.
  const near = NEAR_DAILY_NAME.exec(name)?.[1];
  if (near === undefined || !isIsoDate(near)) return undefined;
  const log = `${p.slice(0, p.lastIndexOf("/") + 1)}${near}.md`;
  return (
    `named like a log of ${near} but not YYYY-MM-DD.md or YYYY-MM-DD-<slug>.md, so its Retain facts are not read ` +
    `(a sync tool's conflicted copy?): move what it adds into ${log} and delete it, or rename it ${near}-<slug>.md`
  );
}

/** Daily logs: the paths that have a date (`memory/**​/YYYY-MM-DD[-slug].md`, a real day). */
export function isDailyLog(rel: string): boolean {
  return logDate(rel) !== undefined;
}
