import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * Validated LLM answers by request, in `.memory/llm-cache.sqlite` (derived data: safe to
 * delete). The same question to the same model gets the same answer without a call, so a
 * second reflect run with no new input changes nothing and costs nothing. Only answers
 * that passed validation are stored.
 */
export interface AnswerCache {
  get(key: string): unknown;
  set(key: string, task: string, value: unknown): void;
  close(): void;
}

/** Opens the SQLite file on first use, so providers that are never asked create nothing. */
export function openAnswerCache(file: string): AnswerCache {
  let db: Database.Database | undefined;
  let broken = false;
  const handle = (): Database.Database | undefined => {
    if (db || broken) return db;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const opened = new Database(file);
      opened.pragma("busy_timeout = 5000");
      opened.pragma("journal_mode = WAL");
      opened.exec(
        "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, task TEXT NOT NULL, answer TEXT NOT NULL, created TEXT NOT NULL)",
      );
      db = opened;
    } catch {
      // A cache that cannot open (read-only disk, corrupt file) only costs extra calls.
      broken = true;
    }
    return db;
  };
  return {
    get(key) {
      const row = handle()?.prepare("SELECT answer FROM answers WHERE key = ?").get(key) as
        | { answer: string }
        | undefined;
      if (!row) return undefined;
      try {
        return JSON.parse(row.answer);
      } catch {
        return undefined;
      }
    },
    set(key, task, value) {
      try {
        handle()
          ?.prepare("INSERT OR REPLACE INTO answers (key, task, answer, created) VALUES (?, ?, ?, ?)")
          .run(key, task, JSON.stringify(value), new Date().toISOString());
      } catch {
        // Best effort, as above.
      }
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}
