export { extractValidity, parseSinceDate, shiftDate, type Validity } from "./dates.js";
export { entityFileStem, entityKey, entitySlug, findMentions } from "./entities.js";
export { factId, normaliseContent } from "./id.js";
export { type LineResult, type ParsedLine, parseFactLine } from "./line.js";
export { parseMemo, type SectionParser } from "./memo.js";
export { NO_RETAIN_LISTED, noRetainNote } from "./no-retain.js";
export {
  parseRetain,
  type RetainOptions,
  type RetainOutcome,
  type RetainScan,
  type RetainSectionInfo,
  retainHeading,
  scanRetain,
} from "./parse.js";
export { collectFacts, EMPTY_LOG_REASON, type LogInput, type ReadFactsOptions, readFacts, readLog } from "./read.js";
export * from "./types.js";
