import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { agentFolders, isExcluded, type SessionFile, transcriptKey } from "./discover.js";
import {
  coldArchiveEvents,
  OpenClawStore,
  STORE_FILE,
  type StoreBlob,
  type StoreEvent,
  type StoreSession,
  storeErrorReason,
} from "./openclaw-store.js";
import { parseSessionLine } from "./parse.js";
import type { SessionsState, StoreCursor } from "./state.js";
import type { IngestReport, SessionMessage } from "./types.js";
import { unzstd } from "./zstd.js";

/** An agent's open store and what it knows. */
export interface OpenStore {
  agent: string;
  store: OpenClawStore;
  keys: Map<string, string>;
}

/**
 * Open every agent's store under `agentsDir` read-only (`<agentsDir>/<id>/agent/`, or the
 * agent's own `agentDirs[id]` when OpenClaw's config moves it). A store that cannot be opened
 * is a diagnostic (the run goes on with the others and with the transcript files).
 */
export async function openStores(
  agentsDir: string,
  report: IngestReport,
  only?: ReadonlySet<string>,
  agentDirs: Readonly<Record<string, string>> = {},
): Promise<OpenStore[]> {
  const agents = [...new Set([...(await agentFolders(agentsDir)), ...Object.keys(agentDirs)])].sort();
  const out: OpenStore[] = [];
  for (const agent of agents) {
    if (only && !only.has(agent)) continue;
    const file = path.join(agentDirs[agent] ?? path.join(agentsDir, agent, "agent"), STORE_FILE);
    try {
      if (!(await stat(file)).isFile()) continue;
    } catch {
      continue;
    }
    try {
      const store = OpenClawStore.open(file);
      try {
        out.push({ agent, store, keys: store.sessionKeys() });
      } catch (error) {
        store.close();
        throw error;
      }
    } catch (error) {
      report.diagnostics.push({ path: file, line: 0, reason: storeErrorReason(error) });
    }
  }
  return out;
}

/** Reset/deleted archives that are only in the store (not yet written to `sessions/`), as session files. */
export function storeArchiveFiles(s: OpenStore, known: ReadonlySet<string>, report: IngestReport): SessionFile[] {
  const out: SessionFile[] = [];
  let archives: StoreBlob[];
  try {
    archives = s.store.archives();
  } catch (error) {
    report.diagnostics.push({ path: s.store.file, line: 0, reason: storeErrorReason(error) });
    return [];
  }
  for (const a of archives) {
    const key = `${s.agent}/sessions/${a.name}`.replace(/`/g, "'");
    if (known.has(key)) continue;
    out.push({
      key,
      absPath: s.store.file,
      sessionId: a.sessionId,
      agent: s.agent,
      transcript: transcriptKey(a.sessionId, s.agent),
      blob: { size: a.size, read: a.read },
      ...(a.zstd ? { zstd: true } : {}),
    });
  }
  return out;
}

export interface EventSink {
  state: SessionsState;
  exclude: readonly string[];
  dayOf: (ts: number) => string;
  /** Messages of this day or later wait for a later run. */
  today: string;
  report: IngestReport;
  /** Hand a message to its day's digest; true when it is in the digest (new or already there). */
  emit: (m: SessionMessage) => Promise<boolean>;
}

/**
 * Feed one session's events (seq order) past its cursor to the digests; returns the new cursor.
 * Events off the active branch (an abandoned edit) are skipped; a malformed event is a
 * diagnostic `<store>#<session>:<seq>`; at the first message of `today` the session stops.
 */
async function consumeEvents(
  events: Iterable<StoreEvent>,
  where: { agent: string; sessionId: string; display: string },
  cursor: StoreCursor,
  active: Set<number> | undefined,
  sink: EventSink,
): Promise<{ cursor: StoreCursor; kept: number; deferred: number }> {
  const source = transcriptKey(where.sessionId, where.agent);
  const ctx = { source, sessionId: where.sessionId, agent: where.agent, displayPath: where.display, firstLine: 1 };
  const maxActive = active ? Math.max(...active) : -1;
  let { seq, lastTs } = cursor;
  let stopped = false;
  let kept = 0;
  let deferred = 0;
  for (const ev of events) {
    if (ev.seq <= cursor.seq) continue;
    if (ev.error !== undefined || ev.json === undefined) {
      if (!stopped) {
        sink.report.diagnostics.push({ path: where.display, line: ev.seq, reason: ev.error ?? "unreadable event" });
        seq = Math.max(seq, ev.seq);
      }
      continue;
    }
    if (active && ev.seq <= maxActive && !active.has(ev.seq)) {
      if (!stopped) seq = ev.seq;
      continue;
    }
    const outcome = parseSessionLine(ev.json, ev.seq + 1, ctx, lastTs);
    if (outcome.kind === "message") {
      if (stopped || sink.dayOf(outcome.message.ts) >= sink.today) {
        stopped = true;
        deferred++;
        continue;
      }
      lastTs = outcome.message.ts;
      seq = ev.seq;
      if (await sink.emit(outcome.message)) kept++;
    } else if (!stopped) {
      if (outcome.kind === "diagnostic") sink.report.diagnostics.push({ ...outcome.diagnostic, line: ev.seq });
      else if (outcome.ts !== undefined) lastTs = outcome.ts;
      seq = ev.seq;
    }
  }
  return { cursor: lastTs === undefined ? { seq } : { seq, lastTs }, kept, deferred };
}

function cursorOf(sink: EventSink, id: string): StoreCursor {
  return sink.state.stores?.[id] ?? { seq: -1 };
}

function setCursor(sink: EventSink, id: string, c: StoreCursor): boolean {
  const prev = cursorOf(sink, id);
  if (prev.seq === c.seq && prev.lastTs === c.lastTs) return false;
  sink.state.stores = { ...(sink.state.stores ?? {}), [id]: c };
  return true;
}

/** The live sessions of one store, then its cold archives. Returns whether the state changed. */
export async function ingestStore(s: OpenStore, sink: EventSink): Promise<boolean> {
  let changed = false;
  const { report } = sink;
  let sessions: StoreSession[];
  try {
    sessions = s.store.sessions();
  } catch (error) {
    report.diagnostics.push({ path: s.store.file, line: 0, reason: storeErrorReason(error) });
    return false;
  }
  for (const session of sessions) {
    if (isExcluded({ agent: s.agent, sessionId: session.sessionId }, sink.exclude, session.sessionKey)) {
      report.excluded++;
      continue;
    }
    report.files++;
    const id = `${s.agent}/${session.sessionId}`;
    const display = `${s.store.file}#${session.sessionId}`;
    try {
      const r = await consumeEvents(
        s.store.events(session.sessionId, cursorOf(sink, id).seq),
        { agent: s.agent, sessionId: session.sessionId, display },
        cursorOf(sink, id),
        s.store.activeSeqs(session.sessionId),
        sink,
      );
      report.messages += r.kept;
      report.deferred += r.deferred;
      if (r.kept > 0) report.sessionsIngested++;
      if (setCursor(sink, id, r.cursor)) changed = true;
    } catch (error) {
      report.diagnostics.push({ path: display, line: 0, reason: storeErrorReason(error) });
    }
  }
  return (await ingestCold(s, sink)) || changed;
}

/** Cold archives: `sessions/cold/<sha256>.jsonl.zst` files and those kept inside the store. */
async function ingestCold(s: OpenStore, sink: EventSink): Promise<boolean> {
  const dir = path.join(path.dirname(path.dirname(s.store.file)), "sessions", "cold");
  const blobs: { key: string; display: string; load: () => Promise<Buffer>; size: number }[] = [];
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl.zst")).sort();
  } catch {
    names = [];
  }
  for (const n of names) {
    const abs = path.join(dir, n);
    try {
      blobs.push({
        key: `${s.agent}/sessions/cold/${n}`,
        display: abs,
        load: () => readFile(abs),
        size: (await stat(abs)).size,
      });
    } catch {
      // vanished (restored by OpenClaw) between readdir and stat
    }
  }
  let stored: StoreBlob[] = [];
  try {
    stored = s.store.coldBlobs();
  } catch (error) {
    sink.report.diagnostics.push({ path: s.store.file, line: 0, reason: storeErrorReason(error) });
  }
  for (const b of stored) {
    const key = `${s.agent}/sessions/cold/${b.name}`;
    if (!names.includes(b.name))
      blobs.push({ key, display: `${s.store.file}#${b.name}`, load: async () => b.read(), size: b.size });
  }
  let changed = false;
  for (const b of blobs) {
    if (sink.state.files[b.key]?.done === b.size) continue;
    let parsed: ReturnType<typeof coldArchiveEvents>;
    try {
      parsed = coldArchiveEvents(unzstd(await b.load()).toString("utf8"));
    } catch (error) {
      sink.report.diagnostics.push({ path: b.display, line: 0, reason: (error as Error).message });
      continue;
    }
    if (parsed.sessionId === undefined) {
      sink.report.diagnostics.push({ path: b.display, line: 0, reason: "cold archive without a header record" });
      continue;
    }
    const sessionId = parsed.sessionId;
    if (isExcluded({ agent: s.agent, sessionId }, sink.exclude, s.keys.get(sessionId))) {
      sink.report.excluded++;
      continue;
    }
    sink.report.files++;
    const id = `${s.agent}/${sessionId}`;
    const r = await consumeEvents(
      parsed.events,
      { agent: s.agent, sessionId, display: b.display },
      cursorOf(sink, id),
      parsed.active,
      sink,
    );
    sink.report.messages += r.kept;
    sink.report.deferred += r.deferred;
    if (r.kept > 0) sink.report.sessionsIngested++;
    if (setCursor(sink, id, r.cursor)) changed = true;
    if (r.deferred === 0) {
      sink.state.files[b.key] = { lines: parsed.events.length, bytes: 0, done: b.size };
      changed = true;
    }
  }
  return changed;
}
