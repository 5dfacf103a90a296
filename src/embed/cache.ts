import type { Database } from "better-sqlite3";
import type { Embedder } from "./types.js";
import { batches, blobToVector, textHash, vectorToBlob } from "./vector.js";

export interface CachedEmbedderOptions {
  /** Texts per call to the wrapped provider; each batch is stored as soon as it returns. */
  batchSize?: number;
}

/** Creates the cache table if missing. Owned by embed; the index only hands over its database. */
export function ensureEmbeddingCache(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS embedding_cache (
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    dims INTEGER NOT NULL,
    hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (provider, model, dims, hash)
  ) WITHOUT ROWID`);
}

/**
 * Wrap an embedder with a content-addressed cache in `db`: texts already embedded by the
 * same (provider, model, dims) are read back; only the others reach the provider, in
 * batches. Duplicate texts in one call are embedded once.
 */
export function createCachedEmbedder(embedder: Embedder, db: Database, options: CachedEmbedderOptions = {}): Embedder {
  ensureEmbeddingCache(db);
  const byDims = db.prepare<[string, string, number, string], { vector: Buffer }>(
    "SELECT vector FROM embedding_cache WHERE provider = ? AND model = ? AND dims = ? AND hash = ?",
  );
  // Before the first call a remote model of unknown size reports dims 0: accept any cached size.
  const anyDims = db.prepare<[string, string, string], { vector: Buffer; dims: number }>(
    "SELECT vector, dims FROM embedding_cache WHERE provider = ? AND model = ? AND hash = ? ORDER BY dims LIMIT 1",
  );
  const insert = db.prepare<[string, string, number, string, Buffer]>(
    "INSERT OR REPLACE INTO embedding_cache (provider, model, dims, hash, vector) VALUES (?, ?, ?, ?, ?)",
  );
  let learnedDims = 0;
  const dimsNow = () => embedder.dims || learnedDims;

  const lookup = (hash: string): Float32Array | undefined => {
    const dims = dimsNow();
    if (dims > 0) {
      const row = byDims.get(embedder.id, embedder.model, dims, hash);
      return row ? blobToVector(row.vector) : undefined;
    }
    const row = anyDims.get(embedder.id, embedder.model, hash);
    if (!row) return undefined;
    learnedDims = row.dims;
    return blobToVector(row.vector);
  };

  const store = db.transaction((items: Array<[string, Float32Array]>) => {
    for (const [hash, vector] of items) {
      insert.run(embedder.id, embedder.model, vector.length, hash, vectorToBlob(vector));
    }
  });

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
        store(items);
        for (const [hash, vector] of items) found.set(hash, vector);
      }
      return hashes.map((hash) => found.get(hash)!);
    },
  };
  if (embedder.close) cached.close = () => embedder.close!();
  return cached;
}
