import path from "node:path";
import type { FSWatcher } from "chokidar";
import type { EmbedderChoice } from "../embed/types.js";
import { ROOT_MEMORY_FILES, toPosixRelative } from "../workspace/files.js";
import type { Workspace } from "../workspace/workspace.js";
import { isBusy, type SyncReport, syncIndex } from "./sync.js";

export interface WatchOptions {
  embedder?: EmbedderChoice;
  /** Quiet time after the last change before syncing (default 1500 ms). */
  debounceMs?: number;
  /** A full reconcile (the same stat pass) every so often, repairing missed events (default 5 min). */
  reconcileMs?: number;
  onSync?: (report: SyncReport, why: "change" | "reconcile" | "start") => void;
  onError?: (error: unknown) => void;
}

export interface IndexWatcher {
  /** Resolves once the watcher is ready and the first sync is done. */
  ready: Promise<void>;
  /** Stop watching; waits for a sync in progress to finish. */
  close(): Promise<void>;
}

/** Is this workspace-relative path (file or folder) something the index cares about? */
function relevant(rel: string): boolean {
  if (rel === "" || ROOT_MEMORY_FILES.includes(rel)) return true;
  if (rel.split("/").some((s) => s.startsWith("."))) return false;
  return rel === "memory" || rel === "bank" || rel.startsWith("memory/") || rel.startsWith("bank/");
}

/**
 * Keep the index in step with the memory files: chokidar events, debounced, trigger an
 * incremental sync (syncs never overlap: a change during a sync schedules one more), and
 * a periodic reconcile catches anything the watcher missed.
 */
export function watchIndex(ws: Workspace, opts: WatchOptions = {}): IndexWatcher {
  const debounceMs = opts.debounceMs ?? 1500;
  const reconcileMs = opts.reconcileMs ?? 5 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again: "change" | "reconcile" | undefined;
  let closed = false;

  const run = (why: "change" | "reconcile" | "start"): Promise<void> => {
    if (running) {
      again = why === "start" ? "change" : why;
      return running;
    }
    running = (async () => {
      try {
        const report = await syncIndex(ws, opts.embedder ? { embedder: opts.embedder } : {});
        opts.onSync?.(report, why);
      } catch (error) {
        // Another writer (the nightly, an `index` run) held the index past the busy wait:
        // not an error of ours, try again after the quiet time.
        if (isBusy(error) || isBusy((error as { cause?: unknown }).cause)) schedule();
        else opts.onError?.(error);
      } finally {
        running = undefined;
        if (again && !closed) {
          const next = again;
          again = undefined;
          void run(next);
        }
      }
    })();
    return running;
  };

  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void run("change");
    }, debounceMs);
  };

  const interval = setInterval(() => void run("reconcile"), reconcileMs);
  interval.unref();

  // chokidar is loaded here, not at import time, so the library barrel stays cheap for the CLI.
  let watcher: FSWatcher | undefined;
  const ready = (async () => {
    const { watch } = await import("chokidar");
    if (closed) return;
    const w = watch(ws.root, {
      ignoreInitial: true,
      ignored: (p: string) => !relevant(toPosixRelative(ws.root, path.resolve(p))),
    });
    watcher = w;
    w.on("all", (_event, p) => {
      if (p.toLowerCase().endsWith(".md") || !path.extname(p)) schedule();
    });
    w.on("error", (error) => opts.onError?.(error));
    await new Promise<void>((resolve) => w.once("ready", () => resolve()));
    await run("start");
  })();

  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      clearInterval(interval);
      await ready.catch(() => {});
      await watcher?.close();
      if (running) await running;
    },
  };
}
