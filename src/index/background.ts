import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { MembankError } from "../workspace/errors.js";
import { acquireWorkspaceLock } from "../workspace/lock.js";
import type { Workspace } from "../workspace/workspace.js";
import { syncForQuery } from "./freshness.js";
import { pendingVectors, type SyncPhase, syncIndex } from "./sync.js";

/** How a query should run right now: with the embedder (vectors complete) or BM25 only. */
/**
 * How a query answers. The query itself does not sync (`sync: false`): prepare() has brought the
 * index up to date, or a background pass is writing it and the query reads what is there.
 */
export interface QueryPlan {
  embedder: EmbedderChoice;
}

export interface VectorFillStatus {
  state: "idle" | "running" | "complete" | "failed";
  /** Chunks embedded so far by the running (or last) pass, of `total`. */
  done: number;
  total: number;
  /** Why the last pass did not finish, when it did not. */
  error?: string;
}

export interface VectorFillerOptions {
  /** Called when a pass ends (for logs and benchmarks): its status and how long it took. */
  onPassEnd?: (status: VectorFillStatus, ms: number) => void;
  /** Wait after a failed pass before the next query may start another (default 5 min). */
  retryMs?: number;
}

const NONE: EmbedderChoice = { embedder: null, provider: "none" };

/** Texts per model call when the model computes on this thread (USE: ~0.75 s CPU for 4 chunks; 8 took 1.3 s, +12% per chunk at 4). */
const BLOCKING_SLICE = 4;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The embedder, handing the event loop back between calls so queries keep being answered
 * during a pass. A model that computes on this thread (USE runs TensorFlow.js on the CPU
 * and resolves without ever yielding) would otherwise hold every request until the whole
 * pass is done: such a model is seen by a first small call during which a `setImmediate`
 * never ran, and is fed small slices. Remote and native-threaded models get whole batches.
 */
export function yieldingEmbedder(inner: Embedder): Embedder {
  // Calls in a row during which the loop turned: two mean the model does not block (the
  // first call of a blocking model may turn while it loads its weights).
  let yielding = 0;
  return {
    get id() {
      return inner.id;
    },
    get model() {
      return inner.model;
    },
    get dims() {
      return inner.dims;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      let i = 0;
      while (i < texts.length) {
        const size = yielding >= 2 ? texts.length - i : BLOCKING_SLICE;
        await nextTurn();
        let turned = false;
        setImmediate(() => {
          turned = true;
        });
        out.push(...(await inner.embed(texts.slice(i, i + size))));
        yielding = turned ? yielding + 1 : 0;
        i += size;
      }
      return out;
    },
  };
}

/**
 * Answer at once, embed later (issue 11): a long-running server (MCP) must not make its
 * first query wait minutes for an embedding pass. Each query first brings the index up
 * to date with BM25 only (seconds even for a cold year of logs); when an embedding
 * provider is configured and chunks lack vectors, one pass is started in the background
 * (one at a time in this process, under the workspace lock across processes) and the
 * query runs on BM25 + structure, saying so in `fallback`. Once the vectors are complete,
 * queries use the embedder again. While a pass writes the index, queries read the index
 * as it is instead of syncing under the pass.
 */
export class VectorFiller {
  private running: Promise<void> | undefined;
  private status: VectorFillStatus = { state: "idle", done: 0, total: 0 };
  private failedAt = 0;

  constructor(
    private readonly ws: Workspace,
    private readonly resolveChoice: () => Promise<EmbedderChoice>,
    private readonly opts: VectorFillerOptions = {},
  ) {}

  /** Where the vectors stand. */
  current(): VectorFillStatus {
    return { ...this.status };
  }

  /** Resolves when no pass is running (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Bring the index up to date (BM25) and decide how to answer. `onProgress` sees the
   * file phase of that sync, for a client's progress notifications.
   */
  async prepare(onProgress?: (done: number, total: number, phase: SyncPhase) => void): Promise<QueryPlan> {
    if (this.running) return { embedder: this.busyChoice() };
    // A query's sync: none when the index is current (the warm server's usual case: a stat per file, no write
    // transaction); else it never waits long on another writer (a nightly run) and answers from the last state.
    const report = await syncForQuery(this.ws, onProgress ? { onProgress } : {});
    const choice = await this.resolveChoice();
    // Another process is writing the index: answer from its last state, say so, sync no more.
    if (report.busy) {
      const fallback = [choice.fallback, report.busy].filter(Boolean).join("; ");
      return { embedder: { ...choice, fallback } };
    }
    if (!choice.embedder) return { embedder: choice };
    if (this.running) return { embedder: this.busyChoice() };
    const pending = pendingVectors(this.ws, choice.embedder);
    if (pending === 0) return { embedder: choice };
    const retryMs = this.opts.retryMs ?? 5 * 60_000;
    if (this.status.state === "failed" && Date.now() - this.failedAt < retryMs) {
      return { embedder: { ...NONE, fallback: `${this.note(choice, pending)} (${this.status.error})` } };
    }
    this.start(choice, pending);
    return { embedder: this.busyChoice() };
  }

  private note(choice: EmbedderChoice, pending: number): string {
    return `${pending} chunks have no ${choice.provider} vectors yet; this answer is BM25 + structure only`;
  }

  private busyChoice(): EmbedderChoice {
    const { done, total } = this.status;
    return {
      ...NONE,
      fallback: `embedding the index in the background (${done}/${total} chunks); this answer is BM25 + structure only`,
    };
  }

  private start(choice: EmbedderChoice, pending: number): void {
    this.status = { state: "running", done: 0, total: pending };
    const started = performance.now();
    this.running = this.pass(choice)
      .then(
        () => {
          this.status = { ...this.status, state: "complete", done: this.status.total };
        },
        (error: unknown) => {
          this.failedAt = Date.now();
          const message = error instanceof MembankError ? error.message : String((error as Error)?.message ?? error);
          this.status = { ...this.status, state: "failed", error: message };
        },
      )
      .finally(() => {
        this.running = undefined;
        this.opts.onPassEnd?.(this.current(), Math.round(performance.now() - started));
      });
  }

  private async pass(choice: EmbedderChoice): Promise<void> {
    // Across processes: a nightly run or a second server holds the lock; try again on a later query.
    const lock = await acquireWorkspaceLock(this.ws, { purpose: "mcp: embedding the index" });
    try {
      const report = await syncIndex(this.ws, {
        embedder: choice.embedder ? { ...choice, embedder: yieldingEmbedder(choice.embedder) } : choice,
        onProgress: (done, total, phase) => {
          if (phase === "embed") this.status = { ...this.status, done, total };
        },
      });
      // A provider that failed mid-way leaves chunks without vectors (sync reports it as a fallback).
      const left = choice.embedder ? pendingVectors(this.ws, choice.embedder) : 0;
      if (left > 0) throw new Error(report.fallback ?? `${left} chunks are still without vectors`);
    } finally {
      await lock.release();
    }
  }
}
