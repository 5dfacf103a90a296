import { scanHeadings } from "../markdown/scan.js";
import { retainHeading } from "../retain/parse.js";

/**
 * Finding `## Retain` sections in a daily log with the markdown module's line scanner
 * (ATX headings outside code fences; no full parse, so thousands of logs stay fast).
 * Pure. Used to decide whether a log still needs extraction, and to leave
 * sessions-derived facts out of the text sent for extraction.
 */

export interface RetainSectionSpan {
  /** 0-based line index of the heading. */
  start: number;
  /** 0-based line index just past the section. */
  end: number;
  /** True when membank wrote it from chat sessions (not from the log's own narrative). */
  fromSessions: boolean;
}

export function findRetainSections(text: string): RetainSectionSpan[] {
  const lines = text.split(/\r\n|\r|\n/);
  // The retain parser's own notion of a Retain heading, found by the same scanner (outside fenced code).
  const headings = scanHeadings(lines).map((h) => ({
    line: h.line - 1,
    level: h.depth,
    retain: retainHeading(h.text) !== undefined,
  }));
  const spans: RetainSectionSpan[] = [];
  headings.forEach((h, k) => {
    if (!h.retain) return;
    // As in the retain parser: a section ends at a heading of the same or a higher level, or another Retain heading.
    const next = headings.slice(k + 1).find((o) => o.level <= h.level || o.retain);
    const end = next ? next.line : lines.length;
    const firstBody = lines.slice(h.line + 1, end).find((l) => l.trim() !== "") ?? "";
    const fromSessions = firstBody.trimStart().startsWith("<!--") && firstBody.includes("from chat sessions");
    spans.push({ start: h.line, end, fromSessions });
  });
  return spans;
}

/** Does the log already have Retain facts of its own (written by a person, or extracted from it)? */
export function hasOwnRetain(text: string): boolean {
  return findRetainSections(text).some((s) => !s.fromSessions);
}

/** The log's text without its Retain sections (what an extraction should read). */
export function narrativeText(text: string): string {
  const spans = findRetainSections(text);
  if (spans.length === 0) return text;
  const lines = text.split(/\r\n|\r|\n/);
  const keep = lines.filter((_, i) => !spans.some((s) => i >= s.start && i < s.end));
  return keep.join("\n");
}
