/** Internals for membank's own benchmarks, scripts and tests (`membank/internal`): no stability promise. The public API is src/index.ts. */

// The one stop-word list, for the benchmarks' plain-BM25 baselines (bench/eval-score.mjs).
export { STOP_WORDS } from "./analysis/stopwords.js";
export {
  type CachedEmbedderOptions,
  createGeminiEmbedder,
  createLocalEmbedder,
  createOpenAiEmbedder,
  createUseEmbedder,
  EMBEDDING_PROVIDERS,
  type Embedder,
  type EmbedderChoice,
  type EmbeddingProvider,
  type GeminiEmbedderOptions,
  type LocalEmbedderOptions,
  type OpenAiEmbedderOptions,
  type ResolveEmbedderOptions,
  resolveEmbedder,
} from "./embed/index.js";
export * from "./index/index.js";
export {
  type AppendOptions,
  appendExtractedRetain,
  type CreateLlmOptions,
  createLlm,
  type ExtractedFact,
  type ExtractPastOptions,
  type ExtractPastReport,
  extractFromPastLogs,
  formatRetainLine,
  type Judge,
  type Judgement,
  type LlmServices,
  type OpinionRef,
  type Stance,
} from "./llm/index.js";
export * from "./markdown/index.js";
export * from "./membank.js";
export * from "./pipeline/index.js";
export * from "./recall/index.js";
export * from "./reflect/index.js";
export * from "./retain/index.js";
export * from "./sessions/index.js";
export * from "./workspace/index.js";
