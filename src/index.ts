/**
 * membank's public library API: openMembank and the types its calls take and return.
 * Everything else is internal (`membank/internal`, no stability promise).
 */
export type { EmbedderChoice } from "./embed/types.js";
export type { GetOptions, GetResult } from "./index/get.js";
export type { SearchOptions, SearchResponse, SearchResult } from "./index/search.js";
export type { SyncOptions, SyncPhase, SyncReport } from "./index/sync.js";
export type { LlmServices } from "./llm/types.js";
export { type Membank, type OpenMembankOptions, openMembank } from "./membank.js";
export type { RecallOptions } from "./recall/recall.js";
export type { EvidenceRef, RecallIntent, RecallResponse, RecallResult, ResultKind } from "./recall/types.js";
export type { ReflectOptions, ReflectReport } from "./reflect/index.js";
export { MembankError } from "./workspace/errors.js";
export type { ResolveOptions, Workspace } from "./workspace/workspace.js";
