import type { Embedder } from "../embed/types.js";
import type { IndexDb } from "./db.js";
import { readMeta } from "./schema.js";
import { ensureVecTable, putVectors } from "./vectors.js";

/**
 * Which chunks get a vector: logs and MEMORY.md. Bank pages are derived from the logs and
 * re-rendered by every reflect (shifting their chunk boundaries, so one new fact used to
 * re-embed most of a page); they stay in BM25 and the structured tables.
 */
const EMBEDDED = "c.path NOT LIKE 'bank/%'";

const MISSING = `FROM chunks c WHERE ${EMBEDDED} AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id)`;

/** Does the stored embedder fingerprint (meta `embedder`) name this embedder? */
export function sameEmbedder(stored: string, e: Embedder): boolean {
  try {
    const s = JSON.parse(stored) as { provider?: string; model?: string; dims?: number };
    return s.provider === e.id && s.model === e.model && (e.dims === 0 || s.dims === e.dims);
  } catch {
    return false;
  }
}

export interface VectorCoverage {
  /** The stored vectors were made by this embedder (same provider, model, dims). */
  sameEmbedder: boolean;
  /** Chunks with a vector. */
  vectors: number;
  /** Chunks that should have one and do not yet. */
  missing: number;
}

/** What the vector arm can use right now, without embedding anything. */
export function vectorCoverage(idx: IndexDb, embedder: Embedder): VectorCoverage {
  const stored = readMeta(idx.db, "embedder");
  const vectors = (idx.db.prepare("SELECT count(*) AS n FROM chunk_vectors").get() as { n: number }).n;
  const missing = (idx.db.prepare(`SELECT count(*) AS n ${MISSING}`).get() as { n: number }).n;
  return { sameEmbedder: stored !== undefined && sameEmbedder(stored, embedder), vectors, missing };
}

/**
 * May a query use the vector arm with this embedder, and what should it tell the user?
 * Queries never embed the corpus (that is `membank index`, the nightly or a background
 * job): they use the vectors that exist, or skip the arm when there are none of theirs.
 */
export function vectorArmPlan(idx: IndexDb, embedder: Embedder, provider: string): { use: boolean; note?: string } {
  const c = vectorCoverage(idx, embedder);
  if (c.vectors === 0) {
    return {
      use: false,
      note: `no ${provider} vectors in the index yet (\`membank index\` embeds); vector arm skipped`,
    };
  }
  if (!c.sameEmbedder) {
    return {
      use: false,
      note: `the index's vectors are from another embedder (\`membank index\` re-embeds); vector arm skipped`,
    };
  }
  if (c.missing > 0) {
    return {
      use: true,
      note: `${c.missing === 1 ? "1 chunk has" : `${c.missing} chunks have`} no ${provider} vector yet (\`membank index\` embeds ${c.missing === 1 ? "it" : "them"}); vector arm over the ${c.vectors} that do`,
    };
  }
  return { use: true };
}

/**
 * Embed every log chunk that has no vector yet, in batches, each batch stored in its own
 * transaction. Working from "chunks without a vector" (not "chunks changed in this
 * sync") makes it self-healing: chunks added by a BM25-only sync, or left over by a
 * failed provider call, are embedded by the next sync that has an embedder. Texts are
 * batched by length, so a batch pads little and a long text does not slow short ones.
 */
export async function embedChunks(
  idx: IndexDb,
  embedder: Embedder,
  batchSize: number,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  // Remote providers may learn their dims from the first answer (dims 0 until then).
  let dims = embedder.dims;
  if (dims > 0) ensureVecTable(idx, dims);
  const missing = idx.db.prepare(`SELECT c.id, c.text ${MISSING} ORDER BY length(c.text), c.id`).all() as {
    id: number;
    text: string;
  }[];
  let done = 0;
  // Before the first batch: a caller can show the total (and later an estimate) at once.
  onProgress?.(0, missing.length);
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
