import { getPipeline } from "../../pipelines/index.js";
import type { PipelineDefinition, RunRecord } from "../pipeline/types.js";
import { summarizeNightly } from "./nightly-summary.js";

/** How the CLI tells a person what a run did, by pipeline name. */
// biome-ignore lint/suspicious/noExplicitAny: each pipeline has its own state type.
const SUMMARIES: Record<string, (state: any, record: RunRecord) => string[]> = { nightly: summarizeNightly };

/** A named pipeline with the CLI's summary of its runs (also kept in the run record). */
export function cliPipeline(name: string): PipelineDefinition<unknown> {
  const def = getPipeline(name);
  const summarize = SUMMARIES[name];
  return summarize ? { ...def, summarize } : def;
}
