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
import Database from "better-sqlite3";
import { unzstd } from "./zstd.js";

export const STORE_FILE = "openclaw-agent.sqlite";

export interface StoreSession {
  sessionId: string;
  sessionKey: string;
}

/** One transcript event: its JSON, or why it cannot be read. */
export interface StoreEvent {
  seq: number;
  json?: string;
  error?: string;
}

/** An archive kept inside the store; its bytes are read only when needed (archives can be large). */
export interface StoreBlob {
  sessionId: string;
  sessionKey?: string;
  name: string;
  zstd: boolean;
  size: number;
  read: () => Buffer;
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
 * A read-only connection: SQLite never writes or locks the store for it, and in WAL mode it
 * reads the last committed state while OpenClaw keeps writing. (When the store is closed, i.e.
 * no `-wal`/`-shm` exist, SQLite itself creates an empty `-wal` and a `-shm` index next to it
 * to read it, and a read-only connection cannot remove them; the database file is untouched.)
 */
export class OpenClawStore {
  private readonly tables: Set<string>;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    this.tables = new Set(rows.map((r) => r.name));
  }

  /** Throws a SQLite error (see storeErrorReason). */
  static open(file: string): OpenClawStore {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 2000 });
    try {
      return new OpenClawStore(file, db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  private has(...tables: string[]): boolean {
    return tables.every((t) => this.tables.has(t));
  }

  /** Every session id the store knows, with its session key (`agent:main:cron:...`). */
  sessionKeys(): Map<string, string> {
    const out = new Map<string, string>();
    const sources = [
      ["session_transcript_archives", "SELECT session_id, session_key FROM session_transcript_archives"],
      ["session_windows", "SELECT session_id, session_key FROM session_windows"],
    ] as const;
    for (const [table, sql] of sources) {
      if (!this.has(table)) continue;
      for (const r of this.db.prepare(sql).iterate() as Iterable<{ session_id: string; session_key: string }>) {
        out.set(r.session_id, r.session_key);
      }
    }
    return out;
  }

  /** Sessions with events in the store (a session moved to cold storage has none). */
  sessions(): StoreSession[] {
    if (!this.has("transcript_events", "session_windows")) return [];
    return this.db
      .prepare(
        `SELECT w.session_id AS sessionId, w.session_key AS sessionKey FROM session_windows w
         WHERE EXISTS (SELECT 1 FROM transcript_events e WHERE e.session_id = w.session_id)
         ORDER BY w.session_id`,
      )
      .all() as StoreSession[];
  }

  /** The seqs on the session's active branch; undefined when OpenClaw has not indexed it. */
  activeSeqs(sessionId: string): Set<number> | undefined {
    if (!this.has("session_transcript_active_events")) return undefined;
    const rows = this.db
      .prepare("SELECT event_seq FROM session_transcript_active_events WHERE session_id = ?")
      .pluck()
      .all(sessionId) as number[];
    return rows.length === 0 ? undefined : new Set(rows);
  }

  /** Events after `afterSeq`, in order, decompressed one at a time. */
  *events(sessionId: string, afterSeq: number): Generator<StoreEvent> {
    const rows = this.db
      .prepare(
        `SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events
         WHERE session_id = ? AND seq > ? ORDER BY seq`,
      )
      .iterate(sessionId, afterSeq) as Iterable<{
      seq: number;
      event_json: string | null;
      event_zstd: Buffer | null;
      event_utf8_bytes: number | null;
    }>;
    for (const r of rows) {
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
    if (!this.has("session_transcript_archives")) return [];
    const rows = this.db
      .prepare(
        `SELECT session_id, session_key, encoding, length(archive_blob) AS size, archive_name
         FROM session_transcript_archives ORDER BY archive_name`,
      )
      .all() as { session_id: string; session_key: string; encoding: string; size: number; archive_name: string }[];
    const blob = this.db.prepare("SELECT archive_blob FROM session_transcript_archives WHERE archive_name = ?").pluck();
    return rows.map((r) => ({
      sessionId: r.session_id,
      sessionKey: r.session_key,
      name: r.archive_name,
      zstd: r.encoding === "zstd",
      size: r.size,
      read: () => blob.get(r.archive_name) as Buffer,
    }));
  }

  /** Cold archives stored inside the database rather than in `sessions/cold/`. */
  coldBlobs(): StoreBlob[] {
    if (!this.has("session_transcript_cold_archives")) return [];
    const rows = this.db
      .prepare(
        `SELECT session_id, archive_name, length(archive_blob) AS size FROM session_transcript_cold_archives
         WHERE storage = 'sqlite' AND archive_blob IS NOT NULL ORDER BY archive_name`,
      )
      .all() as { session_id: string; archive_name: string; size: number }[];
    const blob = this.db
      .prepare("SELECT archive_blob FROM session_transcript_cold_archives WHERE archive_name = ?")
      .pluck();
    return rows.map((r) => ({
      sessionId: r.session_id,
      name: r.archive_name,
      zstd: true,
      size: r.size,
      read: () => blob.get(r.archive_name) as Buffer,
    }));
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
