/**
 * openMembank: the library's one entry point. It holds what the operations share across
 * calls -- the workspace, the embedder, the LLM services and the process-wide index handles --
 * so a caller opens once, calls recall/search/get/reflect/index as often as it likes, and
 * closes once.
 */
import { resolveEmbedder } from "./embed/resolve.js";
import type { EmbedderChoice } from "./embed/types.js";
import { type GetOptions, type GetResult, getMemoryLines } from "./index/get.js";
import { closeIndexes } from "./index/handles.js";
import { type SearchOptions, type SearchResponse, search } from "./index/search.js";
import { type SyncOptions, type SyncReport, syncIndex } from "./index/sync.js";
import { createLlm } from "./llm/create.js";
import type { LlmServices } from "./llm/types.js";
import { type RecallOptions, recall } from "./recall/recall.js";
import type { RecallResponse } from "./recall/types.js";
import { type ReflectOptions, type ReflectReport, reflect } from "./reflect/index.js";
import { MembankError } from "./workspace/errors.js";
import { openWorkspace, type ResolveOptions, resolveWorkspace, type Workspace } from "./workspace/workspace.js";

export interface OpenMembankOptions {
  /** Embedding provider for recall, search and index (default: config `embedding.provider`). */
  provider?: string;
  /** An embedder you made yourself (wins over `provider`); membank does not close it. */
  embedder?: EmbedderChoice;
  /** LLM services for reflect (default: config `llm`); membank does not close them. */
  llm?: LlmServices;
}

export interface Membank {
  readonly workspace: Workspace;
  /** Answer a question with cited facts, opinions and log lines (DESIGN.md 3). */
  recall(query: string, opts?: Omit<RecallOptions, "embedder">): Promise<RecallResponse>;
  /** OpenClaw's memory_search: snippets with path, lines and score. */
  search(query: string, opts?: Omit<SearchOptions, "embedder">): Promise<SearchResponse>;
  /** OpenClaw's memory_get: lines of a memory file (paths outside the memory files are refused). */
  get(path: string, opts?: GetOptions): Promise<GetResult>;
  /** Turn new facts into bank pages and commit them. */
  reflect(opts?: Omit<ReflectOptions, "llm">): Promise<ReflectReport>;
  /** Bring the search index in line with the files. */
  index(opts?: Omit<SyncOptions, "embedder">): Promise<SyncReport>;
  /** Release the index handles, the embedder and the LLM membank opened. Calls after close throw. */
  close(): Promise<void>;
}

/** Instances not yet closed: the index handles are process-wide, so the last close releases them. */
let openCount = 0;

/**
 * Open a workspace: a folder path, a resolved Workspace, or ResolveOptions
 * (`{ workspace }`, `MEMBANK_WORKSPACE`, the current folder).
 */
export async function openMembank(
  ws: string | Workspace | ResolveOptions,
  options: OpenMembankOptions = {},
): Promise<Membank> {
  const workspace =
    typeof ws === "string" ? await openWorkspace(ws) : "config" in ws && "root" in ws ? ws : await resolveWorkspace(ws);
  let embedder: Promise<EmbedderChoice> | undefined;
  let llm: Promise<LlmServices> | undefined;
  let closed = false;
  openCount++;
  const live = () => {
    if (closed) throw new MembankError(`membank for ${workspace.root} is closed; call openMembank again`);
  };
  const embedderOf = () => {
    if (options.embedder) return Promise.resolve(options.embedder);
    embedder ??= resolveEmbedder(workspace, options.provider === undefined ? {} : { provider: options.provider });
    return embedder;
  };
  const llmOf = () => {
    if (options.llm) return Promise.resolve(options.llm);
    llm ??= createLlm(workspace);
    return llm;
  };
  return {
    workspace,
    async recall(query, opts = {}) {
      live();
      return recall(workspace, query, { ...opts, embedder: await embedderOf() });
    },
    async search(query, opts = {}) {
      live();
      return search(workspace, query, { ...opts, embedder: await embedderOf() });
    },
    async get(p, opts = {}) {
      live();
      return getMemoryLines(workspace, p, opts);
    },
    async reflect(opts = {}) {
      live();
      const services = await llmOf();
      return reflect(workspace, { ...opts, ...(services.provider === "none" ? {} : { llm: services }) });
    },
    async index(opts = {}) {
      live();
      return syncIndex(workspace, { ...opts, embedder: await embedderOf() });
    },
    async close() {
      if (closed) return;
      closed = true;
      openCount--;
      if (openCount === 0) closeIndexes();
      if (embedder) await (await embedder).embedder?.close?.();
      if (llm) await (await llm).close?.();
    },
  };
}
