import { readFile } from "node:fs/promises";
import { z } from "zod";
import { describeIssues, describeJsonError } from "./config-report.js";
import { MembankError } from "./errors.js";
import { CONFIG_FILE } from "./locate.js";
import { NIGHTLY_CRON } from "./schedule-default.js";

/** Name of the optional per-workspace config file (also how a workspace is found from cwd); its home is locate.ts. */
export { CONFIG_FILE };

const embeddingSchema = z
  .strictObject({
    /** `auto`: local if its model file exists, then a provider whose key is set, else none (`use` only when chosen). */
    provider: z.enum(["auto", "local", "openai", "gemini", "use", "none"]).default("auto"),
    /** What to do when the chosen provider fails at run time: fall back to BM25 only, or fail. */
    fallback: z.enum(["none", "error"]).default("none"),
    batchSize: z.number().int().min(1).max(2048).default(32),
    local: z
      .strictObject({
        modelPath: z.string().default(".memory/models/embedding.gguf"),
        threads: z.number().int().min(1).optional(),
      })
      .default({}),
    openai: z
      .strictObject({
        baseUrl: z.string().default("https://api.openai.com/v1"),
        model: z.string().default("text-embedding-3-small"),
        /** Name of the environment variable that holds the key (keys never live in the workspace). */
        apiKeyEnv: z.string().default("OPENAI_API_KEY"),
        headers: z.record(z.string()).default({}),
        dims: z.number().int().positive().optional(),
      })
      .default({}),
    gemini: z
      .strictObject({
        baseUrl: z.string().default("https://generativelanguage.googleapis.com/v1beta"),
        model: z.string().default("text-embedding-004"),
        apiKeyEnv: z.string().default("GEMINI_API_KEY"),
        /** outputDimensionality; unset: the model's own size. */
        dims: z.number().int().positive().optional(),
      })
      .default({}),
    /** Remote providers (openai, gemini): bounded exponential backoff on 408/429/5xx and network errors. */
    retry: z
      .strictObject({
        /** Retries after the first attempt (default 4). */
        retries: z.number().int().min(0).max(10).default(4),
        /** First delay, doubled per retry (default 500 ms). */
        baseDelayMs: z.number().int().min(0).default(500),
        /** Cap of one delay, also of a server's Retry-After (default 8000 ms). */
        maxDelayMs: z.number().int().min(0).default(8_000),
      })
      .default({}),
  })
  .default({});

export const configSchema = z
  .strictObject({
    retain: z
      .strictObject({
        /** Confidence of an `O` fact written without `(c=...)`. */
        defaultConfidence: z.number().min(0).max(1).default(0.7),
      })
      .default({}),
    index: z
      .strictObject({
        /** Index file, relative to the workspace (or absolute). Derived data: safe to delete. */
        path: z.string().default(".memory/index.sqlite"),
        chunkTokens: z.number().int().min(16).max(8192).default(400),
        chunkOverlap: z.number().int().min(0).max(4096).default(80),
      })
      .default({}),
    embedding: embeddingSchema,
    search: z
      .strictObject({
        maxResults: z.number().int().min(1).max(100).default(6),
        minScore: z.number().min(0).max(1).default(0.35),
        vectorWeight: z.number().min(0).default(0.7),
        textWeight: z.number().min(0).default(0.3),
        candidateMultiplier: z.number().int().min(1).max(50).default(4),
        snippetChars: z.number().int().min(80).max(10_000).default(700),
      })
      .default({}),
    recall: z
      .strictObject({
        k: z.number().int().min(1).max(100).default(8),
        budgetTokens: z.number().int().min(50).default(1500),
        /** Ranking rules: "chat" transcripts, "plain" logs, or "auto" (detected from the logs). */
        profile: z.enum(["auto", "chat", "plain"]).default("auto"),
        /** Overrides of recall's tuning (src/recall/plan.ts DEFAULT_TUNING documents each). */
        tuning: z
          .strictObject({
            /** Arm weights (plan.ts DEFAULT_WEIGHTS). */
            weights: z
              .strictObject({
                lexical: z.number().min(0).optional(),
                facts: z.number().min(0).optional(),
                entity: z.number().min(0).optional(),
                time: z.number().min(0).optional(),
                opinion: z.number().min(0).optional(),
                vector: z.number().min(0).optional(),
                semantic: z.number().min(0).optional(),
                multihop: z.number().min(0).optional(),
              })
              .optional(),
            outsideWindow: z.number().min(0).max(1).optional(),
            vagueTime: z.number().min(0).max(1).optional(),
            commonEntityFacts: z.number().int().min(1).optional(),
          })
          .default({}),
      })
      .default({}),
    llm: z
      .strictObject({
        provider: z.enum(["none", "anthropic", "local"]).default("none"),
        anthropic: z
          .strictObject({
            model: z.string().default("claude-sonnet-4-5"),
            /** Override for proxies and tests; the SDK default otherwise. */
            baseUrl: z.string().optional(),
            apiKeyEnv: z.string().default("ANTHROPIC_API_KEY"),
            maxTokens: z.number().int().positive().default(2048),
          })
          .default({}),
        local: z
          .strictObject({
            modelPath: z.string().default(".memory/models/chat.gguf"),
            threads: z.number().int().min(1).optional(),
          })
          .default({}),
      })
      .default({}),
    reflect: z
      .strictObject({
        /** Confidence update constants (DESIGN.md 1.3); see src/reflect/confidence.ts. */
        confidence: z
          .strictObject({
            /** Largest move one piece of evidence of strength 1 can make, as a fraction of the distance to 0 or 1. */
            step: z.number().min(0).max(1).default(0.15),
            /** Extra weight per additional distinct day that agrees, so repeated independent evidence moves further. */
            dayBonus: z.number().min(0).max(1).default(0.25),
            /** Bounds that confidence never leaves through automatic updates. */
            floor: z.number().min(0).max(1).default(0.02),
            ceiling: z.number().min(0).max(1).default(0.98),
            /** Cap of the day multiplier: repeated evidence moves at most this many times one step (default 2). */
            maxDayFactor: z.number().min(1).max(10).default(2),
          })
          .default({}),
        proposals: z
          .strictObject({
            minConfidence: z.number().min(0).max(1).default(0.85),
            minDays: z.number().int().min(1).default(3),
            entityMinDays: z.number().int().min(1).default(5),
          })
          .default({}),
        /** Fact-to-opinion matching (src/reflect/text.ts similarity: mean of token Jaccard and opinion-word coverage). */
        matching: z
          .strictObject({
            /** Below this similarity a fact is not even shown to the judge (default 0.3). */
            minSimilarity: z.number().min(0).max(1).default(0.3),
            /** An O fact this similar to an opinion restates it: evidence, not a new opinion (default 0.45). */
            restateSimilarity: z.number().min(0).max(1).default(0.45),
          })
          .default({}),
        git: z
          .strictObject({
            commit: z.boolean().default(true),
            authorName: z.string().default("membank"),
            authorEmail: z.string().default("membank@localhost"),
          })
          .default({}),
      })
      .default({}),
    sessions: z
      .strictObject({
        /** OpenClaw agents dir (`<dir>/<agentId>/sessions/*.jsonl`, or the state dir with its SQLite store). Unset: OpenClaw's own state dir when this is its workspace, else no ingestion. */
        dir: z.string().optional(),
        /** Session ids / agent ids (glob-free substrings) to skip, e.g. heartbeat and cron sessions. */
        exclude: z.array(z.string()).default(["heartbeat", "cron"]),
        /** IANA time zone that decides which day a message belongs to. Unset: schedule.tz, else the machine's local zone. */
        tz: z.string().optional(),
      })
      .default({}),
    schedule: z
      .strictObject({
        cron: z.string().default(NIGHTLY_CRON),
        tz: z.string().optional(),
      })
      .default({}),
  })
  .default({});

export type MembankConfig = z.infer<typeof configSchema>;

/** The configuration with every default filled in. */
export function defaultConfig(): MembankConfig {
  return configSchema.parse({});
}

/**
 * Parse a config object, turning zod issues into one readable message naming the file
 * and each key by its full dotted path. Every object is strict: a typo'd key
 * (`reflect.git.comit`) is an error, not a silently ignored setting.
 */
export function parseConfig(raw: unknown, file: string): MembankConfig {
  const result = configSchema.safeParse(raw ?? {});
  if (!result.success) {
    const problems = describeIssues(configSchema, result.error.issues)
      .map((line) => `  - ${line}`)
      .join("\n");
    throw new MembankError(`Invalid config in ${file}:\n${problems}`, { code: "ECONFIG" });
  }
  return result.data;
}

export async function loadConfigFile(file: string): Promise<MembankConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new MembankError(`Cannot read config ${file}: ${(error as Error).message}`, {
      code: "ECONFIG",
      cause: error,
    });
  }
  text = text.replace(/^\uFEFF/, "");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MembankError(`Config ${file} is not valid JSON: ${describeJsonError(text, error as Error)}`, {
      code: "ECONFIG",
      cause: error,
    });
  }
  return parseConfig(raw, file);
}
