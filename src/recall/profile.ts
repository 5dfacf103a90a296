import type { IndexDb } from "../index/db.js";
import { lineStats, newestMemoryLines } from "../index/lines.js";

/**
 * How a workspace's logs are written, and the ranking rules that go with it.
 *
 * - `chat`: the logs are chat transcripts: turns `- **Speaker** (time): ...` (OpenClaw's
 *   exported chats, the LoCoMo benchmark) or membank's own session digests (turn
 *   headings `### 14:03:12 user · L12`, src/sessions/digest.ts). A turn's window follows
 *   the conversation, and a day's events are also looked for in the next days' logs
 *   ("yesterday I ...").
 * - `plain`: daily notes and Retain facts; a line is read where it stands and a day's
 *   events are that day's log.
 */
export type RecallProfileName = "chat" | "plain";

export interface RecallProfile {
  name: RecallProfileName;
  /** Move the window of a chat turn that is not a question one line forward (windows.ts). */
  turnShift: boolean;
  /** Days after a closed time window whose logs may report its events (timewindow.ts reportedWindow). */
  reportLagDays: number;
}

export const PROFILES: Readonly<Record<RecallProfileName, RecallProfile>> = {
  chat: { name: "chat", turnShift: true, reportLagDays: 2 },
  plain: { name: "plain", turnShift: false, reportLagDays: 0 },
};

export interface DetectOptions {
  /** Memory lines read (the newest). */
  sample: number;
  /** Share of them that are chat turns from which the logs count as transcripts. */
  chatShare: number;
}

export const DEFAULT_DETECT: DetectOptions = { sample: 400, chatShare: 0.2 };

const CHAT_TURN = /^\s*(?:[-*+]|\d+\.)\s+\*\*[^*]{1,60}\*\*/u;
const DIGEST_TURN = /^### \d\d:\d\d:\d\d (?:user|assistant) · L\d+\s*$/u;

/** Is this line a turn of a chat transcript (a log's chat turn, or a session digest's message heading)? */
export function isChatTurn(text: string): boolean {
  return CHAT_TURN.test(text) || DIGEST_TURN.test(text);
}

/** Pure: the profile of logs whose newest lines are `lines`. */
export function profileOf(lines: readonly string[], opts: DetectOptions = DEFAULT_DETECT): RecallProfileName {
  if (lines.length === 0) return "plain";
  const turns = lines.filter(isChatTurn).length;
  return turns / lines.length >= opts.chatShare ? "chat" : "plain";
}

// Per open index, until the line store changes (its line count is the cheap witness).
const detected = new WeakMap<IndexDb, { lines: number | undefined; name: RecallProfileName }>();

/** The profile of the indexed workspace, from its newest memory lines. */
export function detectProfile(idx: IndexDb, opts: DetectOptions = DEFAULT_DETECT): RecallProfileName {
  const lines = lineStats(idx).lines;
  const hit = detected.get(idx);
  if (hit && hit.lines === lines) return hit.name;
  const name = lines === undefined ? "plain" : profileOf(newestMemoryLines(idx, opts.sample), opts);
  detected.set(idx, { lines, name });
  return name;
}
