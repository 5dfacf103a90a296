/**
 * SQL over OpenClaw's per-agent session store (`openclaw-agent.sqlite`), read-only; the
 * tables and columns it reads are described in src/sessions/openclaw-store.ts, which turns
 * these rows into transcript events.
 */
import Database from "better-sqlite3";

export interface StoreSession {
  sessionId: string;
  sessionKey: string;
}

/** A transcript_events row: the event's JSON, or its zstd frame and UTF-8 length. */
export interface StoreEventRow {
  seq: number;
  event_json: string | null;
  event_zstd: Buffer | null;
  event_utf8_bytes: number | null;
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

/**
 * A read-only connection: SQLite never writes or locks the store for it, and in WAL mode it
 * reads the last committed state while OpenClaw keeps writing. (When the store is closed, i.e.
 * no `-wal`/`-shm` exist, SQLite itself creates an empty `-wal` and a `-shm` index next to it
 * to read it, and a read-only connection cannot remove them; the database file is untouched.)
 */
export class OpenClawStoreDb {
  private readonly tables: Set<string>;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    this.tables = new Set(rows.map((r) => r.name));
  }

  /** Throws a SQLite error (see storeErrorReason). */
  static open(file: string): OpenClawStoreDb {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 2000 });
    try {
      return new OpenClawStoreDb(file, db);
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

  /** transcript_events rows after `afterSeq`, in order, one at a time. */
  eventRows(sessionId: string, afterSeq: number): Iterable<StoreEventRow> {
    return this.db
      .prepare(
        `SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events
         WHERE session_id = ? AND seq > ? ORDER BY seq`,
      )
      .iterate(sessionId, afterSeq) as Iterable<StoreEventRow>;
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
