import { createHash } from "node:crypto";

/** Scale a vector to unit length (cosine = dot product). A zero vector stays zero. */
export function l2normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values as ArrayLike<number>);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) {
    for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  }
  return out;
}

/** Dot product of two equal-length vectors (cosine similarity for unit vectors). */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`vector length mismatch: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Little-endian float32 bytes, the layout sqlite-vec reads. */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function blobToVector(blob: Uint8Array): Float32Array {
  // Copy: the blob's offset may not be 4-byte aligned, and better-sqlite3 may reuse it.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** Content hash of a text to embed: the cache key (with provider, model and dims). */
export function textHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Split `items` into consecutive groups of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}
