import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { LlmServices } from "../llm/types.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { MembankError } from "../workspace/errors.js";
import { outsideWorkspace } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { type Clock, createClock } from "./clock.js";
import { digestPath, entryFromMessage, mergeEntries, parseDigest, renderDigest } from "./digest.js";
import { findSessionFiles, isExcluded, isHeartbeatMessage, resolveSessionsDir, type SessionFile } from "./discover.js";
import { extractSessionFacts } from "./extract.js";
import { parseSessionChunk } from "./parse.js";
import { redactSecrets } from "./redact.js";
import { loadSessionsState, saveSessionsState } from "./state.js";
import type { IngestReport, SessionMessage } from "./types.js";

export interface IngestOptions {
  /** A folder of session transcripts (`*.jsonl`, or `<agentId>/sessions/*.jsonl`); default config `sessions.dir`. */
  dir?: string;
  /** With `extractFacts`, the day's messages also become Retain facts in that day's log. */
  llm?: LlmServices;
  /** "Now": messages of this day (in the sessions time zone) or later wait for a later run. */
  now?: Date;
  /** Compute everything but write nothing (no digests, no state). */
  dryRun?: boolean;
}

/** The zone that decides days: sessions.tz, then schedule.tz, then the machine's zone. */
export function sessionsClock(ws: Workspace): Clock {
  const tz = ws.config.sessions.tz ?? ws.config.schedule.tz;
  try {
    return createClock(tz);
  } catch {
    throw new MembankError(`Unknown time zone ${JSON.stringify(tz)} in sessions.tz / schedule.tz.`, {
      code: "ECONFIG",
    });
  }
}

async function readFrom(file: string, offset: number): Promise<string> {
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    const buf = Buffer.alloc(Math.max(0, size - offset));
    let done = 0;
    while (done < buf.length) {
      const { bytesRead } = await fh.read(buf, done, buf.length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done).toString("utf8");
  } finally {
    await fh.close();
  }
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
  const configured = opts.dir ?? ws.config.sessions.dir;
  if (!configured) {
    report.skipped = "no sessions folder (config sessions.dir or --sessions DIR)";
    return report;
  }
  const dir = resolveSessionsDir(configured, ws.root);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new MembankError(`Sessions folder ${dir} does not exist or is not a folder.`, { code: "ENOSESSIONS" });
  }
  const clock = sessionsClock(ws);
  const today = clock.day((opts.now ?? new Date()).getTime());
  const state = await loadSessionsState(ws);
  const all = await findSessionFiles(dir);
  const files: SessionFile[] = [];
  for (const f of all) {
    if (isExcluded(f, ws.config.sessions.exclude)) report.excluded++;
    else files.push(f);
  }
  report.files = files.length;

  const byDay = new Map<string, SessionMessage[]>();
  let stateChanged = false;
  for (const f of files) {
    const size = (await stat(f.absPath)).size;
    let prev = state.files[f.key] ?? { lines: 0, bytes: 0 };
    if (size < prev.bytes) {
      // The file was truncated or replaced: read it again from the start (digests dedupe by line).
      prev = { lines: 0, bytes: 0 };
    }
    if (size === prev.bytes) continue;
    const text = await readFrom(f.absPath, prev.bytes);
    const chunk = parseSessionChunk(
      text,
      {
        source: f.key,
        sessionId: f.sessionId,
        ...(f.agent !== undefined ? { agent: f.agent } : {}),
        displayPath: f.absPath,
        firstLine: prev.lines + 1,
        ...(prev.lastTs !== undefined ? { lastTs: prev.lastTs } : {}),
      },
      clock.day,
      today,
    );
    report.diagnostics.push(...chunk.diagnostics);
    report.deferred += chunk.deferred;
    const dropHeartbeats = ws.config.sessions.exclude.some((w) => w.toLowerCase() === "heartbeat");
    const kept = dropHeartbeats ? chunk.messages.filter((m) => !isHeartbeatMessage(m.text)) : chunk.messages;
    report.heartbeats += chunk.messages.length - kept.length;
    if (kept.length > 0) report.sessionsIngested++;
    for (const m of kept) {
      const r = redactSecrets(m.text);
      report.redactions += r.count;
      const day = clock.day(m.ts);
      const list = byDay.get(day);
      const msg = { ...m, text: r.text };
      if (list) list.push(msg);
      else byDay.set(day, [msg]);
    }
    report.messages += kept.length;
    if (chunk.lines > 0) {
      state.files[f.key] = {
        lines: prev.lines + chunk.lines,
        bytes: prev.bytes + chunk.bytes,
        ...(chunk.lastTs !== undefined ? { lastTs: chunk.lastTs } : {}),
      };
      stateChanged = true;
    }
  }

  const written = new Set<string>();
  const days = [...byDay.keys()].sort();
  report.days = days;
  // The workspace rule (README): nothing is read or written through a link out of the
  // workspace. Such a day is left out, and the state is not saved, so it is read again.
  const blocked = new Set<string>();
  for (const day of days) {
    const messages = byDay.get(day) as SessionMessage[];
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
    const abs = path.join(ws.root, rel);
    let old: string | undefined;
    try {
      old = await readFile(abs, "utf8");
    } catch {
      old = undefined;
    }
    const merged = mergeEntries(
      old === undefined ? [] : parseDigest(old),
      messages.map((m) => entryFromMessage(m, clock)),
    );
    const next = renderDigest(day, merged, clock.zone);
    if (next !== old) {
      if (!opts.dryRun) await writeFileAtomic(abs, next);
      written.add(rel);
    }
  }

  // Digests first, state last: a crash in between re-reads lines that merge away as duplicates.
  if (opts.llm?.extractFacts && !opts.dryRun) {
    for (const day of days) {
      if (blocked.has(day)) continue;
      const res = await extractSessionFacts(ws, day, byDay.get(day) as SessionMessage[], opts.llm);
      report.factsExtracted += res.facts;
      if (res.written) written.add(res.written);
      for (const w of res.warnings) report.diagnostics.push({ path: `memory/${day}.md`, line: 0, reason: w });
    }
  }
  if (stateChanged && !opts.dryRun && blocked.size === 0) await saveSessionsState(ws, state);
  report.written = [...written].sort();
  return report;
}
