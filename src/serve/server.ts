import { chmodSync, existsSync, realpathSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { resolveEmbedder } from "../embed/resolve.js";
import type { EmbedderChoice } from "../embed/types.js";
import { getMemoryLines } from "../index/get.js";
import { closeIndexes } from "../index/handles.js";
import { nativeError } from "../index/native.js";
import { search } from "../index/search.js";
import { syncIndex } from "../index/sync.js";
import { recall } from "../recall/recall.js";
import type { ResultKind } from "../recall/types.js";
import { describeIoError, MembankError } from "../workspace/errors.js";
import { ensureStateDirOf, openWorkspace, type Workspace } from "../workspace/workspace.js";
import { exchange } from "./client.js";
import {
  type Envelope,
  NOT_MINE,
  PROTOCOL_VERSION,
  type ServeAnswer,
  type ServeError,
  type ServeRequest,
  type ServerInfo,
} from "./protocol.js";
import { removeStaleSocket, socketInode, socketPath } from "./socket.js";

export interface ServeOptions {
  /** Embedding provider for requests that name none (default: the workspace config). */
  provider?: string;
  /** Listen here instead of the workspace's socket (tests). */
  socket?: string;
  /** Called after each answered request (logs). */
  onRequest?: (op: string, ms: number, ok: boolean) => void;
}

export interface RunningServer {
  info: ServerInfo;
  /** Stop listening, remove the socket, close the index and the embedders. Idempotent. */
  close(): Promise<void>;
  /** Resolves once closed. */
  closed: Promise<void>;
}

/** Warm-up questions: a time window, an opinion, and every kind of date chrono reads. */
const WARM_UP_QUESTIONS = [
  "what happened last week?",
  "what does Mara prefer for status updates?",
  "who merged FJD-482 on Monday, March 3 2025 at 5pm, 2 days ago, in 3 hours or 2025-03-02?",
];

/** A request line longer than this is not one of ours. */
const MAX_REQUEST_BYTES = 1 << 20;

/** The error the in-process CLI would have printed, as data. */
export function serveError(error: unknown): ServeError {
  const known = nativeError(error) ?? error;
  if (known instanceof MembankError) return { message: known.message, exitCode: known.exitCode, code: known.code };
  const io = describeIoError(error);
  if (io !== undefined) return { message: io, exitCode: 1, code: "EIO" };
  return {
    message: `unexpected error: ${(error as Error)?.message ?? String(error)}`,
    exitCode: 1,
    code: "EUNEXPECTED",
  };
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * The embedders of this process, one per (provider, embedding config): loaded once, kept
 * warm for every later request. A config change gives a new key, hence a fresh embedder.
 */
class Embedders {
  private readonly cache = new Map<string, Promise<EmbedderChoice>>();

  get(ws: Workspace, provider: string | undefined): Promise<EmbedderChoice> {
    const key = JSON.stringify([provider ?? null, ws.config.embedding]);
    let choice = this.cache.get(key);
    if (!choice) {
      choice = resolveEmbedder(ws, provider === undefined ? {} : { provider });
      // A bad provider name fails this request (as in-process) and is asked again next time.
      choice.catch(() => this.cache.delete(key));
      this.cache.set(key, choice);
    }
    return choice;
  }

  async close(): Promise<void> {
    const all = [...this.cache.values()];
    this.cache.clear();
    for (const choice of all) await (await choice.catch(() => undefined))?.embedder?.close?.();
  }
}

/** Answer one request exactly as the CLI computes it in-process. */
async function answer(root: string, req: ServeRequest, embedders: Embedders, defaultProvider?: string) {
  // Per request: a config edited since the server started counts, as it would for a new CLI process.
  const ws = await openWorkspace(root);
  switch (req.op) {
    case "recall": {
      const embedder = await embedders.get(ws, req.provider ?? defaultProvider);
      return recall(ws, req.query, {
        embedder,
        ...(req.k !== undefined ? { k: req.k } : {}),
        ...(req.since !== undefined ? { since: req.since } : {}),
        ...(req.until !== undefined ? { until: req.until } : {}),
        ...(req.entity !== undefined ? { entity: req.entity } : {}),
        ...(req.kinds !== undefined ? { kinds: req.kinds as ResultKind[] } : {}),
        ...(req.asOf !== undefined ? { asOf: new Date(`${req.asOf}T12:00:00Z`) } : {}),
        ...(req.budgetTokens !== undefined ? { budgetTokens: req.budgetTokens } : {}),
        ...(req.explain ? { explain: true } : {}),
        ...(req.fusion !== undefined ? { fusion: req.fusion } : {}),
      });
    }
    case "search": {
      const provider = req.provider ?? defaultProvider ?? ws.config.embedding.provider;
      const embedder: EmbedderChoice =
        provider === "none" ? { embedder: null, provider: "none" } : await embedders.get(ws, provider);
      return search(ws, req.query, {
        embedder,
        ...(req.maxResults !== undefined ? { maxResults: req.maxResults } : {}),
        ...(req.minScore !== undefined ? { minScore: req.minScore } : {}),
      });
    }
    case "get":
      return getMemoryLines(ws, req.path, {
        ...(req.from !== undefined ? { from: req.from } : {}),
        ...(req.lines !== undefined ? { lines: req.lines } : {}),
      });
    default:
      throw new MembankError(`unknown request ${JSON.stringify((req as { op?: unknown }).op)}`, { code: NOT_MINE });
  }
}

function alreadyServed(info: Omit<ServerInfo, "pid"> & { pid: number | undefined }): MembankError {
  const who = info.pid === undefined ? "a membank server" : `a membank server (pid ${info.pid})`;
  return new MembankError(
    `${who} already serves ${info.root} on ${info.socket}; use it, or stop it first` +
      (info.pid === undefined ? "" : ` (kill ${info.pid})`),
    { code: "ESERVING" },
  );
}

/**
 * Start the warm server of a workspace: refuse when one already answers on its socket,
 * remove a dead server's socket, bring the index up to date and load the embedder, then
 * listen (socket mode 0600) and answer recall/search/get one request at a time.
 */
export async function startServer(ws: Workspace, opts: ServeOptions = {}): Promise<RunningServer> {
  const file = opts.socket ?? socketPath(ws.root);
  const root = realRoot(ws.root);
  const info: ServerInfo = {
    pid: process.pid,
    root: ws.root,
    socket: file,
    provider: opts.provider ?? ws.config.embedding.provider,
  };
  const probe = await exchange(ws.root, { op: "ping" }, { socket: file });
  if (probe.answered && probe.answer.ok) throw alreadyServed(probe.answer.value as ServerInfo);
  if (probe.answered) throw alreadyServed({ ...info, pid: undefined });
  if (existsSync(file) && !socketInode(file)) {
    throw new MembankError(`${file} exists and is not a socket: move it away and run membank serve again`, {
      code: "ESERVING",
    });
  }
  ensureStateDirOf(file);

  // Warm up before listening: the first client must not pay the index sync or the model load.
  const embedders = new Embedders();
  await syncIndex(ws, { reader: true });
  const choice = await embedders.get(ws, opts.provider);
  info.provider = choice.provider;
  // A model that fails to load here fails (or falls back) per request, as it would in-process.
  await choice.embedder?.embed(["membank serve warm-up"]).catch(() => undefined);
  // Questions through recall load what it loads lazily (the date parser, the line tables),
  // twice: V8 compiles a regular expression to machine code on its second run, and chrono's
  // largest patterns take ~0.3 s each to compile; that must not land on a client's request.
  for (let round = 0; round < 2; round++) {
    for (const question of WARM_UP_QUESTIONS) {
      await recall(ws, question, { embedder: { embedder: null, provider: "none" } }).catch(() => undefined);
    }
  }

  let chain: Promise<unknown> = Promise.resolve();
  const handle = (conn: Socket, line: string) => {
    chain = chain.then(async () => {
      const started = performance.now();
      let reply: ServeAnswer;
      let op = "?";
      try {
        const env = JSON.parse(line) as Envelope;
        op = String(env.op);
        if (env.v !== PROTOCOL_VERSION || realRoot(env.root) !== root) {
          reply = { ok: false, error: { message: "not this server's workspace", exitCode: 1, code: NOT_MINE } };
        } else if (env.op === "ping") reply = { ok: true, value: info };
        else reply = { ok: true, value: await answer(ws.root, env, embedders, opts.provider) };
      } catch (error) {
        reply = { ok: false, error: serveError(error) };
      }
      opts.onRequest?.(op, Math.round(performance.now() - started), reply.ok);
      if (!conn.destroyed) conn.end(`${JSON.stringify(reply)}\n`);
    });
  };

  const server: Server = createServer((conn) => {
    let raw = "";
    conn.setEncoding("utf8");
    conn.on("error", () => {
      // The client went away: its answer has nobody to read it.
    });
    conn.on("data", (chunk: string) => {
      raw += chunk;
      const nl = raw.indexOf("\n");
      if (nl >= 0) {
        conn.removeAllListeners("data");
        handle(conn, raw.slice(0, nl));
      } else if (raw.length > MAX_REQUEST_BYTES) conn.destroy();
    });
  });

  await listen(server, file, info);
  const bound = socketInode(file);

  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Only our own socket: a server started after us (after a forced takeover) keeps its file.
      if (bound) removeStaleSocket(file, bound);
      await chain.catch(() => undefined);
      closeIndexes();
      await embedders.close();
      resolveClosed();
    })();
    return closing;
  };
  return { info, close, closed };
}

/** Bind with a private mode from the first moment (umask), then make sure of it (chmod). */
async function listen(server: Server, file: string, info: ServerInfo): Promise<void> {
  const bound = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Node binds a Unix socket synchronously inside listen(): the umask covers exactly that.
  const previous = process.umask(0o177);
  try {
    server.listen(file);
  } finally {
    process.umask(previous);
  }
  try {
    await bound;
  } catch (error) {
    // Another server bound the socket between our probe and our bind.
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw alreadyServed({ ...info, pid: undefined });
    throw error;
  }
  chmodSync(file, 0o600);
}
