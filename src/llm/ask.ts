import type { z } from "zod";
import type { AnswerCache } from "../index/answer-cache.js";
import { cacheKey } from "./cache.js";
import { type ChatRequest, retryNote } from "./prompts.js";
import { validateAnswer } from "./schemas.js";

/** One provider's way to answer a request with text (transport retries are its own business). */
export interface Completer {
  readonly provider: "anthropic" | "local";
  readonly model: string;
  /** Identity of the model for the answer cache, when the name alone is ambiguous (a local file). */
  readonly cacheId?: string;
  complete(request: ChatRequest): Promise<string>;
  close?(): Promise<void>;
  /** Removes secrets (the API key) from any text before it is shown or stored. */
  redact?(text: string): string;
  /**
   * True for failures that make every further call pointless (bad key, model cannot load):
   * the services then stop calling and report one warning instead of thousands.
   */
  isFatal?(error: unknown): boolean;
}

export interface AskState {
  warnings: string[];
  /** Set after a fatal error: no more calls are made. */
  disabled?: string;
  /** Validated answers of earlier runs, reused instead of asking again. */
  cache?: AnswerCache;
}

/**
 * Ask for a JSON answer of the given shape. An invalid answer is retried once (telling the
 * model what was wrong); a second invalid answer, or a transport failure, is skipped:
 * null, with a warning. Never throws for model or network trouble. With a cache, a
 * question answered validly before is answered from it without a call.
 */
export async function askValidated<T>(
  completer: Completer,
  request: ChatRequest,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  state: AskState,
  label: string,
): Promise<T | null> {
  const clean = (text: string) => (completer.redact ? completer.redact(text) : text);
  const key = state.cache ? cacheKey(completer.provider, completer.cacheId ?? completer.model, request) : "";
  if (state.cache) {
    const hit = schema.safeParse(state.cache.get(key));
    if (hit.success) return hit.data;
  }
  if (state.disabled) return null;
  let reason = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    const current = attempt === 1 ? request : { ...request, user: request.user + retryNote(reason) };
    let text: string;
    try {
      text = await completer.complete(current);
    } catch (error) {
      const message = clean(error instanceof Error ? error.message : String(error));
      if (completer.isFatal?.(error)) {
        state.disabled = message;
        state.warnings.push(`${label}: ${completer.provider} LLM failed, no further LLM calls this run: ${message}`);
      } else {
        state.warnings.push(`${label}: ${completer.provider} LLM call failed, skipped: ${message}`);
      }
      return null;
    }
    const result = validateAnswer(schema, text);
    if (result.ok) {
      state.cache?.set(key, request.task, result.value);
      return result.value;
    }
    reason = clean(result.reason);
  }
  state.warnings.push(`${label}: invalid LLM answer twice (${reason}), skipped`);
  return null;
}
