/** The derived index: SQLite schema, chunking, FTS, vectors, sync, search, memory_get. */

export { OPINIONS_PAGE } from "../markdown/pages.js";
export { CHARS_PER_TOKEN, type Chunk, type ChunkOptions, chunkMarkdown } from "./chunk.js";
export { hasFts5, type IndexDb, indexFile, type OpenOptions, openIndex, type VecStatus } from "./db.js";
export { createCachedEmbedder, embeddingStore, ensureEmbeddingCache } from "./embedding-cache.js";
export { type VectorCoverage, vectorCoverage } from "./embedpass.js";
export { type EntityPageInfo, parseEntityPage } from "./entity-page.js";
export { type EmbedMissingOptions, embedMissing } from "./fill.js";
export { bm25ToScores, buildMatchQuery, cjkTerms, quoteTerm } from "./fts.js";
export {
  checkMemoryPath,
  type GetOptions,
  type GetResult,
  getMemoryLines,
  MAX_GET_BYTES,
  MAX_GET_LINES,
} from "./get.js";
export { acquireIndex, closeIndexes, releaseIndex } from "./handles.js";
export { hasLines, type LineRow, type LineStats, lineStats, readLines } from "./lines.js";
export { type PageOpinion, readOpinionPage } from "./opinions.js";
export * from "./queries.js";
export { SCHEMA_VERSION } from "./schema.js";
export { makeSnippet, type SearchOptions, type SearchResponse, type SearchResult, search } from "./search.js";
export { type IndexStatus, indexStatus } from "./status.js";
export { type SyncOptions, type SyncPhase, type SyncReport, syncIndex } from "./sync.js";
export type { VectorHit } from "./vectors.js";
export { type IndexWatcher, type WatchOptions, watchIndex } from "./watch.js";
