import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { LlmServices } from "../llm/types.js";
import { type Clock, sessionsClock } from "../workspace/clock.js";
import { MembankError } from "../workspace/errors.js";
import { isReadOnlyFile, outsideWorkspace } from "../workspace/files.js";
import { writeOwnedFile } from "../workspace/owned.js";
import type { Workspace } from "../workspace/workspace.js";
import { DayDigest } from "./day.js";
import { capMessage, digestPath } from "./digest.js";
import { findSessionFiles, isExcluded, isHeartbeatMessage, resolveSessionsDir, type SessionFile } from "./discover.js";
import { extractSessionFacts } from "./extract.js";
import {
  DIGEST_DAY_MAX_BYTES,
  DIGEST_READ_MAX_BYTES,
  kb,
  MESSAGE_MAX_BYTES,
  REDACT_LOOKAHEAD_CHARS,
} from "./limits.js";
import { chunkLines, type FileLine, fileLines } from "./lines.js";
import { OpenClawConfigError } from "./openclaw-config.js";
import { ingestStore, type OpenStore, openStores, storeArchiveFiles } from "./openclaw-ingest.js";
import { findOpenClawSessions, type LocateOptions, type OpenClawSessions } from "./openclaw-locate.js";
import { SessionChunkParser } from "./parse.js";
import { redactSecrets } from "./redact.js";
import { loadSessionsState, saveSessionsState } from "./state.js";
import type { IngestReport, SessionMessage } from "./types.js";
import { zstdChunks } from "./zstd.js";

export interface IngestOptions extends LocateOptions {
  /**
   * A folder of session transcripts (`*.jsonl`, or OpenClaw's agents dir `<agentId>/sessions/*.jsonl`
   * and `<agentId>/agent/openclaw-agent.sqlite`); default config `sessions.dir`, else OpenClaw's
   * agents dir when the workspace is OpenClaw's (`env`/`home`: where to look for it).
   */
  dir?: string;
  /** With `extractFacts`, the day's messages also become Retain facts in that day's log. */
  llm?: LlmServices;
  /** "Now": messages of this day (in the sessions time zone) or later wait for a later run. */
  now?: Date;
  /** Compute everything but write nothing (no digests, no state). */
  dryRun?: boolean;
}

function emptyReport(): IngestReport {
  return {
    files: 0,
    excluded: 0,
    sessionsIngested: 0,
    messages: 0,
    deferred: 0,
    days: [],
    written: [],
    factsExtracted: 0,
    redactions: 0,
    heartbeats: 0,
    truncated: 0,
    leftOut: [],
    diagnostics: [],
  };
}

/**
 * Ingest the agent's session transcripts: every message of a past day reaches
 * `memory/YYYY-MM-DD-sessions.md` (and, with an LLM, Retain facts in that day's log).
 * Idempotent: `.memory/sessions-state.json` remembers how far each file was read, and digests
 * merge by (file, line), so a rerun after a crash or with lost state writes the same bytes.
 */
export async function ingestSessions(ws: Workspace, opts: IngestOptions = {}): Promise<IngestReport> {
  const report = emptyReport();
  let located: OpenClawSessions | undefined;
  try {
    located = await sessionsDir(ws, opts);
  } catch (error) {
    if (!(error instanceof OpenClawConfigError)) throw error;
    // Which agent's chats belong here is in that config: reading none is the only safe
    // choice, and the next run after the fix reads them all (state is per transcript).
    report.skipped = `no chats read: ${error.message} (OpenClaw cannot read it either; \`openclaw config validate\` says more); the next run after the fix reads them`;
    return report;
  }
  if (!located) {
    report.skipped = "no sessions folder (config sessions.dir or --sessions DIR; none found for OpenClaw)";
    return report;
  }
  const clock = sessionsClock(ws);
  const today = clock.day((opts.now ?? new Date()).getTime());
  const state = await loadSessionsState(ws);
  // Several OpenClaw agents: only those whose workspace this is (the others' chats are theirs).
  const agents = located.agents === undefined ? undefined : new Set(located.agents);
  const stores = await openStores(located.dir, report, agents, located.agentDirs);
  try {
    return await ingestOpened(ws, opts, located.dir, agents, stores, state, report, clock, today);
  } finally {
    for (const s of stores) s.store.close();
  }
}

/** The sessions folder: `--sessions`/`sessions.dir`, else OpenClaw's agents dir when the workspace is OpenClaw's. */
async function sessionsDir(ws: Workspace, opts: IngestOptions): Promise<OpenClawSessions | undefined> {
  const configured = opts.dir ?? ws.config.sessions.dir;
  if (!configured) return findOpenClawSessions(ws.root, opts);
  const dir = resolveSessionsDir(configured, ws.root, opts.home ?? opts.env?.HOME);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new MembankError(`Sessions folder ${dir} does not exist or is not a folder.`, { code: "ENOSESSIONS" });
  }
  try {
    // OpenClaw's state dir given instead of its agents dir.
    if ((await stat(path.join(dir, "agents"))).isDirectory()) return { dir: path.join(dir, "agents") };
  } catch {
    // a plain sessions folder
  }
  return { dir };
}

/** A transcript's complete lines from byte `offset` of its (decompressed) content. */
async function transcriptLines(f: SessionFile, offset: number): Promise<AsyncGenerator<FileLine>> {
  if (!f.zstd && !f.blob) return fileLines(f.absPath, offset);
  const raw = f.blob ? f.blob.read() : await readFile(f.absPath);
  return chunkLines(f.zstd ? zstdChunks(raw, offset) : [raw.subarray(offset)]);
}

async function ingestOpened(
  ws: Workspace,
  opts: IngestOptions,
  dir: string,
  agents: ReadonlySet<string> | undefined,
  stores: OpenStore[],
  state: Awaited<ReturnType<typeof loadSessionsState>>,
  report: IngestReport,
  clock: Clock,
  today: string,
): Promise<IngestReport> {
  const all = await findSessionFiles(dir);
  const known = new Set(all.map((f) => f.key));
  for (const s of stores) all.push(...storeArchiveFiles(s, known, report));
  const keyOf = (f: SessionFile) => stores.find((s) => s.agent === f.agent)?.keys.get(f.sessionId);
  const files: SessionFile[] = [];
  for (const f of all) {
    if (isExcluded(f, ws.config.sessions.exclude, keyOf(f))) report.excluded++;
    else if (agents && f.agent !== undefined && !agents.has(f.agent)) report.excluded++;
    else files.push(f);
  }
  report.files = files.length;

  const byDay = new Map<string, DayDigest>();
  const dayOf = async (day: string): Promise<DayDigest> => {
    let d = byDay.get(day);
    if (!d) {
      const abs = path.join(ws.root, digestPath(day));
      let old: string | undefined;
      let frozen = false;
      try {
        frozen = (await stat(abs)).size > DIGEST_READ_MAX_BYTES;
        if (!frozen) old = await readFile(abs, "utf8");
      } catch {
        old = undefined;
      }
      d = new DayDigest(day, clock, old, frozen);
      byDay.set(day, d);
    }
    return d;
  };
  // Redact before the cut (a cut must never leave the start of a secret behind), but scan only
  // the start of a huge message: what lies beyond the lookahead is cut anyway.
  const prepare = (m: SessionMessage): SessionMessage => {
    const long = m.text.length > MESSAGE_MAX_BYTES + REDACT_LOOKAHEAD_CHARS;
    const r = redactSecrets(long ? m.text.slice(0, MESSAGE_MAX_BYTES + REDACT_LOOKAHEAD_CHARS) : m.text);
    report.redactions += r.count;
    const capped = capMessage(r.text, long ? Buffer.byteLength(m.text, "utf8") : undefined);
    if (capped.cut > 0) report.truncated++;
    return { ...m, text: capped.text };
  };
  const dropHeartbeats = ws.config.sessions.exclude.some((w) => w.toLowerCase() === "heartbeat");
  let stateChanged = false;
  // An event read twice in one run (a store and an archive whose lines do not line up with seq) is kept once.
  const seenEvents = new Set<string>();
  const emit = async (m: SessionMessage): Promise<boolean> => {
    if (m.eventId !== undefined) {
      const k = `${m.source}\u0000${m.eventId}`;
      if (seenEvents.has(k)) return false;
      seenEvents.add(k);
    }
    if (dropHeartbeats && isHeartbeatMessage(m.text)) {
      report.heartbeats++;
      return false;
    }
    const outcome = (await dayOf(clock.day(m.ts))).offer(m, prepare);
    return outcome === "kept" || outcome === "duplicate";
  };
  for (const f of files) {
    const size = f.blob ? f.blob.size : (await stat(f.absPath)).size;
    let prev = state.files[f.key] ?? { lines: 0, bytes: 0 };
    if (f.zstd || f.blob) {
      // Compressed (or in the store): offsets are in the content; `done` marks one read to its end.
      if (prev.done === size) continue;
    } else if (size < prev.bytes) {
      // The file was truncated or replaced: read it again from the start (digests dedupe by line).
      prev = { lines: 0, bytes: 0 };
    }
    if (!f.zstd && !f.blob && size === prev.bytes) continue;
    const display = f.blob ? `${f.absPath}#${f.key}` : f.absPath;
    const parser = new SessionChunkParser(
      {
        source: f.transcript ?? f.key,
        sessionId: f.sessionId,
        ...(f.agent !== undefined ? { agent: f.agent } : {}),
        displayPath: display,
        firstLine: prev.lines + 1,
        ...(prev.lastTs !== undefined ? { lastTs: prev.lastTs } : {}),
      },
      clock.day,
      today,
    );
    // Streamed line by line: only the day's kept messages (bounded by the digest limit) stay in memory.
    let kept = 0;
    try {
      for await (const line of await transcriptLines(f, prev.bytes)) {
        const m = parser.line(line.text, line.bytes);
        if (m && (await emit(m))) kept++;
      }
    } catch (error) {
      // A corrupt archive (or a file gone mid-read): what was read stays; its state is not advanced.
      report.diagnostics.push({ path: display, line: 0, reason: (error as Error).message });
      report.messages += kept;
      continue;
    }
    const chunk = parser.result();
    report.diagnostics.push(...chunk.diagnostics);
    report.deferred += chunk.deferred;
    if (kept > 0) report.sessionsIngested++;
    report.messages += kept;
    if (chunk.lines > 0 || ((f.zstd || f.blob) && chunk.deferred === 0)) {
      state.files[f.key] = {
        lines: prev.lines + chunk.lines,
        bytes: prev.bytes + chunk.bytes,
        ...(chunk.lastTs !== undefined ? { lastTs: chunk.lastTs } : {}),
        // An archive is never appended to: read to its end, it is done.
        ...((f.zstd || f.blob) && chunk.deferred === 0 ? { done: size } : {}),
      };
      stateChanged = true;
    }
  }
  const sink = {
    state,
    exclude: ws.config.sessions.exclude,
    dayOf: clock.day,
    today,
    report,
    emit,
  };
  for (const s of stores) if (await ingestStore(s, sink)) stateChanged = true;

  const written = new Set<string>();
  const days = [...byDay.keys()].sort();
  report.days = days;
  // The workspace rule (README): nothing is read or written through a link out of the
  // workspace. Such a day is left out, and the state is not saved, so it is read again.
  const blocked = new Set<string>();
  for (const day of days) {
    const d = byDay.get(day) as DayDigest;
    const rel = digestPath(day);
    const outside = outsideWorkspace(ws, rel) ?? outsideWorkspace(ws, `memory/${day}.md`);
    if (outside !== undefined) {
      blocked.add(day);
      report.diagnostics.push({
        path: rel,
        line: 0,
        reason: `leads outside the workspace (to ${outside}) through a symbolic link; not written (make memory/ a real folder, the day is read again next run)`,
      });
      continue;
    }
    if (isReadOnlyFile(path.join(ws.root, rel))) {
      // Made read-only by its user: left as it is; the day is read again once it is handed back.
      blocked.add(day);
      report.diagnostics.push({
        path: rel,
        line: 0,
        reason: `is read-only: not written (the day is read again next run); to hand it back to membank: chmod u+w ${rel}`,
      });
      continue;
    }
    for (const l of [...d.newlyLeftOut.values()].sort((x, y) => (x.source < y.source ? -1 : 1))) {
      report.leftOut.push({ day, source: l.source, messages: l.messages, bytes: l.bytes });
      const why = d.frozen
        ? `the digest is already over ${kb(DIGEST_READ_MAX_BYTES)} KB (written before the daily limit; trim or delete it and run again to rewrite it)`
        : `over the daily digest limit of ${kb(DIGEST_DAY_MAX_BYTES)} KB`;
      report.diagnostics.push({
        path: rel,
        line: 0,
        reason: `${l.messages} message${l.messages === 1 ? "" : "s"} (${kb(l.bytes)} KB) of session ${l.sessionId} left out: ${why}`,
      });
    }
    const next = d.render();
    if (next !== undefined) {
      if (!opts.dryRun) await writeOwnedFile(ws, rel, next);
      written.add(rel);
    }
  }

  // Digests first, state last: a crash in between re-reads lines that merge away as duplicates.
  if (opts.llm?.extractFacts && !opts.dryRun) {
    for (const day of days) {
      if (blocked.has(day)) continue;
      const res = await extractSessionFacts(ws, day, (byDay.get(day) as DayDigest).messages, opts.llm);
      report.factsExtracted += res.facts;
      if (res.written) written.add(res.written);
      for (const w of res.warnings) report.diagnostics.push({ path: `memory/${day}.md`, line: 0, reason: w });
    }
  }
  if (stateChanged && !opts.dryRun && blocked.size === 0) await saveSessionsState(ws, state);
  report.written = [...written].sort();
  return report;
}
