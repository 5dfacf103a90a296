import type { Command } from "commander";
import { MembankError } from "../../workspace/errors.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface DriverFlags {
  workspace?: string;
  install?: boolean;
  json?: boolean;
}

export function registerMergeDriver(program: Command): void {
  const cmd = program
    .command("merge-driver [base] [ours] [theirs] [page]")
    .description(
      "git merge driver for bank pages (git calls it: merge-driver %O %A %B %P); --install registers it in this clone and .gitattributes",
    );
  workspaceOption(cmd)
    .option(
      "--install",
      "register the driver: git config merge.membank.* and `bank/** merge=membank` in .gitattributes",
    )
    .option("--json", "print the result as JSON")
    .action(
      async (
        base: string | undefined,
        ours: string | undefined,
        theirs: string | undefined,
        page: string | undefined,
        flags: DriverFlags,
      ) => {
        if (flags.install) {
          const ws = await loadWorkspace(flags);
          const { installMergeDriver } = await import("../../workspace/merge-driver.js");
          const { cliScript } = await import("../../workspace/init.js");
          const cli = cliScript();
          if (cli === undefined)
            throw new MembankError("membank's CLI script not found (is membank built? run pnpm build)");
          const r = await installMergeDriver(ws.root, cli);
          if (flags.json) printJson(r);
          else
            process.stdout.write(
              r.changed.length
                ? `merge driver set up: ${r.changed.join(", ")} (commit .gitattributes so other clones use it too)\n`
                : "merge driver already set up\n",
            );
          return;
        }
        if (base === undefined || ours === undefined || theirs === undefined || page === undefined) {
          throw new MembankError("merge-driver needs %O %A %B %P (git passes them), or --install", { exitCode: 2 });
        }
        const { plainMerge, runMergeDriver } = await import("../../reflect/driver.js");
        let r: { clean: boolean; stale: string[]; notes: string[] };
        try {
          const ws = await loadWorkspace(flags);
          r = await runMergeDriver(ws, { base, ours, theirs, page, cwd: process.cwd() });
        } catch (error) {
          // Never leave git with half a merge: fall back to its own text merge, markers and all.
          const clean = await plainMerge({ base, ours, theirs });
          r = {
            clean,
            stale: [],
            notes: [`${page}: ${(error as Error).message.replace(/\.$/, "")}; merged as plain text`],
          };
        }
        for (const n of r.notes) process.stderr.write(`membank: ${n}\n`);
        if (flags.json) printJson(r);
        if (!r.clean) process.exitCode = 1;
      },
    );
}
