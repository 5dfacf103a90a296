import { MembankError } from "../workspace/errors.js";
import { DEFAULT_RETRY, postJson, type RetryOptions } from "./http.js";
import type { Embedder } from "./types.js";
import { batches, l2normalize } from "./vector.js";

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

interface OpenAiResponse {
  data: Array<{ index?: number; embedding: number[] }>;
}

function parseResponse(json: unknown, expected: number, label: string): number[][] {
  const data = (json as OpenAiResponse | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new MembankError(
      `${label}: expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : "none"}`,
      {
        code: "EEMBED",
      },
    );
  }
  const ordered = data.every((d) => typeof d.index === "number")
    ? [...data].sort((a, b) => (a.index as number) - (b.index as number))
    : data;
  return ordered.map((d) => {
    if (!Array.isArray(d.embedding) || d.embedding.length === 0) {
      throw new MembankError(`${label}: an answer item has no embedding array`, { code: "EEMBED" });
    }
    return d.embedding;
  });
}

/** Any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure-style proxies, llama.cpp server, Ollama, vLLM...). */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const key = options.apiKey ?? "";
  const headers: Record<string, string> = { ...options.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  const label = `openai embeddings (${options.model})`;
  let dims = options.dims ?? KNOWN_DIMS[options.model] ?? 0;

  return {
    id: "openai",
    model: options.model,
    get dims() {
      return dims;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (const batch of batches(texts, options.batchSize ?? 32)) {
        const body: Record<string, unknown> = {
          model: options.model,
          // The API refuses empty strings; a space embeds as "nothing".
          input: batch.map((t) => (t.length === 0 ? " " : t)),
          encoding_format: "float",
        };
        if (options.dims !== undefined) body.dimensions = options.dims;
        const json = await postJson(url, body, { headers, retry, secrets: [key], label, timeoutMs: options.timeoutMs });
        for (const values of parseResponse(json, batch.length, label)) {
          if (dims === 0) dims = values.length;
          if (values.length !== dims) {
            throw new MembankError(`${label}: got a ${values.length}-dimension vector, expected ${dims}`, {
              code: "EEMBED",
            });
          }
          out.push(l2normalize(values));
        }
      }
      return out;
    },
  };
}
