import { resolveEmbedder } from "../embed/resolve.js";
import type { EmbedderChoice } from "../embed/types.js";
import type { Workspace } from "../workspace/workspace.js";
import { type SyncReport, syncIndex } from "./sync.js";

export interface EmbedMissingOptions {
  /** The embedder to use; default: the configured one (`resolveEmbedder`), closed afterwards. */
  embedder?: EmbedderChoice;
  /** Chunks embedded so far of those missing a vector (called once with 0 before the first batch). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Fill the vectors that are missing (log and MEMORY.md chunks of files indexed by a BM25-only
 * sync, or by a query, which never embeds): what `membank index`, the nightly and a warm
 * process's background job call. Files are synced first, so the vectors match the Markdown.
 * With no usable provider nothing is embedded and the report says so (`provider: "none"`).
 */
export async function embedMissing(ws: Workspace, opts: EmbedMissingOptions = {}): Promise<SyncReport> {
  const choice = opts.embedder ?? (await resolveEmbedder(ws));
  try {
    return await syncIndex(ws, {
      embedder: choice,
      ...(opts.onProgress ? { onProgress: (d, t, phase) => phase === "embed" && opts.onProgress!(d, t) } : {}),
    });
  } finally {
    if (!opts.embedder) await choice.embedder?.close?.();
  }
}
