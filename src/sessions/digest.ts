import type { Clock } from "./clock.js";
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

export function digestPath(day: string): string {
  return `memory/${day}-sessions.md`;
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
const SOURCE_RE = /^Source: `([^`]+)`\s*$/;
const ENTRY_RE = /^### (\d\d:\d\d:\d\d) (user|assistant) · L(\d+)\s*$/;

/** Parse a digest this module rendered. Lines it does not recognise are ignored. */
export function parseDigest(text: string): DigestEntry[] {
  const out: DigestEntry[] = [];
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
    const s = SESSION_RE.exec(line);
    if (s) {
      flush();
      session = { id: s[1] as string };
      if (s[2] !== undefined) session.agent = s[2];
      continue;
    }
    const src = SOURCE_RE.exec(line);
    if (src && session && !entry) {
      session.source = src[1] as string;
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
      continue;
    }
    if (entry && (line === ">" || line.startsWith("> "))) entry.body.push(line === ">" ? "" : line.slice(2));
  }
  flush();
  return out;
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

/** Render a day's digest: sessions by first message time then file, messages by line. */
export function renderDigest(day: string, entries: DigestEntry[], zone: string): string {
  const sessions = new Map<string, DigestEntry[]>();
  for (const e of [...entries].sort((a, b) => cmp(key(a), key(b)))) {
    const list = sessions.get(e.source);
    if (list) list.push(e);
    else sessions.set(e.source, [e]);
  }
  const ordered = [...sessions.entries()].map(([source, list]) => {
    const times = list.map((e) => e.time).sort();
    return { source, list, first: times[0] as string, last: times[times.length - 1] as string };
  });
  ordered.sort((a, b) => cmp(a.first, b.first) || cmp(a.source, b.source));
  const lines: string[] = [
    `# Sessions of ${day}`,
    "",
    `Transcript digest of the agent's chat sessions of this day, written by membank: user and assistant text only, secrets redacted, times in ${zone}. Regenerated from the session files; edits inside a message quote are kept.`,
  ];
  for (const s of ordered) {
    const head = s.list[0] as DigestEntry;
    const agent = head.agent !== undefined ? ` · agent \`${safe(head.agent)}\`` : "";
    lines.push(
      "",
      `## Session \`${safe(head.sessionId)}\`${agent} · ${s.first}–${s.last}`,
      "",
      `Source: \`${safe(s.source)}\``,
    );
    for (const e of s.list) {
      lines.push("", `### ${e.time} ${e.role} · L${e.line}`, "");
      for (const l of e.text.split("\n")) lines.push(l === "" ? ">" : `> ${l}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
