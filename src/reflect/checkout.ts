/**
 * Is the workspace's Markdown really on disk? reflect treats a log that is gone as deleted
 * (its facts leave the bank) and a page that is gone as new (rendered from scratch). Both are
 * wrong when the files are only out of sight: a git sparse checkout that leaves memory/ or
 * bank/ out, or a memory/ folder that is missing or empty (an unmounted drive, a sync not
 * done yet). The nightly would then commit a bank emptied of ten years of facts, or pages
 * without the user's own text. These checks refuse before anything is written.
 *
 * The same holds for a part of the logs: many logs the last run read, gone at once (a sync
 * half done, a folder restored from an old backup), is refused too, unless the run is told
 * the deletion is meant (`--accept-deleted-logs`). A few gone logs are taken as deleted.
 */
import { existsSync } from "node:fs";
import { opendir, stat } from "node:fs/promises";
import path from "node:path";
import { citedSource } from "../markdown/citation.js";
import { logDate } from "../markdown/log-path.js";
import type { Fact } from "../retain/types.js";
import { MembankError } from "../workspace/errors.js";
import {
  isEvictedReason,
  isHiddenName,
  listMemoryFiles,
  outsideWorkspace,
  type SkippedFile,
} from "../workspace/files.js";
import { nulSplit, repoInfo, runGit } from "../workspace/git.js";
import { readMemoryText } from "../workspace/text-file.js";
import type { Workspace } from "../workspace/workspace.js";
import { type LoadedFacts, logPaths, snapshotLogs } from "./load.js";
import { type GarbledLog, isGarbledLine, type LostLog } from "./log-damage.js";
import { readSnapshot } from "./snapshot.js";

export const NOT_ON_DISK = "ENOTONDISK";

/** The workspace folders whose files reflect reads as the truth. */
const TRUTH_DIRS = ["memory", "bank"] as const;

/** Refuse when the Markdown reflect would read is not on disk (see the module comment). */
export async function assertWorkspaceOnDisk(ws: Workspace): Promise<void> {
  await assertNotSparse(ws);
  await assertLogsPresent(ws);
  await assertPagesLocal(ws);
}

/** A bank page iCloud Drive evicted: reflect would write it anew, and the commit would drop the person's text on it. */
async function assertPagesLocal(ws: Workspace): Promise<void> {
  const skipped: SkippedFile[] = [];
  await listMemoryFiles(ws, { under: "bank", skipped });
  const evicted = skipped.find((s) => isEvictedReason(s.reason));
  if (evicted === undefined) return;
  throw new MembankError(
    `${evicted.path}: ${evicted.reason}. membank changed nothing (it would write the page anew, without your text on it)`,
    { code: NOT_ON_DISK },
  );
}

/** Tracked files of memory/ or bank/ that a sparse checkout keeps off the disk. */
async function assertNotSparse(ws: Workspace): Promise<void> {
  const repo = await repoInfo(ws.root);
  // Without the sparse-checkout file there is no sparse checkout: no git call at all.
  if (repo === undefined || !existsSync(path.join(repo.gitDir, "info", "sparse-checkout"))) return;
  const r = await runGit(["ls-files", "-t", "-z", "--", ...TRUTH_DIRS], { cwd: ws.root });
  // `S <path>`: skip-worktree, git's mark for a path outside the sparse checkout.
  const outside = nulSplit(r.stdout)
    .filter((entry) => entry.startsWith("S "))
    .map((entry) => entry.slice(2))
    .filter((rel) => !existsSync(path.join(ws.root, rel)));
  if (outside.length === 0) return;
  const more = outside.length > 1 ? ` and ${outside.length - 1} more tracked file(s) are` : " is";
  throw new MembankError(
    `${outside[0]}${more} outside this git sparse checkout, so membank cannot see them and changed nothing ` +
      `(it would drop their facts from the bank, or rebuild pages without your text): ` +
      `check them out (git sparse-checkout add ${TRUTH_DIRS.join(" ")}) or run membank on a full checkout`,
    { code: NOT_ON_DISK },
  );
}

/** A memory/ folder missing or empty while the bank cites daily logs. */
async function assertLogsPresent(ws: Workspace): Promise<void> {
  const memory = path.join(ws.root, "memory");
  if (await hasEntries(memory)) return;
  // Only now (the rare case) read the bank: does it cite a log of memory/?
  for await (const { page, cited } of bankCitations(ws)) {
    throw new MembankError(
      `memory/ is ${(await isDir(memory)) ? "empty" : "missing"} but ${page} cites ${cited}: ` +
        "membank changed nothing (it would drop every fact of your logs from the bank). " +
        "Bring the logs back (a drive not mounted? a sync not finished?) and run again; " +
        "if you removed them on purpose, remove bank/ too",
      { code: NOT_ON_DISK },
    );
  }
}

/** The logs of memory/ the bank pages on disk cite, page by page: each page's cited logs, in order. */
async function* bankCitations(ws: Workspace): AsyncGenerator<{ page: string; cited: string; line: number }> {
  for (const page of await listMemoryFiles(ws, { under: "bank" })) {
    const { text } = await readMemoryText(path.join(ws.root, page.path)).catch(() => ({ text: "" }));
    const said = new Set<string>();
    for (const line of text.split("\n")) {
      const cited = citedSource(line);
      const key = `${cited?.path}#${cited?.line}`;
      if (cited?.path.startsWith("memory/") && !said.has(key)) {
        said.add(key);
        yield { page: page.path, cited: cited.path, line: cited.line };
      }
    }
  }
}

/**
 * With no record of an earlier run's facts (a first run after an upgrade, .memory/ removed),
 * the bank's citations stand for them: a page citing a line of a garbled log whose words are
 * not read now is refused as assertNoGarbledLogs refuses.
 */
async function assertNoCitedGarbledLines(ws: Workspace, garbled: readonly GarbledLog[]): Promise<void> {
  const byPath = groupBy(garbled, (g) => g.path);
  for await (const { page, cited, line } of bankCitations(ws)) {
    const g = byPath.get(cited)?.find((x) => isGarbledLine(x, line));
    if (g === undefined) continue;
    throw new MembankError(
      `${g.path}:${g.line}: ${g.reason}. membank changed nothing: ${page} cites ${g.path}#L${line}, ` +
        "whose fact would leave the bank",
      { code: LOG_LOST },
    );
  }
}

/**
 * `seen` with the lost logs the bank cites: a log a page cites was read by an earlier run, even
 * when no record of that run is left (a first run after an upgrade, .memory/ removed).
 */
async function withCitedLogs(ws: Workspace, seen: ReadonlySet<string>, lost: readonly LostLog[]): Promise<Set<string>> {
  const out = new Set(seen);
  const wanted = new Set(lost.map((l) => l.path).filter((p) => !seen.has(p)));
  if (wanted.size === 0) return out;
  for await (const { cited } of bankCitations(ws)) {
    if (wanted.delete(cited)) out.add(cited);
    if (wanted.size === 0) break;
  }
  return out;
}

async function hasEntries(dir: string): Promise<boolean> {
  try {
    // The first entry answers: no full listing of ten years of logs. (The loop closes the handle.)
    for await (const entry of await opendir(dir)) if (!isHiddenName(entry.name)) return true;
  } catch (error) {
    // Missing, or not a folder: no entries. Unreadable (permissions) is not empty: the listing
    // says why, and a folder an earlier run read logs in is refused as lost (assertNoLostLogs).
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return true;
  }
  return false;
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}

/** At least this many gone logs, and at least GONE_SHARE of the logs (or GONE_MANY), is refused. */
const GONE_MIN = 5;
const GONE_SHARE = 0.2;
const GONE_MANY = 50;

/**
 * Daily logs the last run read (`before`) that are gone from the disk now: not on disk, and
 * not moved either (no log of the same file name is among `present`, e.g. logs sorted into
 * year folders). A log emptied is on disk, so not gone: an empty one an earlier run read is
 * refused as unread (retain/read.ts EMPTY_LOG_REASON); delete a log to take its facts out.
 */
export function goneLogs(
  before: Iterable<string>,
  present: Iterable<string>,
  onDisk: (rel: string) => boolean,
): string[] {
  const names = new Set<string>();
  for (const p of present) names.add(p.slice(p.lastIndexOf("/") + 1));
  const gone = new Set<string>();
  for (const p of before) {
    if (logDate(p) === undefined || gone.has(p) || names.has(p.slice(p.lastIndexOf("/") + 1))) continue;
    if (!onDisk(p)) gone.add(p);
  }
  return [...gone].sort();
}

/** Is this many gone logs, of `known` logs in all, more than someone deletes by hand in a day? */
export function tooManyGone(gone: number, known: number): boolean {
  return gone >= GONE_MIN && (gone >= GONE_MANY || gone >= GONE_SHARE * known);
}

/** Refuse a run that would take the facts of many vanished logs out of the bank (module comment). */
export function assertLogsNotVanished(gone: readonly string[], known: number): void {
  if (!tooManyGone(gone.length, known)) return;
  const shown = gone.slice(0, 3).join(", ");
  throw new MembankError(
    `${gone.length} of the ${known} daily logs the last run read are gone from the disk (${shown}${gone.length > 3 ? ", ..." : ""}): ` +
      "membank changed nothing (their facts would leave the bank). Bring them back (a sync not finished? " +
      "a backup restored?) and run again; if you deleted them on purpose, run once with --accept-deleted-logs",
    { code: NOT_ON_DISK },
  );
}

/**
 * A log whose words are not on disk (zeroed by a crash, an LFS pointer), or one an earlier run
 * read that cannot be read now (permissions), would read as empty: reflect would take its facts
 * out of the bank (a new clone without git-lfs: every fact) and the commit would record it.
 * Refused before anything is written. `seen`: the logs an earlier run read; a folder of them
 * left unread (memory/ linked out of the workspace) is lost when it held one of them.
 */
export function assertNoLostLogs(
  logs: readonly LostLog[],
  seen: ReadonlySet<string> | ReadonlyMap<string, unknown> | undefined,
): void {
  // A folder left unread (memory/ linked out of the workspace): lost when a log in it was read.
  const read = (rel: string) =>
    seen !== undefined &&
    (seen.has(rel) || (logDate(rel) === undefined && [...seen.keys()].some((p) => p.startsWith(`${rel}/`))));
  const lost = logs.filter((l) => l.lost || read(l.path));
  if (lost.length === 0) return;
  const more = lost.length > 1 ? ` (and ${lost.length - 1} more log(s) like it)` : "";
  throw new MembankError(
    `${lost[0]!.path}: ${lost[0]!.reason}${more}. membank changed nothing: reading it as an empty log ` +
      "would take its facts out of the bank",
    { code: LOG_LOST },
  );
}

export const LOG_LOST = "ELOGLOST";

/**
 * A log whose words are no longer on some lines (re-saved in an encoding membank cannot tell,
 * such as Shift-JIS; zeros where a crash lost a block): the facts on those lines are skipped,
 * so those an earlier run read there (`before`) would leave the bank with the next commit.
 * Refused, naming the first bad line and what to do, until the file is put right. So is a log
 * cut short mid-line (a copy or sync not finished) that lost facts an earlier run read from its
 * last line on.
 */
export function assertNoGarbledLogs(
  garbled: readonly GarbledLog[],
  before: readonly Fact[],
  now: readonly Fact[],
): void {
  // By path: a log cut short is one of these (see log-damage.ts), and ten years of logs may be.
  const paths = new Set(garbled.map((g) => g.path));
  const kept = new Set(now.filter((f) => paths.has(f.source.path)).map((f) => `${f.source.path}\0${f.id}`));
  const read = groupBy(
    before.filter((f) => paths.has(f.source.path)),
    (f) => f.source.path,
  );
  const nowByPath = groupBy(
    now.filter((f) => paths.has(f.source.path)),
    (f) => f.source.path,
  );
  for (const g of garbled) {
    const had = read.get(g.path) ?? [];
    if (g.from && !cutShort(g.line, had, nowByPath.get(g.path) ?? [])) continue;
    const gone = had.filter((f) => (!g.from || f.source.line >= g.line) && !kept.has(`${g.path}\0${f.id}`)).length;
    if (gone === 0) continue;
    throw new MembankError(
      `${g.path}:${g.line}: ${g.reason}. membank changed nothing: ${gone} fact(s) an earlier run read in it ` +
        "would leave the bank",
      { code: LOG_LOST },
    );
  }
}

/**
 * Was a log that ends mid-line at `last` cut short (a copy or sync not finished), rather than
 * edited in an editor that leaves the last line without its break (VS Code)? Cut when facts read
 * before lay past its end, and its last line is no fact now or the start of the fact read there.
 */
function cutShort(last: number, before: readonly Fact[], now: readonly Fact[]): boolean {
  if (!before.some((f) => f.source.line > last)) return false;
  const then = before.filter((f) => f.source.line === last);
  const here = now.filter((f) => f.source.line === last);
  return (
    here.length === 0 ||
    here.some((n) => then.some((b) => b.content.length > n.content.length && b.content.startsWith(n.content)))
  );
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * Many logs of the last run gone at once: refused unless meant (assertLogsNotVanished). Before =
 * the snapshot's logs in the window (an incremental run's window reaches back to the oldest gone
 * log), or all of them in a full run. A dry run only says it; returns its warnings.
 */
export async function checkGoneLogs(
  ws: Workspace,
  loaded: LoadedFacts,
  since: string | undefined,
  opts: { acceptDeletedLogs?: boolean; dryRun?: boolean },
): Promise<string[]> {
  const inWindow = since !== undefined && !loaded.fellBackToFull;
  if (loaded.lostNow.length > 0) {
    // A lost log is refused whatever --accept-deleted-logs says: it is on disk, not deleted.
    const seen = inWindow ? logPaths(loaded.windowBefore, loaded.proseBefore) : await snapshotLogs(ws);
    assertNoLostLogs(loaded.lostNow, await withCitedLogs(ws, seen, loaded.lostNow));
  }
  if (loaded.garbledNow.length > 0) {
    const snapshot = inWindow ? undefined : await readSnapshot(ws);
    const before = inWindow ? loaded.windowBefore : (snapshot?.facts ?? []);
    assertNoGarbledLogs(loaded.garbledNow, before, loaded.facts);
    if (!inWindow && snapshot === undefined) await assertNoCitedGarbledLines(ws, loaded.garbledNow);
  }
  if (opts.acceptDeletedLogs) return [];
  const before = inWindow ? logPaths(loaded.windowBefore, loaded.proseBefore) : await snapshotLogs(ws);
  const missing = [...before].filter((rel) => !existsSync(path.join(ws.root, rel)));
  if (missing.length === 0) return []; // the nightly's case: no pass over every fact
  const present = logPaths(loaded.facts, loaded.prose);
  const gone = goneLogs(missing, present, () => false);
  if (!opts.dryRun) assertLogsNotVanished(gone, present.size + gone.length);
  else if (gone.length > 0) return [`${gone.length} log(s) of the last run are gone: ${gone.slice(0, 3).join(", ")}`];
  return [];
}

/**
 * One rule for every file membank touches: nothing outside the workspace (README). A bank
 * page linked out of it would be overwritten there and committed as a link.
 */
export function assertPagesInside(ws: Workspace, pages: readonly { path: string }[]): void {
  for (const page of pages) {
    const real = outsideWorkspace(ws, page.path);
    if (real !== undefined) {
      throw new MembankError(
        `${page.path} leads outside the workspace (to ${real}) through a symbolic link; membank writes only inside the workspace: replace the link with a real file or folder`,
        { code: "EOUTSIDE" },
      );
    }
  }
}
