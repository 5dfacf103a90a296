/** Embedding providers behind one interface, plus the content-addressed cache. */
export { type CachedEmbedderOptions, type EmbeddingStore, withEmbeddingCache } from "./cache.js";
export { createGeminiEmbedder, type GeminiEmbedderOptions } from "./gemini.js";
export { type GgufHeaderInfo, readGgufHeader } from "./gguf-header.js";
export { DEFAULT_RETRY, type RetryOptions, redact } from "./http.js";
export { createLocalEmbedder, type LocalEmbedderOptions } from "./local.js";
export { createOpenAiEmbedder, type OpenAiEmbedderOptions } from "./openai.js";
export {
  EMBEDDING_PROVIDERS,
  type EmbeddingProvider,
  type ResolveEmbedderOptions,
  resolveEmbedder,
} from "./resolve.js";
export type { Embedder, EmbedderChoice } from "./types.js";
export { createUseEmbedder, USE_DIMS, USE_MODEL, useAvailable } from "./use.js";
export { blobToVector, dot, l2normalize, textHash, vectorToBlob } from "./vector.js";
