import type { Command } from "commander";
import { loadWorkspace, reportError, workspaceOption } from "../shared.js";

interface WatchFlags {
  workspace?: string;
  provider?: string;
  debounce?: string;
  reconcile?: string;
}

export function registerWatch(program: Command): void {
  const cmd = program
    .command("watch")
    .description("keep the index up to date while memory files change (Ctrl-C to stop)");
  workspaceOption(cmd)
    .option("--provider <name>", "embedding provider: auto, local, openai, gemini, use, none")
    .action(async (flags: WatchFlags) => {
      const ws = await loadWorkspace(flags);
      const { resolveEmbedder } = await import("../../embed/index.js");
      const { watchIndex, closeIndexes } = await import("../../index/index.js");
      const embedder = await resolveEmbedder(ws, flags.provider === undefined ? {} : { provider: flags.provider });
      const watcher = watchIndex(ws, {
        embedder,
        onSync(r, why) {
          if (why === "reconcile" && r.changed === 0 && r.removed === 0 && !r.rebuilt) return;
          const stamp = new Date().toISOString().slice(11, 19);
          process.stdout.write(
            `${stamp} ${why}: ${r.changed} changed, ${r.removed} removed, ${r.chunks} chunks, ${r.embedded} embedded, ${r.ms} ms\n`,
          );
          for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
        },
        onError(error) {
          reportError(error);
        },
      });
      await watcher.ready;
      process.stderr.write(`watching ${ws.root} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await watcher.close();
      closeIndexes();
      await embedder.embedder?.close?.();
      process.stderr.write("stopped\n");
    });
}
