import type { Command } from "commander";
import { displaySafe } from "../../markdown/display.js";
import type { ReflectReport } from "../../reflect/index.js";
import { MembankError } from "../../workspace/errors.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface ReflectFlags {
  workspace?: string;
  since?: string;
  all?: boolean;
  dryRun?: boolean;
  commit?: boolean;
  gitInit?: boolean;
  acceptDeletedLogs?: boolean;
  json?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The human summary of a run. */
export function formatReflectReport(r: ReflectReport): string {
  const out: string[] = [];
  const scope = r.mode === "incremental" ? `logs since ${r.since}` : "all logs";
  out.push(
    `${plural(r.factsRead, "fact")} read (${scope}), ${r.factsTotal} in the bank, ${r.factsAdded} new; ` +
      `${plural(r.pagesWritten.length, "page")} ${r.diff !== undefined ? "would change" : "written"}`,
  );
  for (const p of r.pagesWritten) out.push(`  ${p}`);
  if (r.noRetainNote) out.push(r.noRetainNote);
  for (const o of r.opinionsCreated) {
    const c =
      o.initial === o.confidence ? o.confidence.toFixed(2) : `${o.initial.toFixed(2)} -> ${o.confidence.toFixed(2)}`;
    out.push(`new opinion ${o.entities.map((e) => `@${e}`).join(", ")}: ${o.statement} (${c})`);
  }
  for (const c of r.opinionsChanged) {
    out.push(
      `confidence ${c.entities.map((e) => `@${e}`).join(", ")}: ${c.statement} ${c.from.toFixed(2)} -> ${c.to.toFixed(2)}`,
    );
  }
  for (const a of r.adoptedEdits) out.push(`took your hand edit of ${a} in bank/opinions.md as the new state`);
  for (const c of r.conflicts) out.push(`conflict ${c.path} [${c.region}]: ${c.reason}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  if (r.commit) out.push(`committed ${r.commit.slice(0, 12)}`);
  else if (r.commitsOff) out.push(`no commit: ${r.commitsOff}`);
  else if (r.pagesWritten.length === 0) out.push("nothing changed, no commit");
  return `${out.join("\n")}\n`;
}

export function registerReflect(program: Command): void {
  const cmd = program
    .command("reflect")
    .description(
      "turn facts into bank pages (entities, opinions with gradual confidence, world/experience/observations, proposals) and commit them",
    );
  workspaceOption(cmd)
    .option(
      "--since <date>",
      "read only logs dated on or after DATE (YYYY-MM-DD, or an age like 7d); older facts come from the last run",
    )
    .option("--all", "read every log (the default)")
    .option("--dry-run", "print the diff it would make and write nothing")
    .option("--no-commit", "write the pages but do not commit")
    .option("--git-init", "run git init when the workspace is not a repository")
    .option(
      "--accept-deleted-logs",
      "many daily logs gone since the last run were deleted on purpose: take their facts out of the bank",
    )
    .option("--json", "print the run summary as JSON")
    .action(async (flags: ReflectFlags) => {
      if (flags.since !== undefined && flags.all) {
        throw new MembankError("--since and --all exclude each other", { exitCode: 2 });
      }
      const { reflect } = await import("../../reflect/index.js");
      const { createLlm } = await import("../../llm/index.js");
      const { acquireWorkspaceLock } = await import("../../workspace/lock.js");
      const ws = await loadWorkspace(flags);
      // The same lock as `membank run`: a manual reflect never races the nightly job. A dry
      // run writes nothing, so it needs no lock (and creates no .memory/).
      const lock = flags.dryRun ? undefined : await acquireWorkspaceLock(ws, { purpose: "reflect" });
      let llm: Awaited<ReturnType<typeof createLlm>> | undefined;
      try {
        llm = await createLlm(ws);
        const report = await reflect(ws, {
          ...(flags.since === undefined ? {} : { since: flags.since }),
          ...(flags.all ? { all: true } : {}),
          ...(flags.dryRun ? { dryRun: true } : {}),
          ...(flags.commit === false ? { commit: false } : {}),
          ...(flags.gitInit ? { gitInit: true } : {}),
          ...(flags.acceptDeletedLogs ? { acceptDeletedLogs: true } : {}),
          ...(llm.provider === "none" ? {} : { llm }),
        });
        if (flags.json) printJson(report);
        else {
          if (report.diff) process.stdout.write(displaySafe(report.diff));
          process.stdout.write(displaySafe(formatReflectReport(report)));
          for (const d of report.diagnostics)
            process.stderr.write(displaySafe(`${d.path}:${d.line}: ${d.reason} (skipped)\n`));
        }
      } finally {
        await llm?.close?.();
        await lock?.release();
      }
    });
}
