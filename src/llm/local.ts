import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { MembankError } from "../workspace/errors.js";
import type { Completer } from "./ask.js";
import type { ChatRequest } from "./prompts.js";

export interface LocalSettings {
  /** Absolute path of the GGUF chat model file. */
  modelPath: string;
  /** Config value as written, for error messages. */
  configuredPath: string;
  threads?: number;
  /** Context size in tokens; a log of a day plus the prompt fits in the default. */
  contextSize?: number;
}

type NodeLlama = typeof import("node-llama-cpp");
type Loaded = {
  llama: Awaited<ReturnType<NodeLlama["getLlama"]>>;
  model: import("node-llama-cpp").LlamaModel;
  context: import("node-llama-cpp").LlamaContext;
  lib: NodeLlama;
};

/** The first 8 bytes of a GGUF file: magic and version (llama.cpp reads v2 and v3). */
function ggufVersion(file: string): number | undefined {
  const head = Buffer.alloc(8);
  const fd = openSync(file, "r");
  try {
    if (readSync(fd, head, 0, 8, 0) < 8) return undefined;
  } finally {
    closeSync(fd);
  }
  return head.toString("latin1", 0, 4) === "GGUF" ? head.readUInt32LE(4) : undefined;
}

/**
 * Fails early, with the path, when the configured chat model file is missing or is not a
 * GGUF file (llama.cpp can spend minutes on a file that only looks like one).
 */
export function assertLocalModel(settings: LocalSettings): void {
  let ok = false;
  try {
    ok = existsSync(settings.modelPath) && statSync(settings.modelPath).isFile();
  } catch {
    ok = false;
  }
  const where = `(config llm.local.modelPath = ${JSON.stringify(settings.configuredPath)})`;
  if (!ok) {
    throw new MembankError(
      `The local LLM provider needs a GGUF chat model file, but ${settings.modelPath} does not exist ${where}. ` +
        `Download a small instruct model (e.g. with \`npx node-llama-cpp pull\`) to that path, or set llm.provider to "none".`,
      { code: "ELLMMODEL" },
    );
  }
  const version = ggufVersion(settings.modelPath);
  if (version !== 2 && version !== 3) {
    throw new MembankError(
      `${settings.modelPath} ${where} is not a GGUF v2/v3 model file` +
        (version === undefined ? " (no GGUF header)." : ` (GGUF version ${version}).`),
      { code: "ELLMMODEL" },
    );
  }
}

/**
 * A completer over a local node-llama-cpp chat model. Nothing is loaded until the first
 * request (loading takes seconds and much memory); output is constrained by a grammar
 * built from the request's JSON schema, and requests run one at a time on one sequence.
 */
export function createLocalCompleter(settings: LocalSettings): Completer {
  assertLocalModel(settings);
  let loading: Promise<Loaded> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const grammars = new Map<object, Promise<import("node-llama-cpp").LlamaJsonSchemaGrammar<never>>>();

  async function load(): Promise<Loaded> {
    try {
      const lib = await import("node-llama-cpp");
      // Prebuilt CPU binaries only: never compile llama.cpp or download anything at run time.
      const llama = await lib.getLlama({
        gpu: false,
        build: "never",
        skipDownload: true,
        logLevel: lib.LlamaLogLevel.error,
      });
      const model = await llama.loadModel({ modelPath: settings.modelPath });
      const context = await model.createContext({
        // Up to 8k tokens, less when the model was trained on less or memory is short.
        contextSize: { max: settings.contextSize ?? 8192 },
        ...(settings.threads === undefined ? {} : { threads: settings.threads }),
      });
      return { llama, model, context, lib };
    } catch (error) {
      // Any load failure is fatal for the run (isFatal below): no retrying per question.
      throw new MembankError(`Cannot load the local chat model ${settings.modelPath}: ${(error as Error).message}`, {
        code: "ELLMMODEL",
        cause: error,
      });
    }
  }

  async function run(request: ChatRequest): Promise<string> {
    loading ??= load();
    const { llama, context, lib } = await loading;
    let grammar = grammars.get(request.jsonSchema);
    if (!grammar) {
      // The schemas are plain JSON-schema subsets that node-llama-cpp's grammar builder supports.
      grammar = llama.createGrammarForJsonSchema(request.jsonSchema as never);
      grammars.set(request.jsonSchema, grammar);
    }
    const sequence = context.getSequence();
    const session = new lib.LlamaChatSession({ contextSequence: sequence, systemPrompt: request.system });
    try {
      return await session.prompt(request.user, {
        grammar: await grammar,
        temperature: 0,
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
      });
    } finally {
      session.dispose({ disposeSequence: true });
    }
  }

  const info = statSync(settings.modelPath);
  return {
    provider: "local",
    model: path.basename(settings.modelPath),
    // A replaced model file must not answer from the old one's cache.
    cacheId: `${settings.modelPath}:${info.size}:${Math.round(info.mtimeMs)}`,
    complete(request) {
      // One sequence at a time keeps memory flat; callers may still fire requests concurrently.
      const next = queue.then(() => run(request));
      queue = next.catch(() => undefined);
      return next;
    },
    isFatal(error) {
      return error instanceof MembankError;
    },
    async close() {
      if (!loading) return;
      const loaded = await loading.catch(() => undefined);
      loading = undefined;
      if (!loaded) return;
      await loaded.context.dispose();
      await loaded.model.dispose();
      await loaded.llama.dispose();
    },
  };
}
