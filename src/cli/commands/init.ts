import type { Command } from "commander";
import { printJson, workspaceOption } from "../shared.js";

interface InitFlags {
  workspace?: string;
  json?: boolean;
  git?: boolean;
}

const GIT_NOTE: Record<string, string> = {
  initialized: "git: initialized a new repository",
  existing: "git: already a repository",
  parent: "git: inside the repository at",
  disabled: "git: skipped (--no-git)",
  unavailable: "git: could not run git, no repository made",
};

export function registerInit(program: Command): void {
  const cmd = program
    .command("init")
    .description(
      "create a workspace (memory/, bank/, MEMORY.md, config, .gitignore, templates, git); never overwrites a file",
    )
    .argument("[dir]", "folder to create or complete (default: --workspace, $MEMBANK_WORKSPACE, or .)");
  workspaceOption(cmd)
    .option("--no-git", "do not run git init")
    .option("--json", "print the report as JSON")
    .action(async (dir: string | undefined, flags: InitFlags) => {
      const { initWorkspace } = await import("../../workspace/init.js");
      const target = dir ?? flags.workspace ?? process.env.MEMBANK_WORKSPACE ?? ".";
      const report = await initWorkspace(target, { git: flags.git !== false });
      if (flags.json) {
        printJson(report);
        return;
      }
      const out: string[] = [`Workspace: ${report.root}`];
      for (const p of report.created) out.push(`  created  ${p}`);
      for (const p of report.updated) out.push(`  updated  ${p} (added .memory/)`);
      for (const p of report.skipped) out.push(`  kept     ${p} (exists, not touched)`);
      let git = GIT_NOTE[report.git] ?? `git: ${report.git}`;
      if (report.git === "parent") git += ` ${report.gitRoot}`;
      if (report.gitError) git += ` (${report.gitError})`;
      out.push(git);
      if (report.created.length === 0 && report.updated.length === 0) out.push("Nothing to do: already a workspace.");
      out.push(
        "",
        "Next: write today's log in memory/YYYY-MM-DD.md with a '## Retain' section,",
        `then run: membank facts --workspace ${JSON.stringify(report.root)}`,
        "membank.config.json is {}: every default applies; `membank doctor` shows what is in effect.",
      );
      process.stdout.write(`${out.join("\n")}\n`);
    });
}
