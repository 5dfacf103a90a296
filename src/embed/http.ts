import { setTimeout as sleep } from "node:timers/promises";
import { MembankError } from "../workspace/errors.js";
import type { Embedder } from "./types.js";
import { batches, l2normalize } from "./vector.js";

/** Bounded exponential backoff for remote providers. */
export interface RetryOptions {
  /** Retries after the first attempt (so attempts = retries + 1). */
  retries: number;
  /** Delay before the first retry; doubles each time. */
  baseDelayMs: number;
  /** Upper bound of one delay (also caps a server's Retry-After). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface PostJsonOptions {
  headers: Record<string, string>;
  retry: RetryOptions;
  /** Values that must never appear in an error message (API keys). */
  secrets: string[];
  /** Names the provider in error messages, e.g. "openai embeddings". */
  label: string;
  timeoutMs?: number;
}

/** Replace every secret (and its URL-encoded form) with a marker. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join("[redacted]");
  }
  return out;
}

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function delayFor(attempt: number, retry: RetryOptions, retryAfter: string | null): number {
  const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(retry.maxDelayMs, Math.max(backoff, seconds * 1000));
  return backoff;
}

/**
 * POST a JSON body and parse the JSON answer, retrying 408/429/5xx and network errors
 * with exponential backoff. Errors name the provider, the URL and the status, and never
 * contain a secret: messages are redacted and no raw cause (which could hold request
 * headers) is attached.
 */
export async function postJson(url: string, body: unknown, options: PostJsonOptions): Promise<unknown> {
  const { retry, secrets, label } = options;
  const safeUrl = redact(url, secrets);
  const payload = JSON.stringify(body);
  let lastProblem = "";
  for (let attempt = 0; attempt <= retry.retries; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...options.headers },
        body: payload,
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      const err = error as Error & { cause?: { code?: string; message?: string } };
      const detail = err.cause?.code ?? err.cause?.message ?? err.message;
      lastProblem = `network error (${redact(String(detail), secrets)})`;
      if (attempt < retry.retries) await sleep(delayFor(attempt, retry, null));
      continue;
    }
    const text = await response.text().catch(() => "");
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch {
        throw new MembankError(`${label}: ${safeUrl} answered HTTP ${response.status} with invalid JSON`, {
          code: "EEMBED",
        });
      }
    }
    lastProblem = `HTTP ${response.status}${text ? `: ${redact(text.slice(0, 300), secrets)}` : ""}`;
    if (!retryable(response.status)) break;
    if (attempt < retry.retries) await sleep(delayFor(attempt, retry, response.headers.get("retry-after")));
  }
  throw new MembankError(`${label}: request to ${safeUrl} failed: ${lastProblem}`, { code: "EEMBED" });
}

/** What differs between remote providers; createRemoteEmbedder does the rest. */
export interface RemoteEmbedderSpec {
  id: string;
  model: string;
  /** Names the provider in error messages, e.g. "openai embeddings (model)". */
  label: string;
  /** Size known before the first answer; 0 = learn it from the first vector. */
  dims: number;
  batchSize: number;
  /** Field of an answer item that holds its vector ("embedding", "values"). */
  vectorField: string;
  /** Send one batch; resolve to the answer's items in input order (anything else is an error). */
  send(batch: string[]): Promise<unknown>;
}

/**
 * An Embedder that sends texts in batches and checks every answer: one item per text,
 * each with a non-empty vector of the same size as all others (the first answer fixes
 * the size when the model's is unknown). Vectors are L2-normalised.
 */
export function createRemoteEmbedder(spec: RemoteEmbedderSpec): Embedder {
  const { label, vectorField } = spec;
  let dims = spec.dims;
  return {
    id: spec.id,
    model: spec.model,
    get dims() {
      return dims;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (const batch of batches(texts, spec.batchSize)) {
        const items = await spec.send(batch);
        if (!Array.isArray(items) || items.length !== batch.length) {
          throw new MembankError(
            `${label}: expected ${batch.length} embeddings, got ${Array.isArray(items) ? items.length : "none"}`,
            { code: "EEMBED" },
          );
        }
        const vectors = items.map((item) => {
          const values = (item as Record<string, unknown> | null)?.[vectorField];
          if (!Array.isArray(values) || values.length === 0) {
            throw new MembankError(`${label}: an answer item has no ${vectorField} array`, { code: "EEMBED" });
          }
          return values as number[];
        });
        for (const values of vectors) {
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
