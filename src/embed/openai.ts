import { createRemoteEmbedder, DEFAULT_RETRY, postJson, type RetryOptions } from "./http.js";
import type { Embedder } from "./types.js";

export interface OpenAiEmbedderOptions {
  /** Base URL including the version path, e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; omitted when empty (some local servers need no key). */
  apiKey?: string;
  headers?: Record<string, string>;
  /** Requested output size (`dimensions`); otherwise the model's own size. */
  dims?: number;
  batchSize?: number;
  retry?: Partial<RetryOptions>;
  timeoutMs?: number;
}

/** Native sizes of well-known models, so `dims` is right before the first call. */
const KNOWN_DIMS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

interface OpenAiItem {
  index?: number;
}

/** Any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure-style proxies, llama.cpp server, Ollama, vLLM...). */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const key = options.apiKey ?? "";
  const headers: Record<string, string> = { ...options.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  const label = `openai embeddings (${options.model})`;
  return createRemoteEmbedder({
    id: "openai",
    model: options.model,
    label,
    dims: options.dims ?? KNOWN_DIMS[options.model] ?? 0,
    batchSize: options.batchSize ?? 32,
    vectorField: "embedding",
    async send(batch) {
      const body: Record<string, unknown> = {
        model: options.model,
        // The API refuses empty strings; a space embeds as "nothing".
        input: batch.map((t) => (t.length === 0 ? " " : t)),
        encoding_format: "float",
      };
      if (options.dims !== undefined) body.dimensions = options.dims;
      const json = await postJson(url, body, { headers, retry, secrets: [key], label, timeoutMs: options.timeoutMs });
      const data = (json as { data?: unknown } | null)?.data;
      // Items may come in any order; `index` says which input each one embeds.
      if (Array.isArray(data) && data.every((d: OpenAiItem | null) => typeof d?.index === "number")) {
        return [...(data as OpenAiItem[])].sort((a, b) => (a.index as number) - (b.index as number));
      }
      return data;
    },
  });
}
