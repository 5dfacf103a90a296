import type { LlmServices } from "../llm/types.js";
import type { Diagnostic } from "../retain/types.js";
import type { OpinionChange } from "./evolve.js";
import type { RetainedLogs } from "./load.js";
import type { Conflict } from "./render.js";

/** What `reflect` takes and what it reports (index.ts). */
export interface ReflectOptions {
  /** Only logs dated on or after this (YYYY-MM-DD, or an age like `7d`) are read; older facts come from the snapshot. */
  since?: string;
  /** Read every log (the default when `since` is not given). */
  all?: boolean;
  /** Compute the diff, write nothing. */
  dryRun?: boolean;
  /** false: write the pages but do not commit (also config.reflect.git.commit). */
  commit?: boolean;
  /** With commit: false: the caller commits later (the nightly pipeline), so record the pages as membank's. */
  commitLater?: boolean;
  /** `git init` the workspace when it is not a repository. */
  gitInit?: boolean;
  llm?: LlmServices;
  /** With an LLM: first extract facts from past logs that have no Retain section (default true; the nightly pipeline does it in its retain step). */
  extract?: boolean;
  now?: Date;
  /** Many daily logs gone at once is a deletion the user means (else refused: checkout.ts). */
  acceptDeletedLogs?: boolean;
  /** The logs the caller already read for this window (the nightly's retain step): not read or parsed again. */
  retained?: RetainedLogs;
}

export interface ReflectReport {
  mode: "full" | "incremental";
  since?: string;
  /** Facts parsed from logs in this run. */
  factsRead: number;
  /** Daily logs read in this run. */
  logsRead: number;
  /** Of those, the logs without a `## Retain` section (sorted). */
  logsWithoutRetain: string[];
  /** One line about logsWithoutRetain (which, or what to do), when there are any. */
  noRetainNote?: string;
  /** Facts the bank holds after the run. */
  factsTotal: number;
  /** Facts that no bank page linked before this run. */
  factsAdded: number;
  pagesWritten: string[];
  /** Daily logs that got a `## Retain (extracted)` section from the LLM in this run (committed with the pages). */
  extracted: string[];
  /** New opinions: `initial` is the origin fact's c, `confidence` the value after this run's later evidence. */
  opinionsCreated: { id: string; statement: string; entities: string[]; initial: number; confidence: number }[];
  opinionsChanged: OpinionChange[];
  conflicts: Conflict[];
  /** Opinion regions edited by hand whose values were taken as the new state. */
  adoptedEdits: string[];
  diagnostics: Diagnostic[];
  warnings: string[];
  /** Entities that may be one (Zoe/Zoë, an alias MEMORY.md states): shown on their pages, never merged. */
  aliasSuggestions: string[];
  judge: string;
  commit?: string;
  /** The commit message describing this run (facts added, new opinions, confidence changes, pages), also when reflect does not commit itself. */
  message: string;
  /** Files membank wrote but did not commit (a person's edits are in them, git ignores them...), with why. */
  left?: { path: string; reason: string }[];
  /** Why nothing was committed although pages changed (not a repository, --no-commit, dry run). */
  commitsOff?: string;
  diff?: string;
  /** Milliseconds per phase (load, opinions, render, write, commit), for benchmarks. */
  timings: Record<string, number>;
}
