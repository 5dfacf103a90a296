/**
 * OpenClaw's per-agent session store, `<agentsDir>/<agentId>/agent/openclaw-agent.sqlite`,
 * read-only.
 *
 * Schema read from the published package openclaw@2026.9.6 (`npm pack openclaw@2026.9.6`,
 * `dist/openclaw-agent-board-schema-*.mjs`, constant OPENCLAW_AGENT_SCHEMA_SQL), the writers
 * in `dist/session-accessor.sqlite-transcript-write-*.mjs`, `dist/transcript-payload-*.mjs`
 * (event_zstd: one zstd frame of the event's UTF-8 JSON, event_utf8_bytes long),
 * `dist/config/sessions/session-accessor.sqlite-archive.worker.js` (reset/deleted archives:
 * the events' JSON one per line ordered by seq, zstd or identity, named
 * `<sessionId>.jsonl.<reason>.<stamp>[.<generation>][.zst]`) and
 * `dist/session-cold-storage-worker-*.mjs` (cold archives: JSONL records
 * `{kind:"header",sessionId}`, `{kind:"event",row:{seq,event_json,created_at}}`, ... zstd,
 * in `sessions/cold/<sha256>.jsonl.zst` or in `session_transcript_cold_archives.archive_blob`).
 * Tables used (only these columns):
 *   session_windows(session_id, session_key)
 *   transcript_events(session_id, seq, event_json, event_zstd, event_utf8_bytes, created_at)
 *   session_transcript_active_events(session_id, event_seq)
 *   session_transcript_archives(session_id, session_key, encoding, archive_blob, archive_name)
 *   session_transcript_cold_archives(session_id, archive_name, storage, archive_blob)
 * seq counts a transcript's events from 0, so the event at seq N is line N+1 of the session's
 * JSONL archive: membank cites it as line N+1 of `<agent>/sessions/<sessionId>.jsonl`, and the
 * same event read from the store, an archive or a pre-2026.8 transcript file merges into one
 * digest entry.
 */
import { OpenClawStoreDb, type StoreBlob, type StoreSession } from "../index/openclaw-store.js";
import { unzstd } from "./zstd.js";

export type { StoreBlob, StoreSession };

export const STORE_FILE = "openclaw-agent.sqlite";

/** One transcript event: its JSON, or why it cannot be read. */
export interface StoreEvent {
  seq: number;
  json?: string;
  error?: string;
}

/** A SQLite error as a one-line reason a user can act on. */
export function storeErrorReason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const msg = (e.message ?? String(error)).split("\n")[0];
  if (e.code === "SQLITE_BUSY" || e.code === "SQLITE_LOCKED")
    return `the store is busy (${msg}); OpenClaw is writing, the next run reads it`;
  if (e.code === "SQLITE_CANTOPEN")
    return `cannot open the store (${msg}); check that the file and its -wal/-shm are readable`;
  if (e.code === "SQLITE_NOTADB" || e.code === "SQLITE_CORRUPT") return `not a readable SQLite database (${msg})`;
  return `cannot read the store (${e.code ? `${e.code}: ` : ""}${msg})`;
}

/**
 * OpenClaw's store as transcript events: the SQL is src/index/openclaw-store.ts; this
 * decompresses events one at a time and says why one cannot be read.
 */
export class OpenClawStore {
  private constructor(private readonly db: OpenClawStoreDb) {}

  get file(): string {
    return this.db.file;
  }

  /** Throws a SQLite error (see storeErrorReason). */
  static open(file: string): OpenClawStore {
    return new OpenClawStore(OpenClawStoreDb.open(file));
  }

  close(): void {
    this.db.close();
  }

  /** Every session id the store knows, with its session key (`agent:main:cron:...`). */
  sessionKeys(): Map<string, string> {
    return this.db.sessionKeys();
  }

  /** Sessions with events in the store (a session moved to cold storage has none). */
  sessions(): StoreSession[] {
    return this.db.sessions();
  }

  /** The seqs on the session's active branch; undefined when OpenClaw has not indexed it. */
  activeSeqs(sessionId: string): Set<number> | undefined {
    return this.db.activeSeqs(sessionId);
  }

  /** Events after `afterSeq`, in order, decompressed one at a time. */
  *events(sessionId: string, afterSeq: number): Generator<StoreEvent> {
    for (const r of this.db.eventRows(sessionId, afterSeq)) {
      if (r.event_json !== null) {
        yield { seq: r.seq, json: r.event_json };
        continue;
      }
      if (r.event_zstd === null) {
        yield { seq: r.seq, error: "event has neither event_json nor event_zstd" };
        continue;
      }
      try {
        const raw = unzstd(r.event_zstd, 4 * 1024 * 1024);
        if (r.event_utf8_bytes !== null && raw.length !== r.event_utf8_bytes) {
          yield {
            seq: r.seq,
            error: `event_zstd holds ${raw.length} bytes, event_utf8_bytes says ${r.event_utf8_bytes}`,
          };
        } else yield { seq: r.seq, json: raw.toString("utf8") };
      } catch (error) {
        yield { seq: r.seq, error: `event_zstd ${(error as Error).message}` };
      }
    }
  }

  /** Reset/deleted archives kept in the store (their `sessions/` file may not be written yet). */
  archives(): StoreBlob[] {
    return this.db.archives();
  }

  /** Cold archives stored inside the database rather than in `sessions/cold/`. */
  coldBlobs(): StoreBlob[] {
    return this.db.coldBlobs();
  }
}

/** The events of a decompressed cold archive (its other records are OpenClaw's indexes). */
export function coldArchiveEvents(text: string): { sessionId?: string; events: StoreEvent[]; active?: Set<number> } {
  const events: StoreEvent[] = [];
  const active = new Set<number>();
  let sessionId: string | undefined;
  let n = 0;
  for (const line of text.split("\n")) {
    n++;
    if (line.trim() === "") continue;
    let rec: {
      kind?: unknown;
      sessionId?: unknown;
      row?: { seq?: unknown; event_json?: unknown; event_seq?: unknown };
    };
    try {
      rec = JSON.parse(line);
    } catch {
      events.push({ seq: -n, error: `record ${n} is not valid JSON` });
      continue;
    }
    if (rec?.kind === "header" && typeof rec.sessionId === "string") sessionId = rec.sessionId;
    if (rec?.kind === "active" && typeof rec.row?.event_seq === "number") active.add(rec.row.event_seq);
    if (rec?.kind !== "event") continue;
    const seq = rec.row?.seq;
    const json = rec.row?.event_json;
    if (typeof seq !== "number" || typeof json !== "string")
      events.push({ seq: -n, error: `record ${n}: event without seq or event_json` });
    else events.push({ seq, json });
  }
  return {
    events,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(active.size > 0 ? { active } : {}),
  };
}
