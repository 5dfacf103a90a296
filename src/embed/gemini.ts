import { createRemoteEmbedder, DEFAULT_RETRY, postJson, type RetryOptions } from "./http.js";
import type { Embedder } from "./types.js";

export interface GeminiEmbedderOptions {
  /** e.g. https://generativelanguage.googleapis.com/v1beta */
  baseUrl: string;
  /** e.g. text-embedding-004 (with or without the "models/" prefix). */
  model: string;
  /** Sent in the x-goog-api-key header, never in the URL (URLs end up in logs). */
  apiKey: string;
  /** outputDimensionality; otherwise the model's own size. */
  dims?: number;
  batchSize?: number;
  retry?: Partial<RetryOptions>;
  timeoutMs?: number;
}

/** batchEmbedContents accepts at most 100 requests per call. */
const MAX_BATCH = 100;

const KNOWN_DIMS: Record<string, number> = {
  "text-embedding-004": 768,
  "embedding-001": 768,
  "gemini-embedding-001": 3072,
};

/** Google Gemini `models/{model}:batchEmbedContents`. */
export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  const model = options.model.replace(/^models\//, "");
  const url = `${options.baseUrl.replace(/\/+$/, "")}/models/${encodeURIComponent(model)}:batchEmbedContents`;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const label = `gemini embeddings (${model})`;
  return createRemoteEmbedder({
    id: "gemini",
    model,
    label,
    dims: options.dims ?? KNOWN_DIMS[model] ?? 0,
    batchSize: Math.min(options.batchSize ?? 32, MAX_BATCH),
    vectorField: "values",
    async send(batch) {
      const requests = batch.map((text) => {
        const request: Record<string, unknown> = { model: `models/${model}`, content: { parts: [{ text }] } };
        if (options.dims !== undefined) request.outputDimensionality = options.dims;
        return request;
      });
      const json = await postJson(
        url,
        { requests },
        {
          headers: { "x-goog-api-key": options.apiKey },
          retry,
          secrets: [options.apiKey],
          label,
          timeoutMs: options.timeoutMs,
        },
      );
      return (json as { embeddings?: unknown } | null)?.embeddings;
    },
  });
}
