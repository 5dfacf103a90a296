import { isUtf8 } from "node:buffer";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ExtractedFact, LlmServices } from "../llm/types.js";
import { citeLine } from "../markdown/citation.js";
import { isReadOnlyFile } from "../workspace/files.js";
import { writeOwnedFile } from "../workspace/owned.js";
import type { Workspace } from "../workspace/workspace.js";
import type { SessionMessage } from "./types.js";

export interface ExtractResult {
  facts: number;
  /** The daily log, when facts were appended to it. */
  written?: string;
  warnings: string[];
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** The message a fact most likely came from: most shared words (ties: earliest line). */
export function bestSourceLine(fact: ExtractedFact, messages: SessionMessage[]): number {
  const fw = words(fact.content);
  let best = messages[0]?.line ?? 1;
  let bestScore = -1;
  for (const m of messages) {
    let score = 0;
    for (const w of words(m.text)) if (fw.has(w)) score++;
    if (score > bestScore) {
      best = m.line;
      bestScore = score;
    }
  }
  return best;
}

/** The citation of a fact's session line; formatRetainLine writes it as ` (session <file>#L<n>)`. */
export function citation(source: string, line: number): string {
  return `session ${citeLine({ path: source, line })}`;
}

/**
 * Ask the LLM for Retain facts in each session of the day and append them to the day's log,
 * each citing the session file and line it most likely came from. A session whose lines are
 * already cited in the log was extracted by an earlier (interrupted) run and is skipped.
 */
export async function extractSessionFacts(
  ws: Workspace,
  day: string,
  messages: SessionMessage[],
  llm: LlmServices,
): Promise<ExtractResult> {
  const out: ExtractResult = { facts: 0, warnings: [] };
  if (!llm.extractFacts) return out;
  const rel = `memory/${day}.md`;
  const abs = path.join(ws.root, rel);
  let current = "";
  let exists = true;
  try {
    const bytes = await readFile(abs);
    if (isReadOnlyFile(abs)) {
      out.warnings.push(`${rel} is read-only: no session facts added to it; chmod u+w ${rel} to let membank add them`);
      return out;
    }
    if (!isUtf8(bytes)) {
      // Appending rewrites the file: bytes that are not UTF-8 would not survive it.
      out.warnings.push(`${rel} is not valid UTF-8: no session facts added to it; save it as UTF-8`);
      return out;
    }
    current = bytes.toString("utf8");
  } catch {
    exists = false;
  }
  const bySession = new Map<string, SessionMessage[]>();
  for (const m of messages) {
    const list = bySession.get(m.source);
    if (list) list.push(m);
    else bySession.set(m.source, [m]);
  }
  const facts: ExtractedFact[] = [];
  for (const [source, list] of [...bySession.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (list.some((m) => current.includes(`(${citation(source, m.line)})`))) continue;
    const text = list.map((m) => `[L${m.line}] ${m.role}: ${m.text}`).join("\n\n");
    const got = await llm.extractFacts(day, text);
    if (got === null) {
      out.warnings.push(`LLM gave no usable facts for session ${source} (skipped)`);
      continue;
    }
    for (const f of got) facts.push({ ...f, citation: citation(source, bestSourceLine(f, list)) });
  }
  if (facts.length === 0) return out;
  const { appendExtractedRetain } = await import("../llm/index.js");
  if (!exists) {
    // A day with chats but no log yet: start the log so the facts have a home.
    current = `# ${day}\n`;
    await writeOwnedFile(ws, rel, current);
  }
  const opts = { source: "sessions" as const, ...(llm.model ? { model: llm.model } : {}) };
  if (await appendExtractedRetain(ws, rel, facts, current, opts)) {
    out.facts = facts.length;
    out.written = rel;
  } else {
    out.warnings.push(`${rel} changed while facts were extracted; they were not written (next run retries)`);
  }
  return out;
}
