import path from "node:path";
import type { AnswerCache } from "../index/answer-cache.js";
import { stateDir, type Workspace, workspacePath } from "../workspace/workspace.js";
import type { LlmServices } from "./types.js";

export interface CreateLlmOptions {
  /** Override config.llm.provider (e.g. a `--llm none` flag). */
  provider?: "anthropic" | "local" | "none";
  /** Where API keys are read from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Anthropic SDK transport retries (429/5xx/connection); SDK default 2. */
  maxRetries?: number;
  /** Anthropic per-request timeout in ms. */
  timeoutMs?: number;
  /** node-llama-cpp context threads (tests use 1); config llm.local.threads otherwise. */
  threads?: number;
  /**
   * Reuse validated answers from `.memory/llm-cache.sqlite` (default true): the same
   * question to the same model is not asked twice, so repeated runs give the same bytes.
   */
  cache?: boolean;
}

/**
 * The LLM services the workspace is configured for. `none` offers nothing (reflect then
 * uses explicit Retain facts and its heuristic judge). Configuration problems (no key, no
 * model file) throw a MembankError naming the env var or path; nothing is loaded or
 * contacted until the first request.
 */
export async function createLlm(ws: Workspace, opts: CreateLlmOptions = {}): Promise<LlmServices> {
  const llm = ws.config.llm;
  const provider = opts.provider ?? llm.provider;
  if (provider === "none") return { provider: "none", warnings: [] };
  // A run without a model (the default) loads none of the services, prompts, schemas or the answer cache.
  const [{ createServices }, { openAnswerCache }] = await Promise.all([
    import("./services.js"),
    import("../index/answer-cache.js"),
  ]);
  const cache = (): AnswerCache | undefined =>
    opts.cache === false ? undefined : openAnswerCache(path.join(stateDir(ws), "llm-cache.sqlite"));
  if (provider === "anthropic") {
    // The SDK is ~300 modules: loaded only when the anthropic provider is configured.
    const { createAnthropicCompleter } = await import("./anthropic.js");
    return createServices(
      createAnthropicCompleter({
        model: llm.anthropic.model,
        maxTokens: llm.anthropic.maxTokens,
        apiKeyEnv: llm.anthropic.apiKeyEnv,
        ...(llm.anthropic.baseUrl ? { baseUrl: llm.anthropic.baseUrl } : {}),
        ...(opts.env ? { env: opts.env } : {}),
        ...(opts.maxRetries === undefined ? {} : { maxRetries: opts.maxRetries }),
        ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      }),
      cache(),
    );
  }
  const threads = opts.threads ?? llm.local.threads;
  const { createLocalCompleter } = await import("./local.js");
  return createServices(
    createLocalCompleter({
      modelPath: workspacePath(ws, llm.local.modelPath),
      configuredPath: llm.local.modelPath,
      ...(threads === undefined ? {} : { threads }),
    }),
    cache(),
  );
}
