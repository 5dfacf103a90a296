import { resolveEmbedder } from "../embed/resolve.js";
import type { RetainParser } from "../index/apply.js";
import { type SyncReport, syncIndex } from "../index/sync.js";
import { type MemoryListing, relistMemoryFiles } from "../workspace/files.js";
import { ANNOUNCE_FROM, embedPassLine, progressLines } from "../workspace/progress.js";
import type { Workspace } from "../workspace/workspace.js";

/**
 * A run's index step: sync with the configured embedder. With `listing` (the run's scan, from
 * its retain step) and `written` (every file the run's steps wrote since), the files are not
 * listed again: only the written ones are stat'ed (a scan of 3,700 files was ~1/3 of the step). Embedding years of logs the first
 * time takes minutes, so it says how far it is and how long is left, every 10 s at most (a log
 * line each, for cron as for a terminal).
 */
export async function indexForRun(
  ws: Workspace,
  opts: {
    parseRetain?: RetainParser;
    log: (line: string) => void;
    listing?: MemoryListing;
    written?: readonly string[];
  },
): Promise<SyncReport> {
  const embedder = await resolveEmbedder(ws);
  const progress = progressLines(opts.log, { everyMs: 10_000 });
  const listing = opts.listing && relistMemoryFiles(ws, opts.listing, opts.written ?? []);
  const r = await syncIndex(ws, {
    embedder,
    ...(listing ? { listing } : {}),
    ...(opts.parseRetain ? { parseRetain: opts.parseRetain } : {}),
    onProgress: (done, total, phase) => {
      if (phase !== "embed") return;
      if (done === 0 && total >= ANNOUNCE_FROM) opts.log(embedPassLine(total, embedder.provider));
      progress.update(`embedding chunks with ${embedder.provider}`, done, total);
    },
  });
  progress.finish();
  return r;
}
