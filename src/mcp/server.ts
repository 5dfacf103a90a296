import { readFileSync } from "node:fs";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { resolveEmbedder } from "../embed/resolve.js";
import type { EmbedderChoice } from "../embed/types.js";
import { indexFile } from "../index/db.js";
import { getMemoryLines } from "../index/get.js";
import { acquireIndex, closeIndexes } from "../index/handles.js";
import { factsByEntity, listEntities } from "../index/queries.js";
import { search } from "../index/search.js";
import { syncIndex } from "../index/sync.js";
import { closeLineStores, recall } from "../recall/recall.js";
import { findEntityByName } from "../recall/text.js";
import type { ResultKind } from "../recall/types.js";
import { isIsoDate } from "../retain/dates.js";
import { entityKey } from "../retain/entities.js";
import { describeIoError, MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";

/** Thin MCP layer over the library: every tool answers JSON text; errors become tool errors, never crashes. */

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

function ok(value: unknown): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

function fail(error: unknown): ToolResult {
  // One line, never a stack: a disk or lock failure says what to do, like the CLI.
  const message =
    error instanceof MembankError
      ? error.message
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

const DATE = z.string().refine(isIsoDate, "a date YYYY-MM-DD");
const KIND = z.enum(["world", "experience", "opinion", "observation", "note"]);

export interface McpOptions {
  /** Embedding provider override (default: the workspace config). */
  provider?: string;
}

/** An entity's page text and its facts, newest first (memory_entity). */
export async function entityReport(ws: Workspace, name: string, limit = 50) {
  await syncIndex(ws, { reader: true });
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
      page = { path: row.page, text: readFileSync(path.join(ws.root, row.page), "utf8") };
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

export function createMcpServer(ws: Workspace, opts: McpOptions = {}): McpServer {
  const server = new McpServer({ name: "membank", version: "0.1.0" });
  let choice: Promise<EmbedderChoice> | undefined;
  // Resolved on first use: resolving loads nothing, and a bad provider must not stop the server.
  const embedder = () => {
    choice ??= resolveEmbedder(ws, opts.provider ? { provider: opts.provider } : {}).catch(
      (error: Error): EmbedderChoice => ({ embedder: null, provider: "none", fallback: error.message }),
    );
    return choice;
  };

  server.registerTool(
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
        since: DATE.optional().describe("only results on or after this date"),
        until: DATE.optional().describe("only results on or before this date"),
        entity: z.string().min(1).optional().describe("only results about this entity"),
        kinds: z.array(KIND).optional().describe("only these kinds"),
        asOf: DATE.optional().describe("date that relative phrases count from (default today)"),
        budgetTokens: z.number().int().min(50).optional().describe("token budget for all results"),
        explain: z.boolean().optional().describe("include which retrieval arms found each result"),
      },
    },
    async (args) =>
      guarded(async () =>
        recall(ws, args.query, {
          embedder: await embedder(),
          ...(args.k !== undefined ? { k: args.k } : {}),
          ...(args.since !== undefined ? { since: args.since } : {}),
          ...(args.until !== undefined ? { until: args.until } : {}),
          ...(args.entity !== undefined ? { entity: args.entity } : {}),
          ...(args.kinds !== undefined ? { kinds: args.kinds as ResultKind[] } : {}),
          ...(args.asOf !== undefined ? { asOf: new Date(`${args.asOf}T12:00:00Z`) } : {}),
          ...(args.budgetTokens !== undefined ? { budgetTokens: args.budgetTokens } : {}),
          ...(args.explain ? { explain: true } : {}),
        }),
      ),
  );

  server.registerTool(
    "memory_search",
    {
      title: "Search memory files",
      description:
        "Plain hybrid search (BM25 + vectors) over MEMORY.md, memory/*.md and bank/*.md, as OpenClaw's memory_search: " +
        "snippets with path, startLine, endLine and score. Use it for broad keyword lookups; prefer memory_recall for questions. " +
        "Follow up with memory_get to read the lines around a hit.",
      inputSchema: {
        query: z.string().min(1).describe("words, ids or error strings to look for"),
        maxResults: z.number().int().min(1).max(100).optional().describe("number of results (default 6)"),
        minScore: z.number().min(0).max(1).optional().describe("drop results below this score (default 0.35)"),
      },
    },
    async (args) =>
      guarded(async () =>
        search(ws, args.query, {
          embedder: await embedder(),
          ...(args.maxResults !== undefined ? { maxResults: args.maxResults } : {}),
          ...(args.minScore !== undefined ? { minScore: args.minScore } : {}),
        }),
      ),
  );

  server.registerTool(
    "memory_get",
    {
      title: "Read lines of a memory file",
      description:
        "Read lines of one memory file (MEMORY.md, memory/**.md or bank/**.md, workspace-relative) to see the context " +
        "of a memory_recall or memory_search result, e.g. path 'memory/2026-03-12.md', from 10, lines 20. Other paths are refused.",
      inputSchema: {
        path: z.string().min(1).describe("workspace-relative path, e.g. memory/2026-03-12.md"),
        from: z.number().int().min(1).optional().describe("first line, 1-based"),
        lines: z.number().int().min(1).optional().describe("number of lines"),
      },
    },
    async (args) =>
      guarded(() =>
        getMemoryLines(ws, args.path, {
          ...(args.from !== undefined ? { from: args.from } : {}),
          ...(args.lines !== undefined ? { lines: args.lines } : {}),
        }),
      ),
  );

  server.registerTool(
    "memory_entity",
    {
      title: "Everything about one entity",
      description:
        "Get one entity's bank page (bank/entities/<Name>.md, when reflect has written it) and all its facts, newest first, " +
        "each cited. Use it when the user asks for a full picture of a person, project or place; names and aliases " +
        "match case- and slug-insensitively ('ledger sync' = '@ledger-sync').",
      inputSchema: {
        name: z.string().min(1).describe("entity name, slug or alias, with or without @"),
        limit: z.number().int().min(1).max(500).optional().describe("most facts to return (default 50)"),
      },
    },
    async (args) => guarded(() => entityReport(ws, args.name, args.limit ?? 50)),
  );

  return server;
}

/** Serve the tools over stdio until the client closes the stream. */
export async function runMcpStdio(ws: Workspace, opts: McpOptions = {}): Promise<void> {
  const server = createMcpServer(ws, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  closeLineStores();
  closeIndexes();
}
