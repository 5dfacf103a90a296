import type { LlmServices } from "../llm/types.js";
import type { Workspace } from "../workspace/workspace.js";

/** What a step reports back: counts for the summary, files it wrote (for the commit), a commit it made. */
export interface StepOutcome {
  counts?: Record<string, number>;
  /** Workspace-relative files the step wrote (they go into the pipeline's commit). */
  written?: string[];
  /** True when the step changed something (files, index, commit); a run where no step did is "nothing to do". */
  changed?: boolean;
  commit?: string;
  /** Short human lines for the run summary (warnings, diagnostics with file:line). */
  notes?: string[];
}

/** Options every pipeline run takes; each pipeline reads the ones it needs. */
export interface RunOptions {
  /** `--sessions DIR`: a folder of session transcripts, instead of config sessions.dir. */
  sessionsDir?: string;
  /** LLM services to use; default createLlm(ws) from config. */
  llm?: LlmServices;
  /** The run's "now" (which day is today, for sessions and reflect). */
  now?: Date;
  /** Abort between steps (SIGTERM): the current step finishes, the rest is skipped. */
  signal?: AbortSignal;
  /** Progress lines (one per step start/end). */
  log?: (line: string) => void;
  /** How long to wait for another run's workspace lock, ms (default 0: fail at once with exit code 4). */
  lockWaitMs?: number;
  /** Read every log instead of only those changed since the last completed run. */
  full?: boolean;
  /** Many daily logs gone since the last run were deleted on purpose (reflect refuses it otherwise). */
  acceptDeletedLogs?: boolean;
  /** What the lock owner file says this process is doing. */
  purpose?: string;
}

export interface StepContext<S> {
  ws: Workspace;
  /** The pipeline's typed state, passed from step to step. */
  state: S;
  options: RunOptions;
  signal: AbortSignal;
  log: (line: string) => void;
  now: Date;
  /** This run's record id. */
  runId: string;
  /** Files the steps before this one wrote (workspace-relative). */
  readonly written: readonly string[];
}

export interface PipelineStep<S> {
  name: string;
  /** One line for `--help` and progress. */
  description: string;
  run(ctx: StepContext<S>): Promise<StepOutcome | undefined>;
}

export interface PipelineDefinition<S> {
  name: string;
  description: string;
  createState(ws: Workspace, options: RunOptions): S;
  steps: PipelineStep<S>[];
  /** Checked before any step runs; throwing stops the run before anything is written. */
  preflight?(ctx: StepContext<S>): Promise<void>;
  /** Human summary lines at the end of a run. */
  summarize?(state: S, record: RunRecord): string[];
  /** Release what createState or the steps opened (LLM models...). Always called. */
  dispose?(state: S): Promise<void>;
}

export type StepStatus = "pending" | "running" | "ok" | "failed" | "skipped";
/** `blocked`: git is mid-merge/rebase/... or on a detached HEAD; nothing was written or committed. */
export type RunStatus = "running" | "done" | "nothing" | "failed" | "aborted" | "interrupted" | "blocked";

export interface StepRecord {
  name: string;
  status: StepStatus;
  startedAt?: string;
  durationMs?: number;
  counts?: Record<string, number>;
  written?: string[];
  notes?: string[];
  error?: string;
}

/** `.memory/runs/<id>.json`. */
export interface RunRecord {
  version: 1;
  id: string;
  pipeline: string;
  workspace: string;
  pid: number;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  status: RunStatus;
  steps: StepRecord[];
  /** Files the run wrote (and committed, when `commit` is set). */
  written: string[];
  commit?: string;
  error?: { step?: string; message: string };
  summary?: string[];
}
