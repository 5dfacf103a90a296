/**
 * The pipelines `membank run NAME` knows, by name. The registry lives beside the pipelines
 * (not in src/pipeline/, which they import), so the folders depend one way: pipelines/ -> src/.
 */

import { executePipeline } from "../src/pipeline/runner.js";
import type { PipelineDefinition, RunOptions, RunRecord } from "../src/pipeline/types.js";
import { MembankError } from "../src/workspace/errors.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { nightly } from "./nightly.js";

// biome-ignore lint/suspicious/noExplicitAny: each pipeline has its own state type.
export const PIPELINES: Readonly<Record<string, PipelineDefinition<any>>> = { nightly };

export function getPipeline(name: string): PipelineDefinition<unknown> {
  const def = PIPELINES[name];
  if (!def) {
    throw new MembankError(`Unknown pipeline ${JSON.stringify(name)}; known: ${Object.keys(PIPELINES).join(", ")}.`, {
      code: "EPIPELINE",
      exitCode: 2,
    });
  }
  return def;
}

/** Run a named pipeline (e.g. "nightly") on a workspace; see executePipeline. */
export function runPipeline(ws: Workspace, name: string, opts: RunOptions = {}): Promise<RunRecord> {
  return executePipeline(ws, getPipeline(name), opts);
}
