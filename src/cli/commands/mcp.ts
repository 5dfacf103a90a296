import type { Command } from "commander";
import { loadWorkspace, workspaceOption } from "../shared.js";

interface McpFlags {
  workspace?: string;
  provider?: string;
}

export function registerMcp(program: Command): void {
  const cmd = program
    .command("mcp")
    .description("serve memory_recall, memory_search, memory_get and memory_entity to an MCP client over stdio")
    // In `mcp --help` only: in the command list it read as a command of its own.
    .addHelpText(
      "after",
      '\nClient config:\n  {"mcpServers": {"membank": {"command": "membank", "args": ["mcp", "--workspace", "/path/to/workspace"]}}}',
    );
  workspaceOption(cmd)
    .option("--provider <name>", "embedding provider: auto, local, openai, gemini, use, none")
    .action(async (flags: McpFlags) => {
      const ws = await loadWorkspace(flags);
      // Fail at start, in one line on stderr (the client shows it), rather than on every tool call.
      const { sqliteBindingProblem } = await import("../../index/status.js");
      const binding = sqliteBindingProblem();
      if (binding) throw binding;
      const { runMcpStdio } = await import("../../mcp/index.js");
      // stdout carries the protocol: nothing else may be printed there.
      await runMcpStdio(ws, flags.provider ? { provider: flags.provider } : {});
      // The client is gone: do not linger for a background embedding pass (each batch is its
      // own transaction, and the next query's sync picks up where it stopped).
      process.exit(process.exitCode ?? 0);
    });
}
