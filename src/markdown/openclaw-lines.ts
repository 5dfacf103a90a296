/**
 * Lines OpenClaw 2026.9 writes into a workspace's logs that are its bookkeeping, not anything
 * anyone said, so no name or fact is read from them (the file itself is left as written, and
 * `get` and search still see every line). Pure.
 *
 *  - The session-memory hook (on `/new`, `/reset`, a daily or idle reset) writes
 *    `memory/YYYY-MM-DD-HHMM.md` (or `-<llm slug>.md`): a `# Session: <day> <time> <zone>`
 *    heading, then `- **Session Key**:`, `- **Session ID**:`, `- **Source**:` or
 *    `- **Reason**:` lines, then `## Conversation Summary` with the last messages as
 *    `user: "…"` / `assistant: "…"`, or `> Transcript content was unavailable: "…"`.
 *    The messages are read; the header lines and the unavailable note are not.
 *  - memory-core's dreaming with `storage.mode` `inline` or `both` writes its Light Sleep
 *    and REM Sleep blocks into the day's log between `<!-- openclaw:dreaming:<phase>:start -->`
 *    and `<!-- openclaw:dreaming:<phase>:end -->`: snippets of the logs restated as
 *    `- Candidate:` lines with confidence and evidence. Read, each would count twice.
 */

/** The session-memory hook's first line: `# Session: 2026-09-14 14:32:07 Europe/Lisbon`. */
const SESSION_HEADING = /^#\s+Session:\s+\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}(?::\d{2})?\b/;
/** Its header fields. */
const SESSION_FIELD = /^\s*[-*]\s+\*\*(?:Session Key|Session ID|Source|Reason)\*\*:/;
/** What it writes when it could not read the chat. */
const UNAVAILABLE = /^\s*>\s*Transcript content was unavailable:/;
const SESSION_START = /^\uFEFF?#\s+Session:/;
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;
/** The markers of an inline dreaming block. */
const DREAM_MARKER = /^\s*<!--\s*openclaw:dreaming:([a-z]+):(start|end)\s*-->\s*$/;

/**
 * 0-based numbers of the lines of a log that are OpenClaw's bookkeeping (above). A dreaming
 * start marker with no end marker after it (a hand edit) marks nothing: the rest of the log
 * is read rather than lost.
 */
export function openclawBookkeepingLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  let open: { phase: string; at: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const marker = DREAM_MARKER.exec(lines[i]!);
    if (!marker) continue;
    if (marker[2] === "start") open = { phase: marker[1]!, at: i };
    else if (open !== undefined && open.phase === marker[1]) {
      for (let j = open.at; j <= i; j++) out.add(j);
      open = undefined;
    }
  }
  if (!SESSION_HEADING.test((lines[0] ?? "").replace(/^\uFEFF/, ""))) return out;
  let header = true; // still in the session file's header (before its first other heading)
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (HEADING.test(line)) header = false;
    else if ((header && SESSION_FIELD.test(line)) || UNAVAILABLE.test(line)) out.add(i);
  }
  return out;
}

/**
 * openclawBookkeepingLines of a log's text split into `lines`, or undefined at the cost of two
 * string tests when it can have none (most logs: this runs on every log of every run).
 */
export function openclawBookkeeping(text: string, lines: readonly string[]): Set<number> | undefined {
  if (!text.includes("openclaw:dreaming:") && !SESSION_START.test(text)) return undefined;
  const out = openclawBookkeepingLines(lines);
  return out.size > 0 ? out : undefined;
}

const SESSION_ID = /^\s*[-*]\s+\*\*Session ID\*\*:\s*(\S+)\s*$/;

/**
 * The chat a session-memory hook file copies (its `- **Session ID**:`), or undefined for any
 * other log and for the hook's `unknown`. OpenClaw's session store holds the same chat whole.
 */
export function sessionMemoryId(text: string): string | undefined {
  if (!SESSION_START.test(text)) return undefined;
  const lines = text.split(/\r?\n/);
  if (!SESSION_HEADING.test(lines[0]!.replace(/^\uFEFF/, ""))) return undefined;
  for (const line of lines.slice(1)) {
    if (HEADING.test(line)) break;
    const id = SESSION_ID.exec(line)?.[1];
    if (id !== undefined) return id === "unknown" ? undefined : id;
  }
  return undefined;
}
