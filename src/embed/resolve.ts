import { existsSync } from "node:fs";
import { defaultConfig } from "../workspace/config.js";
import { MembankError } from "../workspace/errors.js";
import { type Workspace, workspacePath } from "../workspace/workspace.js";
import type { RetryOptions } from "./http.js";
import type { EmbedderChoice } from "./types.js";

export const EMBEDDING_PROVIDERS = ["auto", "local", "openai", "gemini", "use", "none"] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];

const DEFAULT_OPENAI_BASE = "https://api.openai.com/v1";

export interface ResolveEmbedderOptions {
  /** Overrides `embedding.provider` from config (e.g. a CLI flag). */
  provider?: string;
  /** Where API keys are read from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Overrides `embedding.retry` (tests use tiny delays). */
  retry?: Partial<RetryOptions>;
  /** Overrides the check that the `use` packages resolve (for environments without them). */
  useAvailable?: boolean;
  /** CPU threads for the local model; overrides `embedding.local.threads`. */
  threads?: number;
}

/** Why one provider cannot be used here, or undefined when it can. Cheap: no loading, no network. */
type Probe = { ok: true; choice: EmbedderChoice } | { ok: false; reason: string };

function keyFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value && value.trim().length > 0 ? value.trim() : undefined;
}

// Each provider's module is imported when it is probed: a BM25-only run loads none of them.
async function probe(
  ws: Workspace,
  provider: Exclude<EmbeddingProvider, "auto">,
  opts: ResolveEmbedderOptions,
  auto: boolean,
): Promise<Probe> {
  const cfg = ws.config.embedding;
  const env = opts.env ?? process.env;
  const retry = { ...cfg.retry, ...opts.retry };
  switch (provider) {
    case "local": {
      const file = workspacePath(ws, cfg.local.modelPath);
      if (!existsSync(file)) return { ok: false, reason: `local model file ${cfg.local.modelPath} not found` };
      const threads = opts.threads ?? cfg.local.threads;
      const { createLocalEmbedder } = await import("./local.js");
      const embedder = createLocalEmbedder({ modelPath: file, ...(threads === undefined ? {} : { threads }) });
      return { ok: true, choice: { embedder, provider: "local", model: embedder.model } };
    }
    case "openai": {
      const apiKey = keyFrom(env, cfg.openai.apiKeyEnv);
      // Chosen explicitly, a custom endpoint (llama.cpp server, Ollama...) may need no key;
      // api.openai.com always does, and `auto` only takes a remote provider whose key is set.
      const isOpenAi = cfg.openai.baseUrl.replace(/\/+$/, "") === DEFAULT_OPENAI_BASE;
      if (!apiKey && (isOpenAi || auto)) return { ok: false, reason: `${cfg.openai.apiKeyEnv} not set` };
      const { createOpenAiEmbedder } = await import("./openai.js");
      const embedder = createOpenAiEmbedder({
        baseUrl: cfg.openai.baseUrl,
        model: cfg.openai.model,
        ...(apiKey ? { apiKey } : {}),
        headers: cfg.openai.headers,
        ...(cfg.openai.dims === undefined ? {} : { dims: cfg.openai.dims }),
        batchSize: cfg.batchSize,
        retry,
      });
      return { ok: true, choice: { embedder, provider: "openai", model: cfg.openai.model } };
    }
    case "gemini": {
      const apiKey = keyFrom(env, cfg.gemini.apiKeyEnv);
      if (!apiKey) return { ok: false, reason: `${cfg.gemini.apiKeyEnv} not set` };
      const { createGeminiEmbedder } = await import("./gemini.js");
      const embedder = createGeminiEmbedder({
        baseUrl: cfg.gemini.baseUrl,
        model: cfg.gemini.model,
        apiKey,
        ...(cfg.gemini.dims === undefined ? {} : { dims: cfg.gemini.dims }),
        batchSize: cfg.batchSize,
        retry,
      });
      return { ok: true, choice: { embedder, provider: "gemini", model: embedder.model } };
    }
    case "use": {
      const { createUseEmbedder, useAvailable } = await import("./use.js");
      if (!(opts.useAvailable ?? useAvailable())) {
        return { ok: false, reason: "the @energetic-ai/embeddings packages are not installed" };
      }
      const embedder = createUseEmbedder({ batchSize: cfg.batchSize });
      return { ok: true, choice: { embedder, provider: "use", model: embedder.model } };
    }
    case "none":
      return { ok: true, choice: { embedder: null, provider: "none" } };
  }
}

function parseProvider(value: string): EmbeddingProvider {
  if ((EMBEDDING_PROVIDERS as readonly string[]).includes(value)) return value as EmbeddingProvider;
  throw new MembankError(
    `Unknown embedding provider ${JSON.stringify(value)}: use one of ${EMBEDDING_PROVIDERS.join(", ")}`,
    {
      code: "ECONFIG",
      exitCode: 2,
    },
  );
}

/**
 * Pick the embedding provider: the configured one (or `opts.provider`), or for `auto`
 * local if its model file exists, then openai / gemini if their key is set, else none
 * (BM25 + structure: the zero-setup path is the fast path). `use` is never picked by
 * `auto`: it costs ~50x the BM25 index time for no measured gain on LoCoMo
 * (bench/README.md), so it is an explicit choice. Cheap: nothing is loaded or fetched
 * until `embed()` is called. `fallback` says why a preferred provider was not taken.
 */
export async function resolveEmbedder(ws: Workspace, opts: ResolveEmbedderOptions = {}): Promise<EmbedderChoice> {
  const wanted = parseProvider(opts.provider ?? ws.config.embedding.provider);
  if (wanted !== "auto") {
    const result = await probe(ws, wanted, opts, false);
    if (result.ok) return result.choice;
    if (ws.config.embedding.fallback === "error") {
      throw new MembankError(`Embedding provider ${wanted} is not usable: ${result.reason}`, { code: "EEMBED" });
    }
    return { embedder: null, provider: "none", fallback: `${wanted}: ${result.reason}; BM25 only` };
  }
  // No model at the default path and no key are the zero-setup case, not worth a note on
  // every call; a model path the user configured that is missing is.
  const localChosen = ws.config.embedding.local.modelPath !== defaultConfig().embedding.local.modelPath;
  const notes: string[] = [];
  for (const candidate of ["local", "openai", "gemini"] as const) {
    const result = await probe(ws, candidate, opts, true);
    if (result.ok) {
      return notes.length > 0
        ? { ...result.choice, fallback: `${notes.join("; ")}; using ${candidate}` }
        : result.choice;
    }
    if (candidate === "local" && localChosen) notes.push(result.reason);
  }
  return notes.length > 0
    ? { embedder: null, provider: "none", fallback: `${notes.join("; ")}; BM25 only` }
    : { embedder: null, provider: "none" };
}
