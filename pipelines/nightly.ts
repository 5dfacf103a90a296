/**
 * The nightly pipeline as data: ingest sessions -> retain -> reflect -> commit -> index.
 * Each step calls one library function and hands its typed report to the next through the
 * pipeline state; the runner (src/pipeline/runner.ts) times, records and stops on failure.
 * The retain step parses the changed logs once: reflect gets its facts, the index its parses.
 * The commit holds exactly the files the steps wrote (digests, extracted Retain sections,
 * bank pages) -- reflect itself runs with commit: false. The run summary is the CLI's
 * (src/cli/nightly-summary.ts).
 */
import type { SyncReport } from "../src/index/index.js";
import { createLlm } from "../src/llm/create.js";
import type { LlmServices } from "../src/llm/types.js";
import { commitRun } from "../src/pipeline/git-recovery.js";
import { indexForRun } from "../src/pipeline/index-run.js";
import { writeFileManifest } from "../src/pipeline/manifest.js";
import { retainForRun } from "../src/pipeline/retain-run.js";
import type { PipelineDefinition, StepContext } from "../src/pipeline/types.js";
import { assertWorkspaceOnDisk } from "../src/reflect/checkout.js";
import { assertGitCanCommit } from "../src/reflect/git.js";
import { leftNote, type ReflectReport, reflect } from "../src/reflect/index.js";
import { changeLine, runCommitMessage } from "../src/reflect/message.js";
import type { LogInput, LogsRead, SectionParser } from "../src/retain/index.js";
import { ingestSessions } from "../src/sessions/ingest.js";
import type { IngestReport } from "../src/sessions/types.js";
import { workspaceDay } from "../src/workspace/clock.js";
import type { MemoryFile, MemoryListing } from "../src/workspace/files.js";

export interface NightlyState {
  /** Oldest day whose log changed since the last completed run (undefined: read everything). */
  since?: string;
  llm?: LlmServices;
  ownsLlm: boolean;
  ingest?: IngestReport;
  facts?: { facts: number; diagnostics: number; files: number; noRetain: string[]; noRetainNote?: string };
  /** The retain step's read of the window, handed to reflect (not read again). */
  retained?: LogsRead & { logs: LogInput[] };
  /** The retain step's parses, handed to the index (a log unchanged since is not parsed again). */
  parse?: SectionParser;
  reflect?: ReflectReport;
  commit?: { hash?: string; files: number; left: { path: string; reason: string }[]; off?: string };
  index?: SyncReport;
  /** The daily logs as the retain step listed them (saved as the next run's baseline when this one completes). */
  logsRead?: MemoryFile[];
  /** The retain step's scan of every memory file: the index step stats only what the run wrote since. */
  listing?: MemoryListing;
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

function diagNotes(diags: { path: string; line: number; reason: string }[]): string[] {
  const notes = diags.slice(0, MAX_NOTES).map((d) => `${d.path}:${d.line}: ${d.reason}`);
  if (diags.length > MAX_NOTES) notes.push(`... and ${diags.length - MAX_NOTES} more`);
  return notes;
}

export const nightly: PipelineDefinition<NightlyState> = {
  name: "nightly",
  description: "ingest sessions -> retain -> reflect -> commit -> index",
  createState: () => ({ ownsLlm: false }),
  // Mid-merge, mid-rebase or on a detached HEAD, writing pages would mix them into the user's
  // operation: do nothing at all; the next run in a normal state catches up.
  // Logs or pages out of sight (a sparse checkout, memory/ missing or empty): the sessions step
  // would write a digest there and reflect would empty the bank, so nothing starts.
  async preflight(ctx) {
    if (ctx.ws.config.reflect.git.commit) await assertGitCanCommit(ctx.ws);
    await assertWorkspaceOnDisk(ctx.ws);
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
        const run = await retainForRun(ctx.ws, {
          llm: await llmOf(ctx),
          now: ctx.now,
          pipeline: "nightly",
          runId: ctx.runId,
          ...(ctx.options.full ? { full: true } : {}),
          log: (line) => ctx.log(`    ${line}`),
        });
        const { read: r, extracted, noRetainNote: note } = run;
        Object.assign(ctx.state, {
          since: run.window.since,
          logsRead: run.window.logs,
          listing: run.window.listing,
          retained: r,
          parse: run.parse,
        });
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
          ...(ctx.options.acceptDeletedLogs ? { acceptDeletedLogs: true } : {}),
          now: ctx.now,
          ...(since === undefined ? { all: true } : { since }),
          ...(ctx.state.retained
            ? { retained: { ...(since === undefined ? {} : { since }), read: ctx.state.retained } }
            : {}),
        });
        ctx.state.retained = undefined; // the texts are not needed after reflect
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
            ...r.conflicts.slice(0, MAX_NOTES).map((c) => `${c.path}: region ${c.region} ${c.reason}`),
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
        const day = workspaceDay(ws, ctx.now);
        const { ingest, reflect: rep } = ctx.state;
        const r = await commitRun(
          ws,
          (files) =>
            runCommitMessage({ day, files, ...(rep ? { reflect: rep } : {}), ...(ingest ? { sessions: ingest } : {}) }),
          ctx.written,
        );
        const notes = r.recovered ? [r.recovered] : [];
        if (r.off) notes.push(`${r.off}: files written, no commit`);
        if (r.unsynced) notes.push("git was stopped after the commit; the next run brings git's index in line");
        for (const l of r.left.slice(0, MAX_NOTES)) notes.push(leftNote(l));
        if (r.left.length > MAX_NOTES) notes.push(`... and ${r.left.length - MAX_NOTES} more files left uncommitted`);
        ctx.state.commit = {
          ...(r.commit ? { hash: r.commit } : {}),
          files: r.committed.length,
          left: r.left,
          ...(r.off ? { off: r.off } : {}),
        };
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
        const r = await indexForRun(ctx.ws, {
          ...(ctx.state.parse ? { parseRetain: ctx.state.parse } : {}),
          ...(ctx.state.listing ? { listing: ctx.state.listing, written: ctx.written } : {}),
          log: (line) => ctx.log(`    ${line}`),
        });
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
  async dispose(state) {
    if (state.ownsLlm) await state.llm?.close?.();
  },
};
