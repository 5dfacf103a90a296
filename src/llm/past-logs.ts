import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import { sessionMemoryId } from "../markdown/openclaw-lines.js";
import { isDigestPath } from "../sessions/digest.js";
import { digestedSessions, holdingDigest } from "../sessions/held.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { listMemoryFiles } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { appendExtractedRetain } from "./extract-writeback.js";
import { hasOwnRetain, narrativeText } from "./retain-sections.js";
import type { LlmServices } from "./types.js";

export interface ExtractPastOptions {
  /** Only logs dated strictly before this day (YYYY-MM-DD): today's log is still being written. Default: today (local). */
  before?: string;
  /** Only logs dated on or after this day (YYYY-MM-DD). */
  since?: string;
  /** Logs longer than this (characters of narrative) are skipped with a warning rather than cut. */
  maxChars?: number;
  /** Ask the LLM but write nothing (files that would change are still listed). */
  dryRun?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface ExtractPastReport {
  /** Daily logs that needed extraction (no Retain section of their own). */
  examined: number;
  /** Workspace-relative paths of logs that got a `## Retain (extracted)` section. */
  changed: string[];
  factsAdded: number;
  skipped: { path: string; reason: string }[];
  /** LLM warnings raised during this call, plus skips worth a person's attention. */
  warnings: string[];
}

/** Remembers logs for which the LLM found nothing, so they are not sent again until they change. */
const STATE_FILE = "llm-extraction.json";
interface ExtractionState {
  version: 1;
  /** path -> sha256 of the content that yielded no facts. */
  empty: Record<string, string>;
}

function localDay(now: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function readState(file: string): Promise<ExtractionState> {
  try {
    const raw = JSON.parse(await readFile(file, "utf8")) as Partial<ExtractionState>;
    if (raw && raw.version === 1 && raw.empty && typeof raw.empty === "object") return raw as ExtractionState;
  } catch {
    // Missing or unreadable: derived data, start over.
  }
  return { version: 1, empty: {} };
}

/**
 * Extract Retain facts from past daily logs that have no Retain section of their own and
 * append them (DESIGN.md 1.1). Session digests (`-sessions.md`) are left to session
 * ingestion. A log edited while its facts were being extracted is left alone this time.
 * With a `none` provider this does nothing.
 */
export async function extractFromPastLogs(
  ws: Workspace,
  llm: LlmServices,
  opts: ExtractPastOptions = {},
): Promise<ExtractPastReport> {
  const report: ExtractPastReport = { examined: 0, changed: [], factsAdded: 0, skipped: [], warnings: [] };
  if (!llm.extractFacts) return report;
  const before = opts.before ?? localDay(new Date());
  const maxChars = opts.maxChars ?? 60_000;
  const warningsBefore = llm.warnings?.length ?? 0;
  const statePath = path.join(stateDir(ws), STATE_FILE);
  const state = await readState(statePath);
  let stateChanged = false;

  const candidates: { rel: string; abs: string; date: string; text: string }[] = [];
  const files = await listMemoryFiles(ws);
  let digested: Map<string, string> | undefined; // session id -> the digest holding it
  for (const file of files) {
    const date = logDate(file.path);
    if (date === undefined || isDigestPath(file.path)) continue;
    if (!date || date >= before || (opts.since && date < opts.since)) continue;
    if (file.readOnly) {
      report.skipped.push({
        path: file.path,
        reason: `read-only: not extracted, so it is not rewritten; chmod u+w ${file.path} to let membank add facts`,
      });
      continue;
    }
    const bytes = await readFile(file.absPath);
    if (!isUtf8(bytes)) {
      // Appending would re-encode the whole file: a Latin-1 é or a UTF-16 log would be lost.
      report.skipped.push({
        path: file.path,
        reason: "not valid UTF-8: not extracted, so its bytes are not rewritten; save it as UTF-8",
      });
      continue;
    }
    const text = bytes.toString("utf8");
    if (hasOwnRetain(text)) continue;
    if (state.empty[file.path] === sha256(text)) continue;
    // OpenClaw's session-memory hook copies a chat's last messages on /new; when the chat is
    // in a digest of OpenClaw's store, session ingestion extracts its facts: not twice.
    if (sessionMemoryId(text) !== undefined) {
      digested ??= await digestedSessions(files);
      const held = holdingDigest(text, digested);
      if (held !== undefined) {
        report.skipped.push({
          path: file.path,
          reason: `OpenClaw's copy of chat ${held.session}, which ${held.digest} holds whole: its facts are extracted from there`,
        });
        continue;
      }
    }
    candidates.push({ rel: file.path, abs: file.absPath, date, text });
  }

  for (const [i, log] of candidates.entries()) {
    report.examined++;
    const narrative = narrativeText(log.text).trim();
    // Headings alone (e.g. a log that session ingestion started with "# <day>") say nothing to extract.
    if (narrative.split(/\r\n|\r|\n/).every((l) => l.trim() === "" || /^ {0,3}#{1,6}(?:\s|$)/.test(l))) {
      report.skipped.push({ path: log.rel, reason: "no narrative text" });
    } else if (narrative.length > maxChars) {
      const reason = `narrative of ${narrative.length} characters exceeds ${maxChars}; not extracted`;
      report.skipped.push({ path: log.rel, reason });
      report.warnings.push(`${log.rel}: ${reason}`);
    } else {
      const facts = await llm.extractFacts(log.date, narrative);
      if (facts === null) {
        report.skipped.push({ path: log.rel, reason: "no valid LLM answer" });
      } else if (facts.length === 0) {
        report.skipped.push({ path: log.rel, reason: "no facts found" });
        if (!opts.dryRun) {
          state.empty[log.rel] = sha256(log.text);
          stateChanged = true;
        }
      } else if (opts.dryRun) {
        report.changed.push(log.rel);
        report.factsAdded += facts.length;
      } else if (
        await appendExtractedRetain(ws, log.rel, facts, log.text, {
          source: "log",
          ...(llm.model ? { model: llm.model } : {}),
        })
      ) {
        report.changed.push(log.rel);
        report.factsAdded += facts.length;
        if (log.rel in state.empty) {
          delete state.empty[log.rel];
          stateChanged = true;
        }
      } else {
        report.skipped.push({ path: log.rel, reason: "file changed while extracting; will retry next run" });
      }
    }
    opts.onProgress?.(i + 1, candidates.length);
  }

  if (stateChanged) {
    const sorted = Object.fromEntries(Object.entries(state.empty).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeFileAtomic(statePath, `${JSON.stringify({ version: 1, empty: sorted }, null, 2)}\n`);
  }
  report.warnings.unshift(...(llm.warnings?.slice(warningsBefore) ?? []));
  return report;
}
