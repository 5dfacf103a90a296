import { readFileSync } from "node:fs";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import { sessionMemoryId } from "../markdown/openclaw-lines.js";
import { digestPath, digestSessionIds, isDigestPath } from "../sessions/digest.js";
import { addDays } from "./days.js";
import type { Fused } from "./fuse.js";
import { isoDay } from "./timewindow.js";

/**
 * One chat line, one result. OpenClaw's session-memory hook copies a chat's last messages on
 * /new (`user: "…"`), and membank's digest of OpenClaw's store holds the same chat whole
 * (`> …`): a question about it found each line twice, once from each file. A result from a
 * copy whose chat a digest holds (the digest's `## Session` heading names the copy's Session
 * ID: sessions/held.ts's rule), and whose message lines are lines of that digest in the same
 * order, is cited from the digest: the same lines there, so the fusion's overlap rule
 * (fuse.ts dedupe) makes it and the digest's own result one.
 *
 * The digest's citation is kept: it holds the whole chat with each message's time and
 * transcript line, its secrets are redacted (the copy's are not), and reflect's pages cite
 * the digest for such a chat too. Only lines equal after the two files' wrapping are one: a
 * copy line that differs by a word, or the same words from a chat the digest does not hold,
 * stays a result of its own.
 */

/** A copy's message line without its `role: "` and closing quote; a digest's without its `> `. */
function chatLineText(line: string): string {
  return line
    .replace(/^\s*>\s?/u, "")
    .replace(/^\s*(?:user|assistant):\s*"?/u, "")
    .replace(/"\s*$/u, "")
    .trim();
}

/** The message texts of a copy result's lines (headings and blank lines left out). */
function chatLines(content: string): string[] {
  return content
    .split(/\r?\n/)
    .filter((l) => !/^\s{0,3}#{1,6}\s/u.test(l))
    .map(chatLineText)
    .filter((t) => t !== "");
}

/** A dated log other than a daily log or a digest: where the hook writes (`2026-09-14-1432.md`, `-vet-visit.md`). */
const maybeCopy = (rel: string) =>
  logDate(rel) !== undefined && /\/\d{4}-\d{2}-\d{2}-[^/]+\.md$/iu.test(rel) && !isDigestPath(rel);
const isDigest = (rel: string) => logDate(rel) !== undefined && isDigestPath(rel);

/** What oneResultPerChatLine reads of the files: a copy's Session ID, a digest's sessions and lines. */
export interface ChatFiles {
  sessionOf(copy: string): string | undefined;
  digest(rel: string): { sessions: ReadonlySet<string>; lines: readonly string[] } | undefined;
}

/** 1-based first and last line of `digest` quoting `lines` in order (each a `> ` line), or undefined. */
function spanIn(digest: readonly string[], lines: readonly string[]): [number, number] | undefined {
  let at = -1;
  let first = -1;
  for (const want of lines) {
    let j = at + 1;
    while (j < digest.length && !(/^\s*>/u.test(digest[j]!) && chatLineText(digest[j]!) === want)) j++;
    if (j >= digest.length) return undefined;
    if (first < 0) first = j;
    at = j;
  }
  return [first + 1, at + 1];
}

/**
 * Results of a /new copy whose lines a digest holding its chat quotes, cited from that digest
 * (above); every other result as it is. The digests looked in: those among the results, and
 * the copy's day's and the day before's (a chat over midnight, or a /new the next morning).
 */
export function oneResultPerChatLine(items: readonly Fused[], files: ChatFiles): Fused[] {
  const inResults = [...new Set(items.map((f) => f.cand.path).filter(isDigest))];
  return items.map((item) => {
    const c = item.cand;
    if (c.kind !== "note" || !maybeCopy(c.path)) return item;
    const session = files.sessionOf(c.path);
    const lines = chatLines(c.content);
    if (session === undefined || lines.length === 0) return item;
    const day = new Date(`${logDate(c.path)}T00:00:00Z`);
    const near = [0, -1].map((n) => digestPath(isoDay(addDays(day, n))));
    for (const rel of [...new Set([...inResults, ...near])].sort()) {
      const d = files.digest(rel);
      if (d === undefined || !d.sessions.has(session)) continue;
      const span = spanIn(d.lines, lines);
      if (span === undefined) continue;
      const [startLine, endLine] = span;
      return {
        ...item,
        cand: {
          ...c,
          key: `lines:${rel}#${startLine}-${endLine}`,
          path: rel,
          startLine,
          endLine,
          content: d.lines.slice(startLine - 1, endLine).join("\n"),
          date: logDate(rel)!,
        },
      };
    }
    return item;
  });
}

/** ChatFiles from the files as they are on disk, each read once, when asked for. */
export function chatFilesOnDisk(root: string): ChatFiles {
  const read = (rel: string): string | undefined => {
    try {
      return readFileSync(path.join(root, rel), "utf8");
    } catch {
      return undefined;
    }
  };
  const ids = new Map<string, string | undefined>();
  const digests = new Map<string, ReturnType<ChatFiles["digest"]>>();
  return {
    sessionOf(copy) {
      if (!ids.has(copy)) ids.set(copy, sessionMemoryId(read(copy) ?? ""));
      return ids.get(copy);
    },
    digest(rel) {
      if (!digests.has(rel)) {
        const text = read(rel);
        digests.set(
          rel,
          text === undefined ? undefined : { sessions: new Set(digestSessionIds(text)), lines: text.split(/\r?\n/) },
        );
      }
      return digests.get(rel);
    },
  };
}
