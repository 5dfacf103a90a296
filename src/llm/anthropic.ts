import Anthropic, {
  APIConnectionError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
} from "@anthropic-ai/sdk";
import { MembankError } from "../workspace/errors.js";
import type { Completer } from "./ask.js";
import type { ChatRequest } from "./prompts.js";

export interface AnthropicSettings {
  model: string;
  maxTokens: number;
  baseUrl?: string;
  /** Name of the environment variable holding the key (named in errors; the key itself never is). */
  apiKeyEnv: string;
  env?: NodeJS.ProcessEnv;
  /** SDK transport retries (429, 5xx, connection errors); the SDK's default is 2. */
  maxRetries?: number;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
}

/** Replace every occurrence of the secret in a text; short secrets are left alone to avoid mangling text. */
export function redactSecret(text: string, secret: string): string {
  if (secret.length < 8) return text;
  return text.split(secret).join("[redacted]");
}

/** A completer over the Messages API of the real @anthropic-ai/sdk client. */
export function createAnthropicCompleter(settings: AnthropicSettings): Completer {
  const env = settings.env ?? process.env;
  const key = env[settings.apiKeyEnv]?.trim();
  if (!key) {
    throw new MembankError(
      `The anthropic LLM provider needs an API key: set the environment variable ${settings.apiKeyEnv} ` +
        `(config llm.anthropic.apiKeyEnv), or set llm.provider to "none" or "local".`,
      { code: "ELLMKEY" },
    );
  }
  const client = new Anthropic({
    apiKey: key,
    // Never fall back to a token from the environment: the key named in config is the only credential.
    authToken: null,
    // Unset: the SDK default (which honours ANTHROPIC_BASE_URL, like every Anthropic client).
    ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.timeoutMs === undefined ? {} : { timeout: settings.timeoutMs }),
  });
  const redact = (text: string) => redactSecret(text, key);
  return {
    provider: "anthropic",
    model: settings.model,
    redact,
    async complete(request: ChatRequest): Promise<string> {
      const message = await client.messages.create({
        model: settings.model,
        max_tokens: Math.min(request.maxTokens ?? settings.maxTokens, settings.maxTokens),
        system: request.system,
        messages: [{ role: "user", content: request.user }],
      });
      return message.content
        .map((block) => (block.type === "text" ? block.text : ""))
        .join("")
        .trim();
    },
    isFatal(error: unknown): boolean {
      // A bad key, a forbidden or unknown model, or no network: no later call can succeed either.
      return (
        error instanceof AuthenticationError ||
        error instanceof PermissionDeniedError ||
        error instanceof NotFoundError ||
        error instanceof APIConnectionError
      );
    },
  };
}
