/** Wiring membank into OpenClaw: setup (plugin or MCP, extraPaths, AGENTS.md, nightly cron) and status. */
export { BLOCK_BEGIN, BLOCK_END, retainBlockState, upsertRetainBlock } from "./agents-block.js";
export { type ContextOptions, getPath, type OpenClawContext, openClawContext } from "./context.js";
export { findOpenClawBin } from "./run.js";
export {
  bothWiredNote,
  describeStep,
  mcpServerEntry,
  nightlyArgv,
  planSetup,
  type SetupOptions,
  type SetupStep,
} from "./setup.js";
export { formatStatus, type OpenClawStatus, openClawStatus, type StatusItem } from "./status.js";
export {
  assertOpenClawConfigValid,
  commentsLostByWrites,
  firstCommentLine,
  includeBlocksWrites,
  invalidConfigMessage,
} from "./validate.js";
export { openClawVersion, parseOpenClawVersion, unsupportedVersion } from "./version.js";
