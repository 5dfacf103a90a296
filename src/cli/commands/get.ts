import type { Command } from "commander";
import type { GetResult } from "../../index/get.js";
import { displaySafe } from "../../markdown/display.js";
import { askWarmServer, intFlag, loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface GetFlags {
  workspace?: string;
  from?: number;
  lines?: number;
  json?: boolean;
}

export function registerGet(program: Command): void {
  const cmd = program
    .command("get")
    .description(
      "print lines of a memory file (memory_get: MEMORY.md, USER.md, DREAMS.md, memory/**.md, bank/**.md only)",
    )
    .argument("<path>", "workspace-relative path, e.g. memory/2026-03-12.md");
  workspaceOption(cmd)
    .option("--from <n>", "first line, 1-based", intFlag("--from"))
    .option("--lines <m>", "number of lines", intFlag("--lines"))
    .option("--json", "print {path, text} as JSON")
    .action(async (file: string, flags: GetFlags) => {
      const range = {
        ...(flags.from !== undefined ? { from: flags.from } : {}),
        ...(flags.lines !== undefined ? { lines: flags.lines } : {}),
      };
      // A running `membank serve` answers too (same bytes); reading lines in-process is cheap either way.
      const res =
        (await askWarmServer<GetResult>(flags, { op: "get", path: file, ...range })) ??
        (await (await import("../../index/get.js")).getMemoryLines(await loadWorkspace(flags), file, range));
      if (flags.json) printJson(res);
      else process.stdout.write(res.text === "" ? "" : displaySafe(`${res.text}\n`));
    });
}
