import path from "node:path";
import type { Llama, LlamaEmbeddingContext, LlamaModel } from "node-llama-cpp";
import { MembankError } from "../workspace/errors.js";
import { readGgufHeader } from "./gguf-header.js";
import type { Embedder } from "./types.js";
import { l2normalize } from "./vector.js";

export interface LocalEmbedderOptions {
  /** Absolute path of the GGUF embedding model. */
  modelPath: string;
  /** CPU threads for the embedding context (1 in tests); node-llama-cpp's default otherwise. */
  threads?: number;
  /** Largest context to allocate; inputs longer than the context are truncated. */
  maxContextSize?: number;
}

/**
 * One CPU-only Llama per process (loading the native binding is the expensive part).
 * `build: "never"` and `skipDownload`: only the prebuilt binaries shipped with the package
 * are used, so nothing is compiled or downloaded behind the user's back.
 */
let llamaPromise: Promise<Llama> | undefined;

async function sharedLlama(): Promise<Llama> {
  llamaPromise ??= (async () => {
    const { getLlama, LlamaLogLevel } = await import("node-llama-cpp");
    return getLlama({ gpu: false, build: "never", skipDownload: true, logLevel: LlamaLogLevel.error });
  })();
  llamaPromise.catch(() => {
    llamaPromise = undefined;
  });
  return llamaPromise;
}

interface Loaded {
  model: LlamaModel;
  context: LlamaEmbeddingContext;
  contextSize: number;
}

/** node-llama-cpp with a GGUF embedding model: loaded on the first embed(), reused until close(). */
export function createLocalEmbedder(options: LocalEmbedderOptions): Embedder {
  const file = options.modelPath;
  let dims = 0;
  try {
    dims = readGgufHeader(file).embeddingLength ?? 0;
  } catch {
    // Not readable here: loading reports the real problem on first use.
  }
  let loading: Promise<Loaded> | undefined;

  const load = (): Promise<Loaded> => {
    loading ??= (async () => {
      try {
        // Check the header first: llama.cpp can hang on a corrupt file that starts with "GGUF".
        const header = readGgufHeader(file);
        if (!header.embeddingLength) {
          throw new Error(`no ${header.architecture ?? "<arch>"}.embedding_length in the GGUF header`);
        }
        const llama = await sharedLlama();
        const model = await llama.loadModel({ modelPath: file });
        const contextSize = Math.min(model.trainContextSize, options.maxContextSize ?? 2048);
        const context = await model.createEmbeddingContext({
          contextSize,
          ...(options.threads === undefined ? {} : { threads: options.threads }),
        });
        return { model, context, contextSize };
      } catch (error) {
        loading = undefined;
        throw new MembankError(`Cannot load the local embedding model ${file}: ${(error as Error).message}`, {
          code: "EEMBED",
          cause: error,
        });
      }
    })();
    return loading;
  };

  const embedOne = async ({ model, context, contextSize }: Loaded, text: string): Promise<Float32Array> => {
    // Leave room for the special tokens ([CLS]/[SEP]) the context adds around the input.
    const tokens = model.tokenize(text);
    const input = tokens.length >= contextSize - 4 ? tokens.slice(0, contextSize - 4) : text;
    const { vector } = await context.getEmbeddingFor(input);
    // An input with no tokens yields no vector: use zeros (similar to nothing).
    const values = vector.length === 0 ? new Float32Array(dims || model.embeddingVectorSize) : vector;
    return l2normalize(values);
  };

  return {
    id: "local",
    model: path.basename(file),
    get dims() {
      return dims;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const loaded = await load();
      const out: Float32Array[] = [];
      // The embedding context evaluates one sequence at a time.
      for (const text of texts) {
        const v = await embedOne(loaded, text);
        if (dims === 0) dims = v.length;
        if (v.length !== dims) {
          throw new MembankError(`local embeddings (${file}): got ${v.length} dims, header says ${dims}`, {
            code: "EEMBED",
          });
        }
        out.push(v);
      }
      return out;
    },
    async close(): Promise<void> {
      const current = loading;
      loading = undefined;
      if (!current) return;
      const loaded = await current.catch(() => undefined);
      if (!loaded) return;
      await loaded.context.dispose();
      await loaded.model.dispose();
    },
  };
}
