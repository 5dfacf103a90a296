/** LLM providers (Anthropic, local node-llama-cpp, none) and the extraction write-back. */
export { redactSecret } from "./anthropic.js";
export type { AskState, Completer } from "./ask.js";
export { askValidated } from "./ask.js";
export { type CreateLlmOptions, createLlm } from "./create.js";
export {
  type AppendOptions,
  appendExtractedRetain,
  EXTRACTED_HEADING,
  type ExtractionSource,
  extractedComment,
  extractedSection,
} from "./extract-writeback.js";
export { type ExtractPastOptions, type ExtractPastReport, extractFromPastLogs } from "./past-logs.js";
export type { ChatRequest } from "./prompts.js";
export { entityToken, formatRetainLine } from "./retain-line.js";
export { findRetainSections, hasOwnRetain, narrativeText, type RetainSectionSpan } from "./retain-sections.js";
export { extractionAnswer, judgementAnswer, summaryAnswer, validateAnswer } from "./schemas.js";
export { createServices } from "./services.js";
export type { ExtractedFact, Judge, Judgement, LlmServices, OpinionRef, Stance } from "./types.js";
