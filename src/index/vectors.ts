import type { IndexDb } from "./db.js";
import { readMeta, writeMeta } from "./schema.js";

/**
 * Chunk vectors. `chunk_vectors` (id, float32 BLOB) is always written: it is what the
 * in-process cosine fallback scans and what `chunk_vec` (sqlite-vec vec0) is rebuilt
 * from when the extension was missing during a sync. Vectors are L2-normalised, so
 * cosine similarity is a dot product.
 */

export interface VectorHit {
  id: number;
  /** Cosine similarity, clamped to 0..1. */
  score: number;
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function fromBlob(b: Buffer): Float32Array {
  // Copy: the Buffer may not be 4-byte aligned.
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

function vecTableExists(idx: IndexDb): boolean {
  return idx.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vec'").get() !== undefined;
}

/**
 * Create `chunk_vec` for `dims` if sqlite-vec is loaded, and refill it from
 * `chunk_vectors` when the two disagree (a sync ran without the extension).
 */
export function ensureVecTable(idx: IndexDb, dims: number): void {
  writeMeta(idx.db, "dims", String(dims));
  if (!idx.vec.loaded) return;
  if (!vecTableExists(idx)) {
    idx.db.exec(`CREATE VIRTUAL TABLE chunk_vec USING vec0(embedding float[${dims}] distance_metric=cosine)`);
  }
  const a = idx.db.prepare("SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM chunk_vectors").get() as {
    n: number;
    m: number;
  };
  const b = idx.db.prepare("SELECT count(*) AS n, coalesce(max(rowid), 0) AS m FROM chunk_vec").get() as {
    n: number;
    m: number;
  };
  if (a.n === b.n && a.m === b.m) return;
  idx.db.transaction(() => {
    idx.db.exec("DELETE FROM chunk_vec");
    const insert = idx.db.prepare("INSERT INTO chunk_vec(rowid, embedding) VALUES (?, ?)");
    for (const row of idx.db.prepare("SELECT id, vec FROM chunk_vectors").iterate() as Iterable<{
      id: number;
      vec: Buffer;
    }>) {
      insert.run(BigInt(row.id), row.vec);
    }
  })();
}

/** Store vectors for chunk ids (inside the caller's transaction, if any). */
export function putVectors(idx: IndexDb, items: { id: number; vec: Float32Array }[]): void {
  const plain = idx.db.prepare("INSERT OR REPLACE INTO chunk_vectors(id, vec) VALUES (?, ?)");
  const useVec = idx.vec.loaded && vecTableExists(idx);
  const del = useVec ? idx.db.prepare("DELETE FROM chunk_vec WHERE rowid = ?") : undefined;
  const ins = useVec ? idx.db.prepare("INSERT INTO chunk_vec(rowid, embedding) VALUES (?, ?)") : undefined;
  for (const { id, vec } of items) {
    const blob = toBlob(vec);
    plain.run(id, blob);
    if (ins && del) {
      // vec0 has no upsert; rowids must be passed as BigInt.
      del.run(BigInt(id));
      ins.run(BigInt(id), blob);
    }
  }
}

/** Remove vectors of deleted chunks. */
export function deleteVectors(idx: IndexDb, ids: number[]): void {
  if (ids.length === 0) return;
  const plain = idx.db.prepare("DELETE FROM chunk_vectors WHERE id = ?");
  // The table first: loading sqlite-vec to learn there is nothing to delete cost ~8 ms a nightly.
  const useVec = vecTableExists(idx) && idx.vec.loaded;
  const del = useVec ? idx.db.prepare("DELETE FROM chunk_vec WHERE rowid = ?") : undefined;
  for (const id of ids) {
    plain.run(id);
    del?.run(BigInt(id));
  }
}

/** Dimensions of the stored vectors, if any were stored. */
export function storedDims(idx: IndexDb): number | undefined {
  const v = readMeta(idx.db, "dims");
  return v === undefined ? undefined : Number(v);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}

/**
 * The `limit` nearest chunks to `query` by cosine similarity: vec0 KNN when sqlite-vec
 * is loaded and its table is complete, else a scan over `chunk_vectors`. Ties break by
 * chunk id so both paths give the same order. The vec0 query touches only chunk_vec
 * (joining other tables in the same statement defeats its index): callers join by id.
 */
export function vectorKnn(idx: IndexDb, query: Float32Array, limit: number): VectorHit[] {
  if (limit <= 0) return [];
  if (idx.vec.loaded && vecTableExists(idx)) {
    const rows = idx.db
      .prepare("SELECT rowid AS id, distance FROM chunk_vec WHERE embedding MATCH ? AND k = ?")
      .all(toBlob(query), limit) as { id: number; distance: number }[];
    return rows
      .map((r) => ({ id: Number(r.id), score: clamp01(1 - r.distance) }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }
  return vectorKnnScan(idx, query, limit);
}

/** The JS fallback: exact cosine over every stored vector. */
export function vectorKnnScan(idx: IndexDb, query: Float32Array, limit: number): VectorHit[] {
  const top: VectorHit[] = [];
  for (const row of idx.db.prepare("SELECT id, vec FROM chunk_vectors").iterate() as Iterable<{
    id: number;
    vec: Buffer;
  }>) {
    const score = clamp01(dot(query, fromBlob(row.vec)));
    if (top.length < limit || score > top[top.length - 1]!.score) {
      top.push({ id: row.id, score });
      top.sort((a, b) => b.score - a.score || a.id - b.id);
      if (top.length > limit) top.pop();
    }
  }
  return top;
}
