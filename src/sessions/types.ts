/** A user or assistant message read from a session transcript line. */
export interface SessionMessage {
  /** Session file key: its path relative to the sessions folder, `/` separators. */
  source: string;
  /** Session id: the file name without `.jsonl`. */
  sessionId: string;
  /** OpenClaw agent id (`<agentsDir>/<agentId>/sessions/`), when the layout has one. */
  agent?: string;
  /** 1-based line in the session file. */
  line: number;
  /** The record's own id (OpenClaw's event id), when it has one: the same event read twice in a run is kept once. */
  eventId?: string;
  role: "user" | "assistant";
  text: string;
  /** Epoch milliseconds. */
  ts: number;
}

/** A line that could not be used, with where it is and why. */
export interface SessionDiagnostic {
  path: string;
  line: number;
  reason: string;
}

export interface IngestReport {
  /** Session files found (after exclusion). */
  files: number;
  /** Session files skipped by `sessions.exclude`. */
  excluded: number;
  /** Session files with newly ingested messages. */
  sessionsIngested: number;
  /** Messages newly ingested (written to digests). */
  messages: number;
  /** Messages of today (or later) left for a later run: the day is still going. */
  deferred: number;
  /** Days whose digest got new messages, sorted. */
  days: string[];
  /** Workspace-relative files written (digests, daily logs with extracted facts), sorted. */
  written: string[];
  /** Facts extracted by the LLM and appended to daily logs. */
  factsExtracted: number;
  /** Secrets replaced by `[REDACTED:...]` in the new messages. */
  redactions: number;
  /** Heartbeat polls and acks dropped (when "heartbeat" is in sessions.exclude). */
  heartbeats: number;
  /** Messages cut to MESSAGE_MAX_BYTES (the digest says how much of each was cut). */
  truncated: number;
  /** Messages left out of a day's digest because the day was over DIGEST_DAY_MAX_BYTES, per day and session (also a diagnostic each). */
  leftOut: { day: string; source: string; messages: number; bytes: number }[];
  diagnostics: SessionDiagnostic[];
  /** Why nothing was read, when no sessions folder is configured. */
  skipped?: string;
}
