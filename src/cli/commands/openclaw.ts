import type { Command } from "commander";
import { MembankError } from "../../workspace/errors.js";
import { NIGHTLY_CRON } from "../../workspace/schedule-default.js";
import { printJson } from "../shared.js";

interface CommonFlags {
  openclaw?: string;
  workspace?: string;
  agent?: string;
  profile?: string;
  json?: boolean;
}

interface SetupFlags extends CommonFlags {
  dryRun?: boolean;
  mcp?: boolean;
  cron?: boolean;
  cronExpr?: string;
  tz?: string;
  dropComments?: boolean;
}

function common(cmd: Command): Command {
  return cmd
    .option("--openclaw <path>", "OpenClaw's CLI (default: $OPENCLAW_BIN, else openclaw on PATH)")
    .option(
      "-w, --workspace <dir>",
      "the agent's workspace (default: the workspace OpenClaw gives the agent, see --agent)",
    )
    .option("--agent <id>", "which OpenClaw agent (default: the one marked default, or the only one)")
    .option("--profile <name>", "OpenClaw's --profile: its state in ~/.openclaw-<name>")
    .option("--json", "print JSON");
}

function contextOptions(flags: CommonFlags) {
  return {
    ...(flags.openclaw ? { openclaw: flags.openclaw } : {}),
    ...(flags.workspace ? { workspace: flags.workspace } : {}),
    ...(flags.agent ? { agent: flags.agent } : {}),
    ...(flags.profile ? { profile: flags.profile } : {}),
  };
}

export function registerOpenClaw(program: Command): void {
  const oc = program.command("openclaw").description("wire membank into OpenClaw 2026.9 (setup, status)");

  common(
    oc
      .command("setup")
      .description(
        "install the membank plugin (or with --mcp the MCP server), add bank/ to memory_search, the Retain paragraph " +
          "to AGENTS.md and the nightly cron job; every OpenClaw config change goes through OpenClaw's own CLI",
      )
      .option("--dry-run", "print every change and the exact command, change nothing")
      .option("--mcp", "add membank as an MCP server instead of installing the plugin")
      .option("--no-cron", "skip the nightly cron job (it needs a running Gateway)")
      .option("--cron-expr <expr>", "when the nightly job runs (after OpenClaw's dreaming at 03:00)", NIGHTLY_CRON)
      .option("--tz <zone>", "IANA time zone of the cron expression (default: the Gateway's)")
      .option(
        "--drop-comments",
        "go ahead on an openclaw.json with comments: OpenClaw writes it back as plain JSON, without them",
      ),
  ).action(async (flags: SetupFlags) => {
    const {
      assertOpenClawConfigValid,
      bothWiredNote,
      commentsLostByWrites,
      describeStep,
      includeBlocksWrites,
      openClawContext,
      openClawVersion,
      planSetup,
      unsupportedVersion,
    } = await import("../../openclaw/index.js");
    const ctx = await openClawContext(contextOptions(flags));
    const version = await openClawVersion(ctx.runner);
    const unsupported = await unsupportedVersion(ctx.pluginDir, version);
    if (unsupported) throw new MembankError(`${ctx.runner.bin}: ${unsupported}`, { code: "EOPENCLAWVERSION" });
    const steps = await planSetup(ctx, {
      ...(flags.mcp ? { mcp: true } : {}),
      cron: flags.cron !== false,
      ...(flags.cronExpr ? { cronExpr: flags.cronExpr } : {}),
      ...(flags.tz ? { tz: flags.tz } : {}),
    });
    // Before anything changes: a config OpenClaw refuses would fail each of its steps midway.
    if (steps.some((s) => !s.done && s.command)) {
      const blocked = includeBlocksWrites(ctx.configFile, ctx.config);
      if (blocked) throw new MembankError(blocked, { code: "EOPENCLAWCONFIG" });
    }
    // The person's comments in openclaw.json: kept, or gone only when they said so.
    const comments =
      steps.some((s) => !s.done && s.writesConfig) && !flags.dropComments
        ? commentsLostByWrites(ctx.configFile)
        : undefined;
    if (comments && !flags.dryRun) throw new MembankError(comments, { code: "EOPENCLAWCOMMENTS" });
    if (steps.some((s) => !s.done && s.command)) {
      await assertOpenClawConfigValid(ctx);
    }
    const log = (line: string) => {
      if (!flags.json) process.stdout.write(`${line}\n`);
    };
    log(`OpenClaw ${version} (${ctx.runner.bin}); state ${ctx.stateDir}; workspace ${ctx.workspace}`);
    if (ctx.workspaceNote) log(ctx.workspaceNote);
    const done: string[] = [];
    for (const step of steps) {
      if (!flags.dryRun && !step.done) {
        try {
          await step.apply();
        } catch (error) {
          if (error instanceof MembankError && done.length > 0) {
            throw new MembankError(`${error.message} (already done: ${done.join(", ")})`, { code: error.code });
          }
          throw error;
        }
        done.push(step.id);
      }
      for (const line of describeStep(step, flags.dryRun === true)) log(line);
    }
    const todo = steps.filter((s) => !s.done).map((s) => s.id);
    // From the config as it was read: a plugin or server that was wired before this run.
    const note = bothWiredNote(ctx, flags.mcp === true);
    if (note) log(note);
    if (comments)
      log(`note: without --drop-comments setup stops here: ${comments.replace(/; nothing was changed$/, "")}`);
    if (flags.json) {
      printJson({
        dryRun: flags.dryRun === true,
        workspace: ctx.workspace,
        steps: steps.map((s) => ({
          id: s.id,
          summary: s.summary,
          state: s.done ? "ok" : flags.dryRun ? "planned" : "done",
          ...(s.command ? { command: ["openclaw", ...s.command] } : {}),
          ...(s.file ? { file: s.file } : {}),
        })),
        ...(note ? { note } : {}),
        ...(comments ? { comments } : {}),
        ...(ctx.workspaceNote ? { workspaceNote: ctx.workspaceNote } : {}),
      });
    } else if (todo.length === 0) log("Nothing to do: membank is wired into OpenClaw.");
    else if (flags.dryRun) log(`Dry run: ${todo.length} change(s) above, nothing written.`);
    else log("Restart the Gateway (or run `openclaw plugins reload membank`) to apply.");
  });

  common(
    oc
      .command("status")
      .description("show what is wired (plugin, MCP server, extraPaths, AGENTS.md block, nightly job) and what is not")
      .option("--no-cron", "do not ask the Gateway for the nightly job"),
  ).action(async (flags: CommonFlags & { cron?: boolean }) => {
    const { formatStatus, openClawContext, openClawStatus } = await import("../../openclaw/index.js");
    const ctx = await openClawContext(contextOptions(flags));
    const status = await openClawStatus(ctx, { cron: flags.cron !== false });
    if (flags.json) printJson(status);
    else process.stdout.write(`${formatStatus(status)}\n`);
  });
}
