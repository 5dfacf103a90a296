import type { Clock } from "../workspace/clock.js";
import { DIGEST_DAY_MAX_BYTES, kb, MESSAGE_MAX_BYTES } from "./limits.js";
import type { SessionMessage } from "./types.js";

/**
 * The transcript digest `memory/YYYY-MM-DD-sessions.md`. The file itself is the record of what
 * was ingested for that day: a run parses it back, merges new messages by (session file, line)
 * and renders the whole day again, so reruns, lost state and late messages all give the same
 * bytes and nothing is dropped.
 */
export interface DigestEntry {
  source: string;
  sessionId: string;
  agent?: string;
  line: number;
  role: "user" | "assistant";
  /** HH:MM:SS in the digest's time zone. */
  time: string;
  text: string;
}

/** Messages of one session left out of a day's digest because the day was over its size limit. */
export interface LeftOut {
  source: string;
  sessionId: string;
  agent?: string;
  messages: number;
  /** Size of their rendered text (parsed back from the note as whole KB). */
  bytes: number;
  /** First and last transcript line left out: a rerun re-reading these lines does not count them twice. */
  firstLine: number;
  lastLine: number;
}

export function digestPath(day: string): string {
  return `memory/${day}-sessions.md`;
}

/** Is this workspace path a day's digest (`…/YYYY-MM-DD-sessions.md`)? Its date is the caller's to check. */
export function isDigestPath(rel: string): boolean {
  return /-sessions\.md$/i.test(rel);
}

export function entryFromMessage(m: SessionMessage, clock: Clock): DigestEntry {
  const e: DigestEntry = {
    source: m.source,
    sessionId: m.sessionId,
    line: m.line,
    role: m.role,
    time: clock.time(m.ts),
    text: m.text,
  };
  if (m.agent !== undefined) e.agent = m.agent;
  return e;
}

// Backticks would break the inline code spans the names are rendered in.
const safe = (s: string) => s.replace(/`/g, "'");

const SESSION_RE = /^## Session `([^`]+)`(?: · agent `([^`]+)`)?(?: · .*)?$/;
const LEFT_OUT_RE =
  /^_… (\d+) messages? \((\d+) KB, L(\d+)–L(\d+)\) of session `[^`]*` left out: over the daily digest limit of \d+ KB_$/;

export function leftOutNote(l: LeftOut): string {
  const n = `${l.messages} message${l.messages === 1 ? "" : "s"}`;
  return `_… ${n} (${kb(l.bytes)} KB, L${l.firstLine}–L${l.lastLine}) of session \`${safe(l.sessionId)}\` left out: over the daily digest limit of ${kb(DIGEST_DAY_MAX_BYTES)} KB_`;
}

/**
 * A message's text within MESSAGE_MAX_BYTES: longer text keeps its start (cut at a line or
 * word break when one is near) and ends with a line saying how much was cut. `totalBytes` is
 * the size of the original message when `text` is already a (redacted) prefix of it.
 * Idempotent.
 */
export function capMessage(text: string, totalBytes?: number): { text: string; cut: number } {
  const size = Buffer.byteLength(text, "utf8");
  const total = Math.max(size, totalBytes ?? 0);
  if (total <= MESSAGE_MAX_BYTES) return { text, cut: 0 };
  let head = text;
  if (size > MESSAGE_MAX_BYTES - 120) {
    // Leave room for the note; a cut buffer may end in a partial character, dropped by the regex.
    head = Buffer.from(text, "utf8")
      .subarray(0, MESSAGE_MAX_BYTES - 120)
      .toString("utf8")
      .replace(/\uFFFD+$/u, "");
    const brk = Math.max(head.lastIndexOf("\n"), head.lastIndexOf(" "));
    if (brk > head.length - 400) head = head.slice(0, brk);
  }
  head = head.replace(/\s+$/u, "");
  const cut = Math.max(1, total - Buffer.byteLength(head, "utf8"));
  return {
    text: `${head}\n\n_… ${kb(cut)} KB more of this message left out: over the per-message limit of ${kb(MESSAGE_MAX_BYTES)} KB_`,
    cut,
  };
}

/** The digest lines of one message (its heading and quoted text). */
function entryLines(e: DigestEntry): string[] {
  const lines = ["", `### ${e.time} ${e.role} · L${e.line}`, ""];
  for (const l of e.text.split("\n")) lines.push(l === "" ? ">" : `> ${l}`);
  return lines;
}

/** Bytes one message takes in a digest: what DIGEST_DAY_MAX_BYTES counts. */
export function entryBytes(e: DigestEntry): number {
  let n = 0;
  for (const l of entryLines(e)) n += Buffer.byteLength(l, "utf8") + 1;
  return n;
}
const SOURCE_RE = /^Source: `([^`]+)`\s*$/;
const ENTRY_RE = /^### (\d\d:\d\d:\d\d) (user|assistant) · L(\d+)\s*$/;

/**
 * The ids of the sessions a digest holds whole (its `## Session` headings), in order: not a
 * session with messages left out over the daily limit (its note names it), whose later
 * messages, the ones OpenClaw's /new copy holds, may be the ones left out.
 */
export function digestSessionIds(text: string): string[] {
  const out: string[] = [];
  const partial = new Set<string>();
  // Only the heading and note lines are split out (every digest is read for this: sessions/held.ts).
  for (const m of text.matchAll(/^(?:## Session |_… \d)[^\r\n]*/gm)) {
    const id = SESSION_RE.exec(m[0])?.[1];
    if (id !== undefined) out.push(id);
    else if (LEFT_OUT_RE.test(m[0])) partial.add(/ of session `([^`]*)` left out/.exec(m[0])![1]!);
  }
  return out.filter((id) => !partial.has(id));
}

/** Parse a digest this module rendered. Lines it does not recognise are ignored. */
export function parseDigest(text: string): DigestEntry[] {
  return parseDigestFull(text).entries;
}

/**
 * A person's own lines in a digest (a note under a message, a heading of theirs), by what
 * they follow: the title (`TOP`), a session's source line, or a message. Kept on every rewrite.
 */
export type DigestNotes = Map<string, string[]>;
const TOP = "";
const sessionAnchor = (source: string) => `s\u0000${source}`;
const OWN_LINES = [
  /^# Sessions of \d{4}-\d{2}-\d{2}$/,
  /^Transcript digest of the agent's chat sessions of this day, written by membank/,
];

/** A digest's messages, its left-out notes and the lines a person added (see DigestNotes). */
export function parseDigestFull(text: string): { entries: DigestEntry[]; leftOut: LeftOut[]; notes: DigestNotes } {
  const out: DigestEntry[] = [];
  const leftOut: LeftOut[] = [];
  const notes: DigestNotes = new Map();
  let anchor = TOP;
  let blank = false;
  const own = (line: string) => {
    const list = notes.get(anchor) ?? [];
    if (blank && list.length > 0) list.push("");
    list.push(line);
    notes.set(anchor, list);
  };
  let session: { id: string; agent?: string; source?: string } | undefined;
  let entry: (DigestEntry & { body: string[] }) | undefined;
  const flush = () => {
    if (entry) {
      const { body, ...rest } = entry;
      out.push({ ...rest, text: body.join("\n").replace(/^\n+|\n+$/g, "") });
      entry = undefined;
    }
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (line.trim() === "") {
      blank = true;
      continue;
    }
    const wasBlank: boolean = blank;
    blank = false;
    const s = SESSION_RE.exec(line);
    if (s) {
      flush();
      session = { id: s[1] as string };
      if (s[2] !== undefined) session.agent = s[2];
      anchor = sessionAnchor(s[1] as string);
      continue;
    }
    const src = SOURCE_RE.exec(line);
    if (src && session && !entry) {
      session.source = src[1] as string;
      anchor = sessionAnchor(session.source);
      continue;
    }
    const note = LEFT_OUT_RE.exec(line);
    if (note && session) {
      flush();
      const l: LeftOut = {
        source: session.source ?? session.id,
        sessionId: session.id,
        messages: Number(note[1]),
        bytes: Number(note[2]) * 1024,
        firstLine: Number(note[3]),
        lastLine: Number(note[4]),
      };
      if (session.agent !== undefined) l.agent = session.agent;
      leftOut.push(l);
      continue;
    }
    const e = ENTRY_RE.exec(line);
    if (e && session) {
      flush();
      entry = {
        source: session.source ?? session.id,
        sessionId: session.id,
        line: Number(e[3]),
        role: e[2] as "user" | "assistant",
        time: e[1] as string,
        text: "",
        body: [],
      };
      if (session.agent !== undefined) entry.agent = session.agent;
      anchor = key(entry);
      continue;
    }
    const quote = line === ">" || line.startsWith("> ");
    if (entry && quote && !notes.has(anchor)) {
      entry.body.push(line === ">" ? "" : line.slice(2));
      continue;
    }
    if (anchor === TOP && OWN_LINES.some((re) => re.test(line))) continue;
    blank = wasBlank;
    own(line);
  }
  flush();
  return { entries: out, leftOut, notes };
}

const key = (e: { source: string; line: number }) => `${e.source}\u0000${String(e.line).padStart(12, "0")}`;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Merge entries by (source, line); an entry already in the digest wins (it may carry a person's correction). */
export function mergeEntries(existing: DigestEntry[], added: DigestEntry[]): DigestEntry[] {
  const byKey = new Map<string, DigestEntry>();
  for (const e of added) byKey.set(key(e), e);
  for (const e of existing) byKey.set(key(e), e);
  return [...byKey.values()];
}

/** Render a day's digest: sessions by first message time then file, messages by line; sessions with only left-out messages last. */
export function renderDigest(
  day: string,
  entries: DigestEntry[],
  zone: string,
  leftOut: LeftOut[] = [],
  notes: DigestNotes = new Map(),
): string {
  const sessions = new Map<string, DigestEntry[]>();
  for (const e of [...entries].sort((a, b) => cmp(key(a), key(b)))) {
    const list = sessions.get(e.source);
    if (list) list.push(e);
    else sessions.set(e.source, [e]);
  }
  const leftOutBy = new Map(leftOut.map((l) => [l.source, l]));
  const ordered = [...sessions.entries()].map(([source, list]) => {
    const times = list.map((e) => e.time).sort();
    return { source, list, first: times[0] as string, last: times[times.length - 1] as string };
  });
  ordered.sort((a, b) => cmp(a.first, b.first) || cmp(a.source, b.source));
  const onlyLeftOut = leftOut.filter((l) => !sessions.has(l.source)).sort((a, b) => cmp(a.source, b.source));
  const lines: string[] = [
    `# Sessions of ${day}`,
    "",
    `Transcript digest of the agent's chat sessions of this day, written by membank: user and assistant text only, secrets redacted, times in ${zone}. Regenerated from the session files; edits inside a message quote are kept.`,
  ];
  const placed = new Set<string>();
  const notesOf = (anchor: string) => {
    const own = notes.get(anchor);
    if (own === undefined) return;
    placed.add(anchor);
    lines.push("", ...own);
  };
  notesOf(TOP);
  const header = (h: { sessionId: string; agent?: string; source: string }, range: string) => {
    const agent = h.agent !== undefined ? ` · agent \`${safe(h.agent)}\`` : "";
    lines.push("", `## Session \`${safe(h.sessionId)}\`${agent}${range}`, "", `Source: \`${safe(h.source)}\``);
    notesOf(sessionAnchor(h.source));
  };
  for (const s of ordered) {
    const head = s.list[0] as DigestEntry;
    header(head, ` · ${s.first}–${s.last}`);
    for (const e of s.list) {
      lines.push(...entryLines(e));
      notesOf(key(e));
    }
    const note = leftOutBy.get(s.source);
    if (note) lines.push("", leftOutNote(note));
  }
  for (const l of onlyLeftOut) {
    header(l, "");
    lines.push("", leftOutNote(l));
  }
  // A note whose message or session is no longer in the digest still is the person's text.
  for (const [anchor, own] of notes) if (!placed.has(anchor)) lines.push("", ...own);
  return `${lines.join("\n")}\n`;
}
