import type { Database } from "better-sqlite3";
import { type CachedEmbedderOptions, type EmbeddingStore, withEmbeddingCache } from "../embed/cache.js";
import type { Embedder } from "../embed/types.js";
import { blobToVector, vectorToBlob } from "../embed/vector.js";

/** Creates the embedding cache table of an index file if missing. */
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

/** The embedding cache of an index file, keyed by (provider, model, dims, content hash). */
export function embeddingStore(db: Database): EmbeddingStore {
  ensureEmbeddingCache(db);
  const byDims = db.prepare<[string, string, number, string], { vector: Buffer }>(
    "SELECT vector FROM embedding_cache WHERE provider = ? AND model = ? AND dims = ? AND hash = ?",
  );
  const anyDims = db.prepare<[string, string, string], { vector: Buffer; dims: number }>(
    "SELECT vector, dims FROM embedding_cache WHERE provider = ? AND model = ? AND hash = ? ORDER BY dims LIMIT 1",
  );
  const insert = db.prepare<[string, string, number, string, Buffer]>(
    "INSERT OR REPLACE INTO embedding_cache (provider, model, dims, hash, vector) VALUES (?, ?, ?, ?, ?)",
  );
  return {
    get(provider, model, dims, hash) {
      const row = byDims.get(provider, model, dims, hash);
      return row ? blobToVector(row.vector) : undefined;
    },
    getAnyDims(provider, model, hash) {
      const row = anyDims.get(provider, model, hash);
      return row ? { vector: blobToVector(row.vector), dims: row.dims } : undefined;
    },
    put: db.transaction((provider: string, model: string, items: Array<[string, Float32Array]>) => {
      for (const [hash, vector] of items) insert.run(provider, model, vector.length, hash, vectorToBlob(vector));
    }),
  };
}

/** An embedder whose vectors are cached in the index file `db` (see withEmbeddingCache). */
export function createCachedEmbedder(embedder: Embedder, db: Database, options: CachedEmbedderOptions = {}): Embedder {
  return withEmbeddingCache(embedder, embeddingStore(db), options);
}
