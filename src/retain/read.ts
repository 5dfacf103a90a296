import { logDate, logNameProblem } from "../markdown/log-path.js";
import { workspaceDay } from "../workspace/clock.js";
import { listMemoryFiles, type MemoryFile, type SkippedFile } from "../workspace/files.js";
import { memoryTextProblems, readMemoryText } from "../workspace/text-file.js";
import type { Workspace } from "../workspace/workspace.js";
import { parseSinceDate } from "./dates.js";
import type { SectionParser } from "./memo.js";
import { parseRetainSections } from "./parse.js";
import type { Diagnostic, Fact, LogsRead } from "./types.js";

export interface ReadFactsOptions {
  /** Only logs dated on or after this day (YYYY-MM-DD; `7d`/`2w` ages are accepted too). */
  since?: string;
  /** The parser to use (default parseRetainSections); a parseMemo lets a later step reuse the parse. */
  parse?: SectionParser;
  /** The memory files as the caller just listed them (listMemoryFiles); default a new listing. */
  files?: readonly MemoryFile[];
  /** What that listing left out, with why (its `skipped`): a daily log among them is unread, not absent. */
  skipped?: readonly SkippedFile[];
}

function compareFacts(a: Fact, b: Fact): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.source.path !== b.source.path) return a.source.path < b.source.path ? -1 : 1;
  return a.source.line - b.source.line;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line;
}

/**
 * Facts of every daily log of the workspace (`memory/**​/YYYY-MM-DD[-slug].md`), sorted by
 * (date, path, line), with their diagnostics sorted by (path, line). Files without a date
 * in their name (MEMORY.md, bank pages) are not Retain sources. A fact repeated on the
 * same day in another file (same id) is reported as a duplicate, so ids stay unique; a
 * hand-written fact wins over an extracted copy.
 */
export async function readFacts(ws: Workspace, opts: ReadFactsOptions = {}): Promise<LogsRead & { logs: LogInput[] }> {
  const since =
    opts.since === undefined ? undefined : parseSinceDate(opts.since, workspaceDay(ws, new Date()), "since");
  // A log named for a day that does not exist gives no facts: said, never silent.
  const misnamed: Diagnostic[] = [];
  const skipped: SkippedFile[] = opts.files ? [...(opts.skipped ?? [])] : [];
  const logs = (opts.files ?? (await listMemoryFiles(ws, { skipped }))).filter((f) => {
    // A log's date is the first 10 characters of its name: most files are older than the
    // window and need no full date check (ten years of logs for one new day).
    if (since !== undefined && f.path.slice(f.path.lastIndexOf("/") + 1, f.path.lastIndexOf("/") + 11) < since) {
      // Said every run, whatever the window: nothing else will ever read it.
      const reason = logNameProblem(f.path);
      if (reason !== undefined) misnamed.push({ path: f.path, line: 1, reason });
      return false;
    }
    const date = logDate(f.path);
    if (date === undefined) {
      const reason = logNameProblem(f.path);
      if (reason !== undefined) misnamed.push({ path: f.path, line: 1, reason });
    }
    return date !== undefined && (since === undefined || date >= since);
  });
  const inputs = new Array<LogInput>(logs.length);
  // Bounded parallel reads: fast on 1,000 files without exhausting file descriptors.
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(16, logs.length) }, async () => {
      while (next < logs.length) {
        const i = next++;
        inputs[i] = await readLog(logs[i]!.path, logs[i]!.absPath);
      }
    }),
  );
  // A log the listing left out (a link out of the workspace, a hard link) is unread: said, and
  // a log an earlier run read stops the run (assertNoLostLogs) instead of leaving the bank.
  for (const s of skipped) {
    const date = logDate(s.path);
    // A folder of logs (memory/ itself linked out) may hold logs of any day.
    const folder = date === undefined && (s.path === "memory" || s.path.startsWith("memory/"));
    if (!folder && (date === undefined || (since !== undefined && date < since))) continue;
    inputs.push({ path: s.path, text: "", problems: [{ line: 1, reason: `${s.reason}; not read` }], unread: true });
  }
  const result = collectFacts(inputs, ws.config.retain.defaultConfidence, opts.parse);
  if (misnamed.length > 0) result.diagnostics = [...result.diagnostics, ...misnamed].sort(compareDiagnostics);
  // The texts go back too: reflect reads the logs' prose for names without a second read.
  return { ...result, files: logs.length, logs: inputs };
}

/** A daily log to parse: its text, and what reading it found wrong (see readLog). */
export interface LogInput {
  path: string;
  text: string;
  /** Lines with bytes that are not UTF-8: never facts. */
  invalidLines?: readonly number[];
  /** Lines whose words are not read (bytes that are not text, zeros where text was), in order; `problems` says why at the first. */
  badLines?: readonly number[];
  /** Problems of the file as a whole (too large, not UTF-8, unreadable), reported as diagnostics. */
  problems?: { line: number; reason: string }[];
  /** The file could not be read at all (permissions, I/O): a later run must read it again. */
  unread?: true;
  /** What is on disk is provably not the log (zeroed by a crash, an LFS pointer): its words are elsewhere. */
  lost?: true;
  /** Set when the file is empty (0 bytes): unread, and said only when an earlier run read it (EMPTY_LOG_REASON). */
  empty?: true;
  /** Set when the text ends without a line break (as a copy cut short leaves it): its last line. */
  endsMidLine?: number;
}

/** Why an empty log (LogInput.empty) an earlier run read facts in is not read as emptied. */
export const EMPTY_LOG_REASON =
  "is empty (0 bytes), as a cloud sync's online-only placeholder or a file a crash caught being saved is: " +
  "nothing in it is read; make it available offline or restore it (git checkout -- <file>); if you emptied it on purpose, delete it";

/** Read one daily log for collectFacts: never throws, a file it cannot read is a diagnostic. */
export async function readLog(rel: string, abs: string): Promise<LogInput> {
  try {
    const m = await readMemoryText(abs);
    const bad = [...new Set([...(m.invalid?.lines ?? []), ...(m.zeroedRun?.lines ?? [])])].sort((a, b) => a - b);
    const read = {
      path: rel,
      text: m.text,
      invalidLines: m.invalid?.lines ?? [],
      problems: memoryTextProblems(m),
      ...(bad.length === 0 ? {} : { badLines: bad }),
      ...(m.text === "" || /[\r\n]$/.test(m.text) ? {} : { endsMidLine: m.text.split(/\r\n|\r|\n/).length }),
    };
    // A zeroed log, or an LFS pointer, is a lost one, not an empty one: read again once restored.
    if (m.zeroed !== undefined || m.lfsPointer) return { ...read, unread: true, lost: true };
    // Empty (0 bytes) is how a cloud sync's online-only placeholder, or a file a crash caught
    // being saved (ext4), looks: unread, so one an earlier run read stops the run (assertNoLostLogs).
    // Not said unless it is (a new day's log may be empty for a while).
    if (m.text === "" && m.tooLarge === undefined) return { ...read, unread: true, empty: true };
    // Too large to read is not empty: its facts stay out of this run only (a log an earlier run read stops it).
    return m.tooLarge === undefined ? read : { ...read, unread: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      path: rel,
      text: "",
      problems: [{ line: 1, reason: `cannot read the file (${code}): not read; it is read again on the next run` }],
      unread: true,
    };
  }
}

/**
 * The facts of the given daily logs (workspace-relative paths with their text), sorted
 * by (date, path, line), with their diagnostics sorted by (path, line). Of facts with
 * the same id (same day, same text, another file), the one a person wrote wins over an
 * extracted one, then the first by path and line; the others are reported as duplicates.
 */
export function collectFacts(
  logs: readonly LogInput[],
  defaultConfidence?: number,
  parse: SectionParser = parseRetainSections,
): Omit<LogsRead, "files"> {
  const all: Fact[] = [];
  const diagnostics: Diagnostic[] = [];
  const noRetain: string[] = [];
  for (const log of logs) {
    for (const p of log.problems ?? []) diagnostics.push({ path: log.path, ...p });
    const result = parse(log.path, log.text, {
      defaultConfidence,
      ...(log.invalidLines ? { invalidLines: log.invalidLines } : {}),
    });
    // The file's own UTF-8 diagnostic already speaks for its first bad line.
    const said = new Set((log.problems ?? []).map((p) => p.line));
    diagnostics.push(
      ...result.diagnostics.filter((d) => !(said.has(d.line) && /^not valid UTF-(?:8|16)\b/.test(d.reason))),
    );
    all.push(...result.facts);
    // A file that could not be read already has its diagnostic; one read in another encoding,
    // or with a bad line, was read, and is said like any other log without a Retain section.
    if (result.sections === 0 && !log.unread) noRetain.push(log.path);
  }
  all.sort((a, b) => Number(a.extracted ?? false) - Number(b.extracted ?? false) || compareFacts(a, b));
  const facts: Fact[] = [];
  const seen = new Map<string, Fact>();
  for (const fact of all) {
    const first = seen.get(fact.id);
    if (first) {
      diagnostics.push({
        path: fact.source.path,
        line: fact.source.line,
        reason: `duplicate of the fact at ${first.source.path}:${first.source.line} (same date, type, entities and text)`,
      });
      continue;
    }
    seen.set(fact.id, fact);
    facts.push(fact);
  }
  facts.sort(compareFacts);
  diagnostics.sort(compareDiagnostics);
  return { facts, diagnostics, noRetain: noRetain.sort() };
}
