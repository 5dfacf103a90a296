import { isUtf8 } from "node:buffer";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isDailyLog } from "../markdown/log-path.js";
import { MembankError } from "../workspace/errors.js";
import { isInside, toPosixRelative } from "../workspace/files.js";
import { writeOwnedFiles } from "../workspace/owned.js";
import type { Workspace } from "../workspace/workspace.js";
import { formatRetainLine } from "./retain-line.js";
import type { ExtractedFact } from "./types.js";

/** The heading that marks a Retain section written by membank (the retain parser flags its facts as extracted). */
export const EXTRACTED_HEADING = "## Retain (extracted)";

/** Where extracted facts came from; sessions-derived sections do not count as the log's own extraction. */
export type ExtractionSource = "log" | "sessions";

export interface AppendOptions {
  /** Model named in the marker comment. */
  model?: string;
  source?: ExtractionSource;
}

/** The comment line above the extracted facts; `from chat sessions` is what findRetainState looks for. */
export function extractedComment(opts: AppendOptions = {}): string {
  const by = opts.model ? `membank (${opts.model.replace(/--/g, "-")})` : "membank";
  const from = opts.source === "sessions" ? "from chat sessions" : "from this log";
  return `<!-- Extracted by ${by} ${from}. Correct or delete lines freely; while this heading stays, the log is not extracted again. -->`;
}

/** A Retain line without its confidence: the retain parser treats two such lines of one day as duplicates. */
function factKey(line: string): string {
  return line.trim().replace(/^([-*+] [A-Za-z])\([^)]*\)/, "$1");
}

/**
 * The text to append: a blank line, the heading, the marker comment and one Retain line
 * per fact, in the file's own line ending. Facts already in the file (or repeated) are
 * left out, as they would only be reported as duplicates; empty when none is left. Pure.
 */
export function extractedSection(current: string, facts: ExtractedFact[], opts: AppendOptions = {}): string {
  const seen = new Set(current.split(/\r\n|\r|\n/).map(factKey));
  const factLines: string[] = [];
  for (const fact of facts) {
    const line = formatRetainLine(fact);
    if (seen.has(factKey(line))) continue;
    seen.add(factKey(line));
    factLines.push(line);
  }
  if (factLines.length === 0) return "";
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const lines = [EXTRACTED_HEADING, extractedComment(opts), ...factLines];
  // Never touch existing bytes: a missing final newline is added, then one blank line.
  let lead = "";
  if (current !== "") {
    if (!current.endsWith("\n")) lead = eol + eol;
    else if (!/(?:\r?\n){2}$/.test(current)) lead = eol;
  }
  return lead + lines.join(eol) + eol;
}

/** A workspace-relative (or absolute, inside the workspace) daily log path -> [relative, absolute]. */
function resolveLog(ws: Workspace, file: string): [string, string] {
  const abs = path.resolve(ws.root, file);
  if (!isInside(ws.root, abs)) {
    throw new MembankError(`${file} is outside the workspace ${ws.root}; extracted facts go only into daily logs.`, {
      code: "EPATH",
    });
  }
  const rel = toPosixRelative(ws.root, abs);
  if (!isDailyLog(rel)) {
    throw new MembankError(
      `${rel} is not a daily log (memory/YYYY-MM-DD.md); extracted facts go only into daily logs.`,
      {
        code: "EPATH",
      },
    );
  }
  return [rel, abs];
}

/**
 * Append an extracted Retain section to a daily log, but only if the file still holds
 * exactly `expectedContent` (what the facts were extracted from): a person or agent who
 * wrote to the log meanwhile wins, and the extraction is simply redone another night.
 * Returns true when written; false when the file changed (or vanished) or there are no new facts.
 * Existing bytes are never changed; the write is atomic.
 */
export async function appendExtractedRetain(
  ws: Workspace,
  file: string,
  facts: ExtractedFact[],
  expectedContent: string,
  opts: AppendOptions = {},
): Promise<boolean> {
  const [rel, abs] = resolveLog(ws, file);
  if (facts.length === 0) return false;
  let bytes: Buffer;
  try {
    bytes = await readFile(abs);
  } catch {
    return false;
  }
  // Bytes that are not UTF-8 would not survive the rewrite (read as U+FFFD): never append to them.
  if (!isUtf8(bytes)) return false;
  const current = bytes.toString("utf8");
  if (current !== expectedContent) return false;
  const section = extractedSection(current, facts, opts);
  if (section === "") return false;
  try {
    // `expect`: a line the agent appends while the file is written wins too (nothing is written).
    await writeOwnedFiles(ws, [{ path: rel, content: current + section, expect: current }]);
  } catch (error) {
    if ((error as MembankError).code === "ECHANGED") return false;
    throw error;
  }
  return true;
}
