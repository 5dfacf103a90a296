/**
 * The warm server's wire format: one JSON request line per connection, one JSON answer
 * line back. The answer carries the library's result object as is, so the CLI prints it
 * with the same code (and bytes) as when it computed it in-process.
 */

export const PROTOCOL_VERSION = 1;

export interface RecallRequest {
  op: "recall";
  query: string;
  provider?: string;
  k?: number;
  since?: string;
  until?: string;
  entity?: string;
  kinds?: string[];
  /** YYYY-MM-DD, validated by the caller. */
  asOf?: string;
  budgetTokens?: number;
  explain?: boolean;
  fusion?: "rrf" | "weighted";
}

export interface SearchRequest {
  op: "search";
  query: string;
  provider?: string;
  maxResults?: number;
  minScore?: number;
}

export interface GetRequest {
  op: "get";
  path: string;
  from?: number;
  lines?: number;
}

export interface PingRequest {
  op: "ping";
}

export type ServeRequest = RecallRequest | SearchRequest | GetRequest | PingRequest;

/** What goes over the socket: the request plus the workspace it is meant for. */
export type Envelope = ServeRequest & { v: number; root: string };

export interface ServeError {
  message: string;
  exitCode: number;
  code: string;
}

export type ServeAnswer = { ok: true; value: unknown } | { ok: false; error: ServeError };

/** Ping's answer: who is serving what. */
export interface ServerInfo {
  pid: number;
  root: string;
  socket: string;
  provider: string;
}

/** Answers the client does not print but takes as "ask in-process instead". */
export const NOT_MINE = "ESERVEMISMATCH";
