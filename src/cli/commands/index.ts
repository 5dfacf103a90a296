import type { Command } from "commander";
import type { SyncPhase, SyncReport } from "../../index/sync.js";
import { displaySafe } from "../../markdown/display.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface IndexFlags {
  workspace?: string;
  full?: boolean;
  json?: boolean;
  provider?: string;
}

/**
 * Progress on stderr: a bar on a terminal (once a run has lasted a while), else periodic
 * lines with counts and an estimate, so an agent or cron log sees a long pass move.
 */
async function progressReporter(
  provider: string,
): Promise<{ update: (d: number, t: number, p: SyncPhase) => void; stop: () => void }> {
  const label = (p: SyncPhase) => (p === "files" ? "indexing files" : `embedding with ${provider}`);
  if (!process.stderr.isTTY) {
    const { ANNOUNCE_FROM, embedPassLine, progressLines } = await import("../../workspace/progress.js");
    const write = (line: string) => process.stderr.write(`membank: ${line}\n`);
    const lines = progressLines(write);
    return {
      update(d, t, p) {
        if (p === "embed" && d === 0 && t >= ANNOUNCE_FROM) write(embedPassLine(t, provider));
        lines.update(label(p), d, t);
      },
      stop: () => lines.finish(),
    };
  }
  const { SingleBar, Presets } = await import("cli-progress");
  const started = Date.now();
  let bar: InstanceType<typeof SingleBar> | undefined;
  let phase: SyncPhase | undefined;
  return {
    update(done, total, p) {
      if (!bar && Date.now() - started < 750) return;
      if (!bar || phase !== p) {
        bar?.stop();
        bar = new SingleBar(
          {
            stream: process.stderr,
            format: `${p === "files" ? "files " : "embed "} [{bar}] {value}/{total} {eta_formatted}`,
          },
          Presets.shades_classic,
        );
        bar.start(total, done);
        phase = p;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      bar?.stop();
    },
  };
}

export function formatSyncReport(r: SyncReport): string {
  const lines = [
    `${r.rebuilt ? `rebuilt (${r.reason})` : "synced"} ${r.index}`,
    `  files: ${r.scanned} scanned, ${r.changed} changed, ${r.removed} removed`,
    `  index: ${r.chunks} chunks, ${r.facts} facts, ${r.embedded} embedded (provider: ${r.provider}${r.model ? ` ${r.model}` : ""})`,
    `  ${r.ms} ms`,
  ];
  if (r.diagnostics > 0) lines.push(`  ${r.diagnostics} Retain lines did not parse (see: membank facts)`);
  for (const w of r.warnings) lines.push(`  warning: ${w}`);
  if (r.fallback && !r.warnings.includes(r.fallback)) lines.push(`  fallback: ${r.fallback}`);
  return lines.join("\n");
}

export function registerIndex(program: Command): void {
  const cmd = program
    .command("index")
    .description("bring the search index (.memory/index.sqlite) up to date with the memory files");
  workspaceOption(cmd)
    .option("--full", "rebuild from scratch (into a new file, swapped in when complete), after a quick_check")
    .option("--provider <name>", "embedding provider for this run: auto, local, openai, gemini, use, none")
    .option("--json", "print the sync report as JSON")
    .action(async (flags: IndexFlags) => {
      const ws = await loadWorkspace(flags);
      const { resolveEmbedder } = await import("../../embed/index.js");
      const { syncIndex, closeIndexes } = await import("../../index/index.js");
      const embedder = await resolveEmbedder(ws, flags.provider === undefined ? {} : { provider: flags.provider });
      const progress = await progressReporter(embedder.provider);
      try {
        const report = await syncIndex(ws, {
          full: flags.full ?? false,
          embedder,
          onProgress: progress.update,
          // quick_check costs a third of a no-change sync on a big index: only when rebuilding
          // (sync also runs it after a crashed sync, and a file that fails to open is rebuilt).
          check: flags.full ?? false,
        });
        progress.stop();
        if (flags.json) printJson(report);
        else process.stdout.write(displaySafe(`${formatSyncReport(report)}\n`));
      } finally {
        progress.stop();
        closeIndexes();
        await embedder.embedder?.close?.();
      }
    });
}
