/**
 * The nightly pipeline as data: ingest sessions -> retain -> reflect -> commit -> index.
 * Each step calls one library function and hands its typed report to the next through the
 * pipeline state; the runner (src/pipeline/runner.ts) times, records and stops on failure.
 * The commit holds exactly the files the steps wrote (digests, extracted Retain sections,
 * bank pages) -- reflect itself runs with commit: false.
 */
import { resolveEmbedder } from "../src/embed/index.js";
import { type SyncReport, syncIndex } from "../src/index/index.js";
import { createLlm, type ExtractPastReport, extractFromPastLogs } from "../src/llm/index.js";
import type { LlmServices } from "../src/llm/types.js";
import { isDailyLog, logDate } from "../src/markdown/log-path.js";
import { markCommitEnd, markCommitStart, recoverIndexLock } from "../src/pipeline/git-recovery.js";
import { changedAgainst, readFileManifest, writeFileManifest } from "../src/pipeline/manifest.js";
import { lastCompletedRunStart } from "../src/pipeline/record.js";
import type { PipelineDefinition, RunRecord, StepContext } from "../src/pipeline/types.js";
import { messageText } from "../src/reflect/format.js";
import { assertGitCanCommit } from "../src/reflect/git.js";
import { commitPending, leftNote, type OpinionChange, type ReflectReport, reflect } from "../src/reflect/index.js";
import { noRetainNote, readFacts } from "../src/retain/index.js";
import { ingestSessions } from "../src/sessions/ingest.js";
import type { IngestReport } from "../src/sessions/types.js";
import { listMemoryFiles, type MemoryFile } from "../src/workspace/files.js";
import { ANNOUNCE_FROM, embedPassLine, progressLines } from "../src/workspace/progress.js";

export interface NightlyState {
  /** Oldest day whose log changed since the last completed run (undefined: read everything). */
  since?: string;
  llm?: LlmServices;
  ownsLlm: boolean;
  ingest?: IngestReport;
  facts?: { facts: number; diagnostics: number; files: number; noRetain: string[]; noRetainNote?: string };
  reflect?: ReflectReport;
  commit?: { hash?: string; files: number; left: { path: string; reason: string }[] };
  index?: SyncReport;
  /** The daily logs as the retain step listed them (saved as the next run's baseline when this one completes). */
  logsRead?: MemoryFile[];
}

type Ctx = StepContext<NightlyState>;

async function llmOf(ctx: Ctx): Promise<LlmServices> {
  if (!ctx.state.llm) {
    ctx.state.llm = ctx.options.llm ?? (await createLlm(ctx.ws));
    ctx.state.ownsLlm = ctx.options.llm === undefined;
  }
  return ctx.state.llm;
}

const MAX_NOTES = 10;

/** Two seconds of slack for coarse file-system clocks. */
const MTIME_SLACK_MS = 2000;

/**
 * The incremental window: the oldest date among daily logs modified since the last completed
 * nightly run started (a log edited by hand years later is picked up too). Undefined -- a full
 * read -- on the first run or with --full. Reflect keeps a snapshot of older facts, so an
 * incremental run gives the same bank as a full one.
 */
export async function changedSince(ctx: Ctx): Promise<string | undefined> {
  const logs = (await listMemoryFiles(ctx.ws)).filter((f) => isDailyLog(f.path));
  ctx.state.logsRead = logs;
  if (ctx.options.full) return undefined;
  const last = await lastCompletedRunStart(ctx.ws, "nightly", ctx.runId);
  if (last === undefined) return undefined;
  const changedPaths: string[] = [];
  for (const f of logs) if (f.mtimeMs >= last - MTIME_SLACK_MS) changedPaths.push(f.path);
  // Also what the mtime test cannot see: logs restored with old mtimes, new old-dated copies, deleted logs.
  const seen = await readFileManifest(ctx.ws, "nightly");
  if (seen) {
    const { changed, gone } = changedAgainst(seen, logs);
    changedPaths.push(...changed, ...gone);
  }
  let oldest: string | undefined;
  for (const p of changedPaths) {
    const date = logDate(p);
    if (date !== undefined && (oldest === undefined || date < oldest)) oldest = date;
  }
  // Nothing changed: a window that starts today reads (almost) nothing.
  return oldest ?? ctx.now.toISOString().slice(0, 10);
}

function diagNotes(diags: { path: string; line: number; reason: string }[]): string[] {
  const notes = diags.slice(0, MAX_NOTES).map((d) => `${d.path}:${d.line}: ${d.reason}`);
  if (diags.length > MAX_NOTES) notes.push(`... and ${diags.length - MAX_NOTES} more`);
  return notes;
}

/** One confidence change as a line: `@Jonas: ledger-sync ships in March 0.80 -> 0.66`. */
export function changeLine(c: OpinionChange): string {
  const who = c.entities.length ? `${c.entities.map((e) => `@${e}`).join(", ")}: ` : "";
  return `${who}${messageText(c.statement)} ${c.from.toFixed(2)} -> ${c.to.toFixed(2)}`;
}

function commitMessage(s: NightlyState, files: string[], day: string): string {
  const ing = s.ingest;
  const rep = s.reflect;
  // The headline counts what the body lists, and only what there is (no "0 confidence changes").
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const head = [
    `membank nightly ${day}:`,
    n(rep?.factsAdded ?? 0, "new fact"),
    n(rep?.pagesWritten.length ?? 0, "page"),
  ];
  if (rep?.opinionsChanged.length) head.push(n(rep.opinionsChanged.length, "confidence change"));
  if (rep?.opinionsCreated.length) head.push(n(rep.opinionsCreated.length, "new opinion"));
  if (ing?.messages) head.push(n(ing.messages, "session message"));
  const body: string[] = [];
  if (ing && ing.days.length > 0)
    body.push(`Sessions: ${ing.messages} messages from ${ing.sessionsIngested} sessions (${ing.days.join(", ")})`);
  // Reflect's own message (new opinions, confidence changes, facts added, pages), without its summary line.
  const reflectBody = rep?.message.split("\n").slice(1).join("\n").trim();
  if (reflectBody) body.push("", reflectBody);
  body.push("", "Files:");
  for (const f of files.slice(0, MAX_LISTED_FILES)) body.push(`- ${f}`);
  if (files.length > MAX_LISTED_FILES) body.push(`- ... and ${files.length - MAX_LISTED_FILES} more`);
  return `${head[0]} ${head.slice(1).join(", ")}\n\n${body.join("\n").replace(/^\n+/, "")}\n`;
}

/** A commit message lists at most this many files (a first run can write thousands of pages). */
const MAX_LISTED_FILES = 200;

export const nightly: PipelineDefinition<NightlyState> = {
  name: "nightly",
  description: "ingest sessions -> retain -> reflect -> commit -> index",
  createState: () => ({ ownsLlm: false }),
  // Mid-merge, mid-rebase or on a detached HEAD, writing pages would mix them into the user's
  // operation: do nothing at all; the next run in a normal state catches up.
  async preflight(ctx) {
    if (ctx.ws.config.reflect.git.commit) await assertGitCanCommit(ctx.ws);
  },
  steps: [
    {
      name: "sessions",
      description: "ingest past days of chat session transcripts into memory/YYYY-MM-DD-sessions.md",
      async run(ctx) {
        const llm = await llmOf(ctx);
        const r = await ingestSessions(ctx.ws, {
          ...(ctx.options.sessionsDir !== undefined ? { dir: ctx.options.sessionsDir } : {}),
          llm,
          now: ctx.now,
        });
        ctx.state.ingest = r;
        const notes = r.skipped ? [`sessions: ${r.skipped}`] : [];
        notes.push(...diagNotes(r.diagnostics));
        return {
          counts: {
            files: r.files,
            excluded: r.excluded,
            sessions: r.sessionsIngested,
            messages: r.messages,
            deferred: r.deferred,
            factsExtracted: r.factsExtracted,
            redactions: r.redactions,
            heartbeats: r.heartbeats,
            truncated: r.truncated,
            leftOut: r.leftOut.reduce((n, l) => n + l.messages, 0),
            diagnostics: r.diagnostics.length,
          },
          written: r.written,
          notes,
        };
      },
    },
    {
      name: "retain",
      description: "parse the Retain sections of the daily logs into facts",
      async run(ctx) {
        // With an LLM, past logs that have no Retain section get an extracted one first (append-only,
        // only when the file did not change meanwhile), so their facts reach the bank tonight.
        const llm = await llmOf(ctx);
        let extracted: ExtractPastReport | undefined;
        if (llm.extractFacts) {
          let lastReport = Date.now();
          extracted = await extractFromPastLogs(ctx.ws, llm, {
            before: ctx.now.toISOString().slice(0, 10),
            onProgress: (done, total) => {
              if (Date.now() - lastReport < 10_000) return;
              lastReport = Date.now();
              ctx.log(`    extracting facts with ${llm.provider}: ${done}/${total} logs`);
            },
          });
        }
        ctx.state.since = await changedSince(ctx);
        const r = await readFacts(ctx.ws, ctx.state.since === undefined ? {} : { since: ctx.state.since });
        // Logs with no Retain section give no facts: say which, never skip them silently.
        const note = noRetainNote(r.noRetain, r.files, { llm: llm.extractFacts !== undefined });
        ctx.state.facts = {
          facts: r.facts.length,
          diagnostics: r.diagnostics.length,
          files: r.files,
          noRetain: r.noRetain,
          ...(note === undefined ? {} : { noRetainNote: note }),
        };
        return {
          counts: {
            files: r.files,
            facts: r.facts.length,
            diagnostics: r.diagnostics.length,
            ...(r.noRetain.length ? { noRetain: r.noRetain.length } : {}),
            ...(extracted ? { extractedLogs: extracted.changed.length, extractedFacts: extracted.factsAdded } : {}),
          },
          written: extracted?.changed ?? [],
          notes: [
            ctx.state.since ? `logs dated ${ctx.state.since} or later (changed since the last run)` : "all logs",
            ...(note === undefined ? [] : [note]),
            ...(extracted?.warnings ?? []).slice(0, MAX_NOTES),
            ...diagNotes(r.diagnostics),
          ],
        };
      },
    },
    {
      name: "reflect",
      description: "update entity pages, opinions and typed bank pages (no commit yet)",
      async run(ctx) {
        const llm = await llmOf(ctx);
        const since = ctx.state.since;
        const r = await reflect(ctx.ws, {
          commit: false,
          commitLater: true,
          extract: false, // the retain step already extracted
          llm,
          now: ctx.now,
          ...(since === undefined ? { all: true } : { since }),
        });
        ctx.state.reflect = r;
        return {
          counts: {
            factsRead: r.factsRead,
            pagesWritten: r.pagesWritten.length,
            opinionsChanged: r.opinionsChanged.length,
            conflicts: r.conflicts.length,
            diagnostics: r.diagnostics.length,
          },
          written: r.pagesWritten,
          notes: [
            ...r.warnings.slice(0, MAX_NOTES),
            ...r.conflicts.slice(0, MAX_NOTES).map((c) => `conflict: ${JSON.stringify(c)}`),
            ...r.opinionsChanged.map((c) => `confidence: ${changeLine(c)}`),
          ],
        };
      },
    },
    {
      name: "commit",
      description: "commit the files membank wrote (and still holds its bytes), nothing of yours",
      async run(ctx) {
        const { ws } = ctx;
        if (!ws.config.reflect.git.commit) return { notes: ["commits are off (reflect.git.commit = false)"] };
        const notes: string[] = [];
        const recovered = await recoverIndexLock(ws);
        if (recovered) notes.push(recovered);
        await markCommitStart(ws);
        const day = ctx.now.toISOString().slice(0, 10);
        const r = await commitPending(ws, (files) => commitMessage(ctx.state, files, day));
        await markCommitEnd(ws);
        if (r.off) notes.push(`${r.off}: files written, no commit`);
        if (r.unsynced) notes.push("git was stopped after the commit; the next run brings git's index in line");
        for (const l of r.left.slice(0, MAX_NOTES)) notes.push(leftNote(l));
        if (r.left.length > MAX_NOTES) notes.push(`... and ${r.left.length - MAX_NOTES} more files left uncommitted`);
        ctx.state.commit = { ...(r.commit ? { hash: r.commit } : {}), files: r.committed.length, left: r.left };
        return {
          counts: { files: r.committed.length, ...(r.left.length ? { left: r.left.length } : {}) },
          ...(r.commit ? { commit: r.commit } : {}),
          notes,
        };
      },
    },
    {
      name: "index",
      description: "sync the search index with the changed files",
      async run(ctx) {
        const embedder = await resolveEmbedder(ctx.ws);
        // Embedding years of logs the first time takes minutes: say how far it is and how long
        // is left, every 10 s at most (a log line each, for cron as for a terminal).
        const progress = progressLines((line) => ctx.log(`    ${line}`), { everyMs: 10_000 });
        const r = await syncIndex(ctx.ws, {
          embedder,
          onProgress: (done, total, phase) => {
            if (phase !== "embed") return;
            if (done === 0 && total >= ANNOUNCE_FROM) ctx.log(`    ${embedPassLine(total, embedder.provider)}`);
            progress.update(`embedding chunks with ${embedder.provider}`, done, total);
          },
        });
        progress.finish();
        ctx.state.index = r;
        // The run is through: the logs it read are the baseline the next run compares with.
        if (ctx.state.logsRead) await writeFileManifest(ctx.ws, "nightly", ctx.state.logsRead);
        return {
          counts: {
            scanned: r.scanned,
            changed: r.changed,
            removed: r.removed,
            chunks: r.chunks,
            facts: r.facts,
            embedded: r.embedded,
          },
          changed: r.rebuilt || r.changed > 0 || r.removed > 0,
          notes: r.warnings,
        };
      },
    },
  ],
  summarize: summarizeNightly,
  async dispose(state) {
    if (state.ownsLlm) await state.llm?.close?.();
  },
};

export function summarizeNightly(s: NightlyState, record: RunRecord): string[] {
  const lines: string[] = [];
  const ing = s.ingest;
  if (ing) {
    if (ing.skipped) lines.push(`sessions: none (${ing.skipped})`);
    else {
      const days = ing.days.length ? ` for ${ing.days.join(", ")}` : "";
      const extra = [
        ing.deferred ? `${ing.deferred} of today wait for tomorrow` : "",
        ing.redactions ? `${ing.redactions} secrets redacted` : "",
        ing.factsExtracted ? `${ing.factsExtracted} facts extracted` : "",
        ing.leftOut.length
          ? `${ing.leftOut.reduce((n, l) => n + l.messages, 0)} messages left out over the daily digest limit`
          : "",
        ing.diagnostics.length ? `${ing.diagnostics.length} bad lines skipped` : "",
      ].filter(Boolean);
      lines.push(
        `sessions: ${ing.messages} messages from ${ing.sessionsIngested} of ${ing.files} sessions ingested${days}${extra.length ? ` (${extra.join(", ")})` : ""}`,
      );
    }
  }
  if (s.facts) {
    lines.push(
      `facts: ${s.facts.facts} in ${s.facts.files} ${s.since ? `logs dated ${s.since} or later (changed since the last run)` : "logs"}${s.facts.diagnostics ? ` (${s.facts.diagnostics} lines did not parse)` : ""}`,
    );
    if (s.facts.noRetainNote) lines.push(`  ${s.facts.noRetainNote}`);
  }
  if (s.reflect) {
    lines.push(
      `pages: ${s.reflect.pagesWritten.length} written${s.reflect.conflicts.length ? `, ${s.reflect.conflicts.length} conflicts kept for you` : ""}`,
    );
    // Only what happened: a "confidence changes: 0" line above new opinions' moves reads as a contradiction.
    if (s.reflect.opinionsChanged.length > 0) lines.push(`confidence changes: ${s.reflect.opinionsChanged.length}`);
    for (const c of s.reflect.opinionsChanged.slice(0, 20)) lines.push(`  ${changeLine(c)}`);
    if (s.reflect.opinionsCreated.length > 0)
      lines.push(`new opinions: ${s.reflect.opinionsCreated.length} (first stated -> after this run's evidence)`);
    for (const o of s.reflect.opinionsCreated.slice(0, 20))
      lines.push(`  ${changeLine({ ...o, from: o.initial, to: o.confidence })}`);
  }
  if (s.commit) {
    lines.push(
      s.commit.hash
        ? `commit: ${s.commit.hash.slice(0, 12)} (${s.commit.files} files)`
        : `commit: none (${s.commit.left.length ? "nothing membank alone changed" : "nothing changed"})`,
    );
    for (const l of s.commit.left.slice(0, 20)) lines.push(`  ${leftNote(l)}`);
  }
  if (s.index)
    lines.push(
      `index: ${s.index.changed} files updated, ${s.index.removed} removed, ${s.index.chunks} chunks${s.index.rebuilt ? ` (rebuilt: ${s.index.reason ?? ""})` : ""}`,
    );
  const status = {
    done: "done",
    nothing: "nothing to do",
    failed: "FAILED",
    aborted: "aborted",
    running: "running",
    interrupted: "interrupted",
    blocked: "BLOCKED (git is busy; nothing written)",
  }[record.status];
  lines.push(`run: ${status} in ${record.durationMs ?? 0} ms${record.error ? ` -- ${record.error.message}` : ""}`);
  return lines;
}
