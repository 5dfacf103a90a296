import { kb, LINE_MAX_BYTES } from "./limits.js";
import { secretAcrossSeam } from "./redact.js";
import type { SessionDiagnostic, SessionMessage } from "./types.js";

/** Where a session file's lines come from and where parsing resumes. */
export interface ParseContext {
  /** Session file key (path relative to the sessions folder). */
  source: string;
  sessionId: string;
  agent?: string;
  /** Path shown in diagnostics. */
  displayPath: string;
  /** Line number of the first line given (1-based). */
  firstLine: number;
  /** Last timestamp seen before the first line, for messages that carry none. */
  lastTs?: number;
}

/** One complete line's outcome; `cut` reports a truncated record found glued before the one read. */
export type LineOutcome = (
  | { kind: "message"; message: SessionMessage }
  | { kind: "ignored"; ts?: number }
  | { kind: "diagnostic"; diagnostic: SessionDiagnostic }
) & { cut?: SessionDiagnostic };

/** How many places a glued record may start at, in one bad line (a bound on the work, not on the line). */
const MAX_GLUE_TRIES = 8;

/**
 * A writer killed mid-record leaves a line without its end and without a newline; the next
 * writer's record then continues that same line. The record after the cut is whole: its
 * start (`{"type":` or `{"id":`, as agents write them) is where the line parses again.
 */
function gluedRecord(line: string): { at: number; rec: Record<string, unknown> } | undefined {
  let tries = 0;
  for (let at = line.indexOf('{"', 1); at > 0 && tries < MAX_GLUE_TRIES; at = line.indexOf('{"', at + 1)) {
    if (!/^\{"(?:type|id)"\s*:/.test(line.slice(at, at + 16))) continue;
    tries++;
    try {
      const rec: unknown = JSON.parse(line.slice(at));
      if (isObject(rec)) return { at, rec };
    } catch {
      // not the start of the next record: look further
    }
  }
  return undefined;
}

/**
 * A timestamp as OpenClaw and other agents write it: seconds or milliseconds since the epoch
 * (number or numeric string), or an ISO 8601 string. Undefined when absent or unusable.
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // 1e11 s is the year 5138, 1e11 ms is 1973: anything below is seconds.
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value === "string" && value.trim() !== "") {
    const s = value.trim();
    if (/^\d+(?:\.\d+)?$/.test(s)) return parseTimestamp(Number(s));
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/** The text of a message's content: a string, or the `text` of its `type: "text"` blocks, one paragraph each. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out: string | undefined;
  for (const block of content) {
    if (block && typeof block === "object") {
      const b = block as { type?: unknown; text?: unknown };
      if (b.type !== "text" || typeof b.text !== "string") continue;
      // Parts are paragraphs, but a key split across two parts is glued back so redaction sees it whole.
      if (out === undefined) out = b.text;
      else out += secretAcrossSeam(out, b.text) ? b.text : `\n\n${b.text}`;
    }
  }
  return out ?? "";
}

/** Normalise text so a digest round-trips exactly: LF, no trailing spaces, no edge blank lines, at most one blank line in a row. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/[ \t\u00a0]+$/u, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parse one line (without its newline). `lastTs` is the fallback timestamp for a message without one. */
export function parseSessionLine(raw: string, lineNo: number, ctx: ParseContext, lastTs?: number): LineOutcome {
  const line = raw.replace(/\r$/, "");
  if (line.trim() === "") return { kind: "ignored" };
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch (error) {
    const glued = gluedRecord(line);
    if (glued) {
      const cut: SessionDiagnostic = {
        path: ctx.displayPath,
        line: lineNo,
        reason: `a record cut off after ${glued.at} characters (an interrupted write) runs into the next one: the cut-off part is skipped, the next record is read`,
      };
      return { ...recordOutcome(glued.rec, lineNo, ctx, lastTs), cut };
    }
    const reason = `not valid JSON (${(error as Error).message.split("\n")[0]})`;
    return { kind: "diagnostic", diagnostic: { path: ctx.displayPath, line: lineNo, reason } };
  }
  return recordOutcome(rec, lineNo, ctx, lastTs);
}

/** The outcome of one parsed JSON value of a transcript line. */
function recordOutcome(rec: unknown, lineNo: number, ctx: ParseContext, lastTs?: number): LineOutcome {
  if (!isObject(rec)) {
    return { kind: "diagnostic", diagnostic: { path: ctx.displayPath, line: lineNo, reason: "not a JSON object" } };
  }
  const recTs = parseTimestamp(rec.timestamp);
  if (rec.type !== "message") return recTs === undefined ? { kind: "ignored" } : { kind: "ignored", ts: recTs };
  const msg = rec.message;
  if (!isObject(msg)) {
    return {
      kind: "diagnostic",
      diagnostic: { path: ctx.displayPath, line: lineNo, reason: 'message record without a "message" object' },
    };
  }
  const ts = recTs ?? parseTimestamp(msg.timestamp);
  if (msg.role !== "user" && msg.role !== "assistant")
    return ts === undefined ? { kind: "ignored" } : { kind: "ignored", ts };
  const text = normalizeText(contentText(msg.content));
  if (text === "") return ts === undefined ? { kind: "ignored" } : { kind: "ignored", ts };
  const when = ts ?? lastTs;
  if (when === undefined) {
    return {
      kind: "diagnostic",
      diagnostic: { path: ctx.displayPath, line: lineNo, reason: "message has no timestamp and none came before it" },
    };
  }
  const message: SessionMessage = {
    source: ctx.source,
    sessionId: ctx.sessionId,
    line: lineNo,
    role: msg.role,
    text,
    ts: when,
  };
  if (ctx.agent !== undefined) message.agent = ctx.agent;
  if (typeof rec.id === "string" && rec.id !== "") message.eventId = rec.id;
  return { kind: "message", message };
}

export interface ParsedChunk {
  messages: SessionMessage[];
  diagnostics: SessionDiagnostic[];
  /** Lines consumed (complete lines only, stopping before a message of `stopDay` or later). */
  lines: number;
  /** Bytes consumed, matching `lines`. */
  bytes: number;
  /** Messages not consumed because they belong to a day not over yet. */
  deferred: number;
  lastTs?: number;
}

/**
 * Parses a session file one complete line at a time, so a transcript of any size is read in
 * constant memory. Stops consuming at the first message whose day (by `dayOf`) is `stopDay`
 * or later: that day is still going, and the line will be read again by a later run.
 */
export class SessionChunkParser {
  private readonly out: Omit<ParsedChunk, "messages"> = { diagnostics: [], lines: 0, bytes: 0, deferred: 0 };
  private lastTs: number | undefined;
  private lineNo: number;
  private stopped = false;
  private bytes = 0;

  constructor(
    private readonly ctx: ParseContext,
    private readonly dayOf: (ts: number) => string,
    private readonly stopDay?: string,
  ) {
    this.lastTs = ctx.lastTs;
    this.lineNo = ctx.firstLine;
  }

  /**
   * One line without its newline; `byteLength` is its size in the file (newline excluded).
   * `raw` undefined: the line was too long to hold (see LINE_MAX_BYTES) and is skipped.
   * Returns the message to keep, if the line is one.
   */
  line(raw: string | undefined, byteLength: number): SessionMessage | undefined {
    const lineNo = this.lineNo++;
    let kept: SessionMessage | undefined;
    const outcome: LineOutcome =
      raw === undefined
        ? {
            kind: "diagnostic",
            diagnostic: {
              path: this.ctx.displayPath,
              line: lineNo,
              reason: `line of ${kb(byteLength)} KB is over the ${kb(LINE_MAX_BYTES)} KB limit for one transcript record; skipped`,
            },
          }
        : parseSessionLine(raw, lineNo, this.ctx, this.lastTs);
    if (outcome.kind === "message") {
      if (this.stopped || (this.stopDay !== undefined && this.dayOf(outcome.message.ts) >= this.stopDay)) {
        this.stopped = true;
        this.out.deferred++;
        return undefined;
      }
      kept = outcome.message;
      this.lastTs = outcome.message.ts;
      if (outcome.cut) this.out.diagnostics.push(outcome.cut);
    } else if (!this.stopped) {
      if (outcome.cut) this.out.diagnostics.push(outcome.cut);
      if (outcome.kind === "diagnostic") this.out.diagnostics.push(outcome.diagnostic);
      else if (outcome.ts !== undefined) this.lastTs = outcome.ts;
    }
    this.bytes += byteLength + 1;
    if (!this.stopped) {
      this.out.lines = this.lineNo - this.ctx.firstLine;
      this.out.bytes = this.bytes;
    }
    return kept;
  }

  result(): Omit<ParsedChunk, "messages"> {
    return this.lastTs === undefined ? { ...this.out } : { ...this.out, lastTs: this.lastTs };
  }
}

/** Parse the complete lines of `text` (a trailing line without a newline may still be being written, so it waits). */
export function parseSessionChunk(
  text: string,
  ctx: ParseContext,
  dayOf: (ts: number) => string,
  stopDay?: string,
): ParsedChunk {
  const parser = new SessionChunkParser(ctx, dayOf, stopDay);
  const messages: SessionMessage[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) break;
    const raw = text.slice(pos, nl);
    const m = parser.line(raw, Buffer.byteLength(raw, "utf8"));
    if (m) messages.push(m);
    pos = nl + 1;
  }
  return { messages, ...parser.result() };
}
