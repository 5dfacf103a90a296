import type { Embedder } from "./types.js";
import { batches, textHash } from "./vector.js";

export interface CachedEmbedderOptions {
  /** Texts per call to the wrapped provider; each batch is stored as soon as it returns. */
  batchSize?: number;
}

/** Where cached vectors live (the index file's embedding_cache table: src/index/embedding-cache.ts). */
export interface EmbeddingStore {
  get(provider: string, model: string, dims: number, hash: string): Float32Array | undefined;
  /** Any cached size, the smallest first. */
  getAnyDims(provider: string, model: string, hash: string): { vector: Float32Array; dims: number } | undefined;
  /** Store vectors by content hash, in one transaction. */
  put(provider: string, model: string, items: Array<[string, Float32Array]>): void;
}

/**
 * Wrap an embedder with a content-addressed cache: texts already embedded by the same
 * (provider, model, dims) are read back; only the others reach the provider, in batches.
 * Duplicate texts in one call are embedded once.
 */
export function withEmbeddingCache(
  embedder: Embedder,
  store: EmbeddingStore,
  options: CachedEmbedderOptions = {},
): Embedder {
  let learnedDims = 0;
  const dimsNow = () => embedder.dims || learnedDims;

  const lookup = (hash: string): Float32Array | undefined => {
    const dims = dimsNow();
    if (dims > 0) return store.get(embedder.id, embedder.model, dims, hash);
    // Before the first call a remote model of unknown size reports dims 0: accept any cached size.
    const row = store.getAnyDims(embedder.id, embedder.model, hash);
    if (!row) return undefined;
    learnedDims = row.dims;
    return row.vector;
  };

  const cached: Embedder = {
    id: embedder.id,
    model: embedder.model,
    get dims() {
      return dimsNow();
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const hashes = texts.map(textHash);
      const found = new Map<string, Float32Array>();
      const missing: Array<{ hash: string; text: string }> = [];
      const queued = new Set<string>();
      hashes.forEach((hash, i) => {
        if (found.has(hash) || queued.has(hash)) return;
        const hit = lookup(hash);
        if (hit) found.set(hash, hit);
        else {
          queued.add(hash);
          missing.push({ hash, text: texts[i]! });
        }
      });
      for (const batch of batches(missing, options.batchSize ?? 64)) {
        const vectors = await embedder.embed(batch.map((m) => m.text));
        const items: Array<[string, Float32Array]> = batch.map((m, i) => [m.hash, vectors[i]!]);
        store.put(embedder.id, embedder.model, items);
        for (const [hash, vector] of items) found.set(hash, vector);
      }
      return hashes.map((hash) => found.get(hash)!);
    },
  };
  if (embedder.close) cached.close = () => embedder.close!();
  return cached;
}
