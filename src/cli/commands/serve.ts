import type { Command } from "commander";
import { loadWorkspace, workspaceOption } from "../shared.js";

interface ServeFlags {
  workspace?: string;
  provider?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export function registerServe(program: Command): void {
  const cmd = program
    .command("serve")
    .description("keep the index (and the embedder) loaded and answer recall, search and get from a local socket")
    .addHelpText(
      "after",
      `
While it runs, \`membank recall\`, \`search\` and \`get\` on this workspace ask it instead of
loading the index (and any embedding model) themselves: same output, much less start-up.
Without a running server they answer in-process, as always.

The socket is .memory/serve.sock in the workspace (or, when that path is too long for a
socket, membank-<hash>.sock in the temp folder), readable by your user only. Before each
answer the server re-reads files changed since the last one, like a fresh CLI call.
One server per workspace: a second one is refused. Ctrl-C or SIGTERM stops it and removes
the socket; a socket left by a killed server is removed by the next caller.

Examples:
  membank serve -w ~/clawd &                run in the background of a shell
  membank recall "what does Mara prefer?"   answered by the server when it runs`,
    );
  workspaceOption(cmd)
    .option("--provider <name>", "embedding provider kept loaded: auto, local, openai, gemini, use, none")
    .option("--quiet", "print nothing but errors")
    .option("--verbose", "log each request (operation, milliseconds) on stderr")
    .action(async (flags: ServeFlags) => {
      const ws = await loadWorkspace(flags);
      const { sqliteBindingProblem } = await import("../../index/status.js");
      const binding = sqliteBindingProblem();
      if (binding) throw binding;
      const { startServer } = await import("../../serve/server.js");
      const server = await startServer(ws, {
        ...(flags.provider ? { provider: flags.provider } : {}),
        ...(flags.verbose
          ? {
              onRequest: (op: string, ms: number, ok: boolean) =>
                process.stderr.write(`membank serve: ${op} ${ms} ms${ok ? "" : " (error)"}\n`),
            }
          : {}),
      });
      const stop = () => {
        void server.close();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      if (!flags.quiet) {
        const { socket, provider, pid } = server.info;
        process.stdout.write(
          `membank serve: pid ${pid}, workspace ${ws.root}, provider ${provider}, socket ${socket}\n`,
        );
      }
      await server.closed;
      if (!flags.quiet) process.stdout.write("membank serve: stopped\n");
      // A model's worker threads or timers must not keep a stopped server alive.
      process.exit(process.exitCode ?? 0);
    });
}
