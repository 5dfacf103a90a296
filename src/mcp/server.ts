import { readFileSync } from "node:fs";
import path from "node:path";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { resolveEmbedder } from "../embed/resolve.js";
import type { EmbedderChoice } from "../embed/types.js";
import { type QueryPlan, VectorFiller, type VectorFillerOptions } from "../index/background.js";
import { indexFile } from "../index/db.js";
import { syncForQuery } from "../index/freshness.js";
import { getMemoryLines } from "../index/get.js";
import { acquireIndex, closeIndexes } from "../index/handles.js";
import { nativeError } from "../index/native.js";
import { factsByEntity, listEntities } from "../index/queries.js";
import { search } from "../index/search.js";
import type { SyncPhase } from "../index/sync.js";
import { pageContent } from "../markdown/page-content.js";
import { recall } from "../recall/recall.js";
import { findEntityByName } from "../recall/text.js";
import type { ResultKind } from "../recall/types.js";
import { entityRelatedOf, entityTimeline } from "../reflect/entity-page.js";
import { entityOpinions } from "../reflect/pages.js";
import { loadTemplate } from "../reflect/templates.js";
import { entityKey } from "../retain/entities.js";
import { describeIoError, MembankError } from "../workspace/errors.js";
import { MEMORY_FILES_TEXT } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";

/** Thin MCP layer over the library: every tool answers JSON text; errors become tool errors, never crashes. */

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

function ok(value: unknown): ToolResult {
  // Compact: an agent pays for every space of a pretty-printed answer.
  return { content: [{ type: "text", text: JSON.stringify(value) }] };
}

function fail(error: unknown): ToolResult {
  // One line, never a stack: a Node ABI mismatch, a disk or lock failure says what to do, like the CLI.
  const known = nativeError(error) ?? error;
  const message =
    known instanceof MembankError
      ? known.message
      : (describeIoError(error) ?? `unexpected error: ${(error as Error)?.message ?? String(error)}`);
  return { content: [{ type: "text", text: message.split("\n")[0]! }], isError: true };
}

async function guarded(run: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return ok(await run());
  } catch (error) {
    return fail(error);
  }
}

/**
 * A calendar date. A new schema each time: zod-to-json-schema (the MCP SDK's converter for
 * zod 3) turns a schema object used twice into a `$ref`, which some clients cannot follow.
 */
const date = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
    .date("a date YYYY-MM-DD")
    .describe(`${what}, a date YYYY-MM-DD`);
const KIND = z.enum(["world", "experience", "opinion", "observation", "note"]);

/** Every tool only reads the memory (it may refresh membank's own derived index) and never leaves the machine. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * The server's instructions, shown to the model even when a client hides tool
 * descriptions behind a tool search (OpenClaw 2026.9 does by default): what each tool is
 * for and when to call it.
 */
export const INSTRUCTIONS =
  "membank is this agent's long-term memory: daily logs (memory/YYYY-MM-DD.md), core files (MEMORY.md, USER.md) " +
  "and curated bank pages (bank/entities/<Name>.md, bank/opinions.md), all cited by path and line. " +
  "Call memory_recall FIRST whenever a question touches the past, a person, project or place, a decision, a date " +
  "or a preference ('what does Mara prefer', 'what happened around March 12', 'since last week', an id like FJD-482); " +
  "pass since/until/asOf as dates YYYY-MM-DD. Call memory_entity for the full picture of one person, project or place " +
  "(its bank page and all its facts). Call memory_search for plain keyword or error-string lookups over the memory " +
  "files, and memory_get to read the lines around any cited path#Lstart-Lend. All tools are read-only and local. " +
  "Results are JSON; when 'fallback' says vectors are still being built, the answer came from keyword search and " +
  "structure only: good for names, ids and dates.";

export interface McpOptions {
  /** Embedding provider override (default: the workspace config). */
  provider?: string;
}

/** What reflect writes into an entity page's regions when it has nothing to say (from its own renderers). */
const NO_CONTEXT = { today: "", core: [], mentions: [], maybeSame: [], known: new Map<string, string>() };
const EMPTY_REGIONS = [entityTimeline("", "", [], NO_CONTEXT), entityOpinions([]), entityRelatedOf("", [], new Map())];

/** An entity's page text and its facts, newest first (memory_entity). */
export async function entityReport(ws: Workspace, name: string, limit = 50, opts: { sync?: boolean } = {}) {
  if (opts.sync !== false) await syncForQuery(ws);
  const idx = acquireIndex(indexFile(ws));
  const rows = listEntities(idx);
  const row = findEntityByName(rows, name);
  if (!row) {
    const known = rows.map((e) => e.slug).join(", ");
    throw new MembankError(`no entity named ${JSON.stringify(name)}; known entities: ${known || "(none)"}`, {
      code: "ENOENTITY",
    });
  }
  let page: { path: string; text: string } | undefined;
  if (row.page) {
    try {
      const raw = readFileSync(path.join(ws.root, row.page), "utf8");
      // Without the template's help text, markers and front matter: what the page says, not how it is kept.
      const template = await loadTemplate(ws, "entity", new Map(), { name: row.name }).catch(() => "");
      page = { path: row.page, text: pageContent(raw, template, EMPTY_REGIONS) };
    } catch {
      page = undefined;
    }
  }
  const facts = factsByEntity(
    idx,
    // Case variants (@Peter, @PETER) are one entity: their facts together.
    rows.filter((e) => entityKey(e.slug) === entityKey(row.slug)).map((e) => e.slug),
    limit,
  ).map((f) => ({
    kind: f.kind,
    timestamp: f.date,
    entities: f.entities,
    content: f.content,
    source: `${f.path}#L${f.line}-L${f.line}`,
    ...(f.confidence !== null && f.kind === "opinion" ? { confidence: f.confidence } : {}),
  }));
  return { entity: row.slug, name: row.name, aliases: row.aliases, page: page ?? null, facts };
}

type Extra = {
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
};

/**
 * Progress of the index sync a call starts, as MCP progress notifications when the client
 * sent a progress token (at most every 200 ms, and the last step always).
 */
function progressOf(extra: Extra): ((done: number, total: number, phase: SyncPhase) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = 0;
  return (done, total, phase) => {
    const now = performance.now();
    if (done < total && now - last < 200) return;
    last = now;
    const message = phase === "files" ? `indexing memory files (${done}/${total})` : `embedding (${done}/${total})`;
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: done, total, message },
      })
      .catch(() => {
        // The client went away mid-call: the answer will not be read either.
      });
  };
}

/** The server with its vector filler (tests and benchmarks wait on `vectors.idle()`). */
export interface MembankMcp {
  server: McpServer;
  vectors: VectorFiller;
  tools: Record<string, RegisteredTool>;
}

export function createMcpServer(ws: Workspace, opts: McpOptions & VectorFillerOptions = {}): MembankMcp {
  const server = new McpServer({ name: "membank", version: "0.1.0" }, { instructions: INSTRUCTIONS });
  let choice: Promise<EmbedderChoice> | undefined;
  // Resolved on first use: resolving loads nothing, and a bad provider must not stop the server.
  const embedder = () => {
    choice ??= resolveEmbedder(ws, opts.provider ? { provider: opts.provider } : {}).catch(
      (error: Error): EmbedderChoice => ({ embedder: null, provider: "none", fallback: error.message }),
    );
    return choice;
  };
  // The one place queries learn whether to use vectors: BM25 at once, embedding in the background.
  const vectors = new VectorFiller(ws, embedder, opts);
  const plan = (extra: Extra): Promise<QueryPlan> => vectors.prepare(progressOf(extra));
  const tools: Record<string, RegisteredTool> = {};

  tools.memory_recall = server.registerTool(
    "memory_recall",
    {
      title: "Recall from memory",
      description:
        "Call this FIRST before answering any question about the past, people, projects, decisions or preferences: " +
        "'what does Mara prefer', 'tell me about Priya', 'what happened around March 12', 'since last week', an id like FJD-482. " +
        "Understands entity, time, opinion and exact-term questions and returns short, ranked results, each with kind, date, " +
        "content and a source path#Lstart-Lend (opinions with confidence and evidence). Fits a token budget.",
      inputSchema: {
        query: z.string().min(1).describe("the question, in natural language"),
        k: z.number().int().min(1).max(100).optional().describe("number of results (default 8)"),
        since: date("only results on or after this day").optional(),
        until: date("only results on or before this day").optional(),
        entity: z.string().min(1).optional().describe("only results about this entity"),
        kinds: z.array(KIND).optional().describe("only these kinds"),
        asOf: date("the day relative phrases ('last week') count from (default today)").optional(),
        budgetTokens: z.number().int().min(50).optional().describe("token budget for all results"),
        explain: z.boolean().optional().describe("include which retrieval arms found each result"),
      },
      annotations: { title: "Recall from memory", ...READ_ONLY },
    },
    async (args, extra) =>
      guarded(async () => {
        const p = await plan(extra);
        return recall(ws, args.query, {
          embedder: p.embedder,
          sync: false, // plan() synced already (or a background pass is writing the index)
          ...(args.k !== undefined ? { k: args.k } : {}),
          ...(args.since !== undefined ? { since: args.since } : {}),
          ...(args.until !== undefined ? { until: args.until } : {}),
          ...(args.entity !== undefined ? { entity: args.entity } : {}),
          ...(args.kinds !== undefined ? { kinds: args.kinds as ResultKind[] } : {}),
          ...(args.asOf !== undefined ? { asOf: new Date(`${args.asOf}T12:00:00Z`) } : {}),
          ...(args.budgetTokens !== undefined ? { budgetTokens: args.budgetTokens } : {}),
          ...(args.explain ? { explain: true } : {}),
        });
      }),
  );

  tools.memory_search = server.registerTool(
    "memory_search",
    {
      title: "Search memory files",
      description:
        `Plain hybrid search (BM25 + vectors) over ${MEMORY_FILES_TEXT}, as OpenClaw's memory_search: ` +
        "snippets with path, startLine, endLine and score. Use it for broad keyword lookups; prefer memory_recall for questions. " +
        "Follow up with memory_get to read the lines around a hit.",
      inputSchema: {
        query: z.string().min(1).describe("words, ids or error strings to look for"),
        maxResults: z.number().int().min(1).max(100).optional().describe("number of results (default 6)"),
        minScore: z.number().min(0).max(1).optional().describe("drop results below this score (default 0.35)"),
      },
      annotations: { title: "Search memory files", ...READ_ONLY },
    },
    async (args, extra) =>
      guarded(async () => {
        const p = await plan(extra);
        return search(ws, args.query, {
          embedder: p.embedder,
          sync: false, // plan() synced already (or a background pass is writing the index)
          ...(args.maxResults !== undefined ? { maxResults: args.maxResults } : {}),
          ...(args.minScore !== undefined ? { minScore: args.minScore } : {}),
        });
      }),
  );

  tools.memory_get = server.registerTool(
    "memory_get",
    {
      title: "Read lines of a memory file",
      description:
        `Read lines of one memory file (${MEMORY_FILES_TEXT}, workspace-relative) to see the context ` +
        "of a memory_recall or memory_search result, e.g. path 'memory/2026-03-12.md', from 10, lines 20. Other paths are refused.",
      inputSchema: {
        path: z.string().min(1).describe("workspace-relative path, e.g. memory/2026-03-12.md"),
        from: z.number().int().min(1).optional().describe("first line, 1-based"),
        lines: z.number().int().min(1).optional().describe("number of lines"),
      },
      annotations: { title: "Read lines of a memory file", ...READ_ONLY },
    },
    async (args) =>
      guarded(() =>
        getMemoryLines(ws, args.path, {
          ...(args.from !== undefined ? { from: args.from } : {}),
          ...(args.lines !== undefined ? { lines: args.lines } : {}),
        }),
      ),
  );

  tools.memory_entity = server.registerTool(
    "memory_entity",
    {
      title: "Everything about one entity",
      description:
        "Get one entity's bank page (bank/entities/<Name>.md, when reflect has written it; its text without markers " +
        "or template help) and all its facts, newest first, each cited. Use it when the user asks for a full picture of " +
        "a person, project or place; names and aliases match case- and slug-insensitively ('ledger sync' = '@ledger-sync').",
      inputSchema: {
        name: z.string().min(1).describe("entity name, slug or alias, with or without @"),
        limit: z.number().int().min(1).max(500).optional().describe("most facts to return (default 50)"),
      },
      annotations: { title: "Everything about one entity", ...READ_ONLY },
    },
    async (args, extra) =>
      guarded(async () => {
        // The entity report reads no vectors: only the BM25 sync of the plan matters here.
        await plan(extra);
        return entityReport(ws, args.name, args.limit ?? 50, { sync: false });
      }),
  );

  return { server, vectors, tools };
}

/** Serve the tools over stdio until the client closes the stream. */
export async function runMcpStdio(ws: Workspace, opts: McpOptions = {}): Promise<void> {
  const { server } = createMcpServer(ws, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on("end", () => resolve());
  });
  await server.connect(transport);
  // Load the Retain parser (remark, chrono-node: ~0.2 s CPU) while the client is idle, not
  // in its first call, which on a cold index parses every daily log.
  void import("../retain/index.js").catch(() => undefined);
  await closed;
  closeIndexes();
}
