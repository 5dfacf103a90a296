/** Recall: query understanding, hybrid ranking over the index and line store, cited results. */

export { factsAtLines } from "../index/recall-queries.js";
export { type ArmContext, entityPageSummary } from "./arms.js";
export { opinionEvidence } from "./candidates.js";
export { DEFAULT_FUSE, dedupe, type Fused, type FuseOptions, type FusionMethod, fuse } from "./fuse.js";
export {
  type EntityName,
  type Intent,
  type IntentOptions,
  type LexicalTerm,
  lexicalTerms,
  matchEntities,
  type QuestionKind,
  understandQuery,
} from "./intent.js";
export { DEFAULT_LINE_RANK, type LineRankOptions, lineSpeakers, rescoreLines } from "./linerank.js";
export { type LineHit, searchLines } from "./lines.js";
export { DEFAULT_WEIGHTS, type RecallOptions, recall } from "./recall.js";
export { estimateTokens, fitBudget, RESULT_OVERHEAD_TOKENS } from "./shape.js";
export { overlapsWindow, parseTimeWindow, type TimeWindow } from "./timewindow.js";
export type {
  ArmHit,
  ArmList,
  Candidate,
  EvidenceRef,
  RecallIntent,
  RecallResponse,
  RecallResult,
  ResultKind,
} from "./types.js";
export { buildWindows, DEFAULT_WINDOW, type LineWindow, type WindowOptions } from "./windows.js";
