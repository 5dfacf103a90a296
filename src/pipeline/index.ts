export { gitDir, recoverIndexLock } from "./git-recovery.js";
export { lastCompletedRunStart, listRunRecords, runRecordPath, runsDir, writeRunRecord } from "./record.js";
export { executePipeline } from "./runner.js";
export { type Scheduler, type SchedulerOptions, startScheduler } from "./scheduler.js";
export type {
  PipelineDefinition,
  PipelineStep,
  RunOptions,
  RunRecord,
  RunStatus,
  StepContext,
  StepOutcome,
  StepRecord,
  StepStatus,
} from "./types.js";
export { type ChangedWindowOptions, changedWindow, type IncrementalWindow } from "./window.js";
