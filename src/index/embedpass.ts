import type { Embedder } from "../embed/types.js";
import type { IndexDb } from "./db.js";
import { ensureVecTable, putVectors } from "./vectors.js";

/**
 * Embed every chunk that has no vector yet, in batches, each batch stored in its own
 * transaction. Working from "chunks without a vector" (not "chunks changed in this
 * sync") makes it self-healing: chunks added by a BM25-only sync, or left over by a
 * failed provider call, are embedded by the next sync that has an embedder.
 */
export async function embedMissing(
  idx: IndexDb,
  embedder: Embedder,
  batchSize: number,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  // Remote providers may learn their dims from the first answer (dims 0 until then).
  let dims = embedder.dims;
  if (dims > 0) ensureVecTable(idx, dims);
  const missing = idx.db
    .prepare(
      "SELECT c.id, c.text FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id) ORDER BY c.id",
    )
    .all() as { id: number; text: string }[];
  let done = 0;
  for (let i = 0; i < missing.length; i += batchSize) {
    const batch = missing.slice(i, i + batchSize);
    const vectors = await embedder.embed(batch.map((c) => c.text));
    if (vectors.length !== batch.length) {
      throw new Error(`${embedder.id} returned ${vectors.length} vectors for ${batch.length} texts`);
    }
    if (dims === 0 && vectors[0]) {
      dims = vectors[0].length;
      ensureVecTable(idx, dims);
    }
    for (const v of vectors) {
      if (v.length !== dims) throw new Error(`${embedder.id} returned ${v.length} dims, expected ${dims}`);
    }
    idx.db.transaction(() =>
      putVectors(
        idx,
        batch.map((c, j) => ({ id: c.id, vec: vectors[j]! })),
      ),
    )();
    done += batch.length;
    onProgress?.(done, missing.length);
  }
  return done;
}
