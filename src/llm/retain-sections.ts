import { openclawBookkeeping } from "../markdown/openclaw-lines.js";
import { splitLines, stripBom } from "../markdown/parse.js";
import { retainSpans } from "../retain/parse.js";

/**
 * Finding `## Retain` sections in a daily log by the retain parser's own rule
 * (retain/parse.ts retainSpans: a line scan, no full parse, so thousands of logs stay fast).
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
  const lines = splitLines(stripBom(text));
  return retainSpans(lines).map((r) => {
    const firstBody = lines.slice(r.heading, r.last).find((l) => l.trim() !== "") ?? "";
    const fromSessions = firstBody.trimStart().startsWith("<!--") && firstBody.includes("from chat sessions");
    return { start: r.heading - 1, end: r.last, fromSessions };
  });
}

/** Does the log already have Retain facts of its own (written by a person, or extracted from it)? */
export function hasOwnRetain(text: string): boolean {
  return findRetainSections(text).some((s) => !s.fromSessions);
}

/**
 * The log's text without its Retain sections and OpenClaw's bookkeeping lines (markdown/
 * openclaw-lines.ts): what an extraction should read.
 */
export function narrativeText(text: string): string {
  const spans = findRetainSections(text);
  const lines = splitLines(stripBom(text));
  const bookkeeping = openclawBookkeeping(text, lines);
  if (spans.length === 0 && bookkeeping === undefined) return text;
  const keep = lines.filter((_, i) => !bookkeeping?.has(i) && !spans.some((s) => i >= s.start && i < s.end));
  return keep.join("\n");
}
