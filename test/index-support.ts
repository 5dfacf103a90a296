import { createHash } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Embedder } from "../src/embed/types.js";
import { defaultConfig, type MembankConfig } from "../src/workspace/config.js";
import type { Workspace } from "../src/workspace/workspace.js";

/**
 * A small deterministic embedder for exercising the vector path: a hashed bag of words
 * (lower-cased word tokens, each hashed to one of `dims` buckets with a sign), L2
 * normalised. Texts sharing words are close; it is a real Embedder, not a model.
 */
export function hashEmbedder(dims = 64, id = "hash-test"): Embedder & { calls: number; texts: number } {
  const e = {
    id,
    model: `bow-${dims}`,
    dims,
    calls: 0,
    texts: 0,
    async embed(texts: string[]): Promise<Float32Array[]> {
      e.calls++;
      e.texts += texts.length;
      return texts.map((t) => bagOfWords(t, dims));
    },
  };
  return e;
}

export function bagOfWords(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash("sha1").update(word).digest();
    const bucket = h.readUInt32BE(0) % dims;
    v[bucket]! += h[4]! & 1 ? 1 : -1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dims; i++) v[i]! /= norm;
  return v;
}

/** A workspace in a fresh temp dir with the given files (relative path -> content). */
export async function makeWorkspace(
  files: Record<string, string>,
  config: (c: MembankConfig) => void = () => {},
): Promise<Workspace> {
  const root = await mkdtemp(path.join(tmpdir(), "membank-index-"));
  await mkdir(path.join(root, "memory"), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
  const cfg = defaultConfig();
  config(cfg);
  return { root, config: cfg };
}
