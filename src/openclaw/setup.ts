import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { CONFIG_FILE } from "../workspace/config.js";
import { MembankError } from "../workspace/errors.js";
import { initWorkspace } from "../workspace/init.js";
import { NIGHTLY_CRON } from "../workspace/schedule-default.js";
import { retainBlockState, upsertRetainBlock } from "./agents-block.js";
import { getPath, type OpenClawContext } from "./context.js";
import { lastLine, mustRunOpenClaw, runOpenClaw } from "./run.js";

export const PLUGIN_ID = "membank";
export const MCP_SERVER = "membank";
export const CRON_KEY = "membank-nightly";
export const MCP_TOOLS = ["memory_recall", "memory_entity"];

export interface SetupOptions {
  /** Wire membank in as an MCP server instead of the plugin. */
  mcp?: boolean;
  /** Add the nightly cron job (default true; it needs a running Gateway). */
  cron?: boolean;
  cronExpr?: string;
  tz?: string;
}

export interface SetupStep {
  id: string;
  /** What changes, in one line. */
  summary: string;
  /** Already in place: nothing to do. */
  done: boolean;
  /** The exact OpenClaw command, when the change goes through OpenClaw's CLI. */
  command?: string[];
  /** Set when that command rewrites OpenClaw's config file (all but the Gateway's cron job). */
  writesConfig?: true;
  /** The file written, when the change is a file edit. */
  file?: string;
  apply: () => Promise<void>;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** What the plugin's config must hold: membank's CLI, its node, the workspace (the user's other keys as written). */
export function pluginConfig(ctx: OpenClawContext): Record<string, unknown> {
  const current = record(getPath(ctx.written, `plugins.entries.${PLUGIN_ID}.config`));
  return { ...current, membank: ctx.cli, node: ctx.node, workspace: ctx.workspace };
}

/** The plugin's config already holds `cfg`: as written, or once OpenClaw expands its `${VAR}`s. */
function pluginConfigDone(ctx: OpenClawContext, cfg: Record<string, unknown>): boolean {
  const at = `plugins.entries.${PLUGIN_ID}.config`;
  const resolved = record(getPath(ctx.config, at));
  return (
    sameJson(getPath(ctx.written, at), cfg) ||
    sameJson(resolved, { ...resolved, membank: ctx.cli, node: ctx.node, workspace: ctx.workspace })
  );
}

/** Keys of a remote (HTTP/SSE) MCP server: they cannot sit beside membank's stdio command. */
const REMOTE_MCP_KEYS = ["url", "transport", "headers", "auth", "sslVerify", "clientCert", "clientKey"];

/** The user's own keys of an existing "membank" MCP entry (its `env`, `cwd`…), `${VAR}`s as written. */
function userMcpKeys(config: Record<string, unknown>): Record<string, unknown> {
  const own = { ...record(getPath(config, `mcp.servers.${MCP_SERVER}`)) };
  for (const k of [...REMOTE_MCP_KEYS, "command", "args", "requestTimeoutMs", "toolFilter"]) delete own[k];
  return own;
}

/**
 * The MCP server entry: absolute node and CLI (the Node 20/24 split), 120 s per request, our
 * tools only; what the user added to an entry of that name (an `env` with an API key's
 * `${VAR}`, a `cwd`) stays, as written.
 */
export function mcpServerEntry(
  ctx: OpenClawContext,
  config: Record<string, unknown> = ctx.written,
): Record<string, unknown> {
  return {
    ...userMcpKeys(config),
    command: ctx.node,
    args: [ctx.cli, "mcp", "--workspace", ctx.workspace],
    requestTimeoutMs: 120_000,
    toolFilter: { include: MCP_TOOLS },
  };
}

/** What setup --mcp says it does: add, or replace the user's entry of that name (and what of it stays). */
function mcpSummary(ctx: OpenClawContext): string {
  const what = `(${ctx.node} ${ctx.cli} mcp; 120 s timeout; tools ${MCP_TOOLS.join(", ")})`;
  if (getPath(ctx.written, `mcp.servers.${MCP_SERVER}`) === undefined) return `add MCP server "${MCP_SERVER}" ${what}`;
  const kept = Object.keys(userMcpKeys(ctx.written));
  return `update MCP server "${MCP_SERVER}" ${what}${kept.length > 0 ? `, keeping its ${kept.join(", ")}` : ""}`;
}

/**
 * The nightly job's argv: `membank run nightly`, where exit 3 ("nothing to do") is a success.
 * With `tz` (setup's --tz, the zone the job fires in) membank runs in that zone too, so its
 * "today" and the chat digests' day boundaries are the user's days, not the server's.
 */
export function nightlyArgv(ctx: OpenClawContext, tz?: string): string[] {
  const run = '"$0" "$1" run nightly --workspace "$2"; c=$?; if [ "$c" -eq 3 ]; then exit 0; fi; exit "$c"';
  return tz
    ? ["/bin/sh", "-c", `TZ="$3"; export TZ; ${run}`, ctx.node, ctx.cli, ctx.workspace, tz]
    : ["/bin/sh", "-c", run, ctx.node, ctx.cli, ctx.workspace];
}

function openClawStep(ctx: OpenClawContext, id: string, summary: string, done: boolean, command: string[]): SetupStep {
  return {
    id,
    summary,
    done,
    command,
    writesConfig: true,
    apply: async () => void (await mustRunOpenClaw(ctx.runner, command)),
  };
}

/** Every change setup would make, in order, each marked done when it is already in place. */
export async function planSetup(ctx: OpenClawContext, opts: SetupOptions = {}): Promise<SetupStep[]> {
  const steps: SetupStep[] = [];
  const ws = ctx.workspace;

  steps.push({
    id: "workspace",
    summary: `make ${ws} a membank workspace (membank init: memory/, bank/, ${CONFIG_FILE}; never overwrites)`,
    done: existsSync(path.join(ws, CONFIG_FILE)),
    file: path.join(ws, CONFIG_FILE),
    apply: async () => void (await initWorkspace(ws)),
  });

  if (opts.mcp) {
    const entry = mcpServerEntry(ctx);
    steps.push(
      openClawStep(
        ctx,
        "mcp",
        mcpSummary(ctx),
        sameJson(getPath(ctx.written, `mcp.servers.${MCP_SERVER}`), entry) ||
          sameJson(getPath(ctx.config, `mcp.servers.${MCP_SERVER}`), mcpServerEntry(ctx, ctx.config)),
        ["mcp", "set", MCP_SERVER, JSON.stringify(entry)],
      ),
    );
  } else {
    const paths = getPath(ctx.config, "plugins.load.paths");
    const linked = Array.isArray(paths) && paths.includes(ctx.pluginDir);
    steps.push(
      openClawStep(ctx, "plugin", `install the membank plugin (linked from ${ctx.pluginDir})`, linked, [
        "plugins",
        "install",
        "--link",
        "--force",
        "--accept-capabilities",
        ctx.pluginDir,
      ]),
    );
    // `openclaw plugins disable` and `uninstall` leave `enabled: false`, which a new install keeps.
    const disabled = getPath(ctx.config, `plugins.entries.${PLUGIN_ID}.enabled`) === false;
    steps.push(
      openClawStep(
        ctx,
        "plugin-enabled",
        disabled ? "enable the membank plugin (its entry says enabled: false)" : "the membank plugin is not disabled",
        !disabled,
        ["plugins", "enable", PLUGIN_ID, "--accept-capabilities"],
      ),
    );
    const cfg = pluginConfig(ctx);
    steps.push(
      openClawStep(
        ctx,
        "plugin-config",
        `point the plugin at membank (${ctx.node} ${ctx.cli}) and the workspace`,
        pluginConfigDone(ctx, cfg),
        ["config", "set", `plugins.entries.${PLUGIN_ID}.config`, JSON.stringify(cfg), "--strict-json"],
      ),
    );
  }

  // As written: an entry such as "${VAULT}/daily" goes back as "${VAULT}/daily", not as its value.
  const extra = getPath(ctx.written, "memory.search.extraPaths");
  const current = Array.isArray(extra) ? extra : [];
  const hasBank = current.some((p) => p === "bank" || (p && typeof p === "object" && record(p).path === "bank"));
  steps.push(
    openClawStep(ctx, "extra-paths", "let memory_search read the bank: memory.search.extraPaths += bank", hasBank, [
      "config",
      "set",
      "memory.search.extraPaths",
      JSON.stringify([...current, "bank"]),
      "--strict-json",
    ]),
  );

  const agentsFile = path.join(ws, "AGENTS.md");
  const agentsText = await readFile(agentsFile, "utf8").catch(() => "");
  const state = retainBlockState(agentsText, ctx.guidance);
  steps.push({
    id: "agents-md",
    summary: `${state === "stale" ? "refresh" : "add"} the Retain paragraph in ${agentsFile} (marked block)`,
    done: state === "current",
    file: agentsFile,
    apply: async () => {
      // Re-read: the agent may have written AGENTS.md since the plan was made.
      const now = await readFile(agentsFile, "utf8").catch(() => "");
      await writeFileAtomic(agentsFile, upsertRetainBlock(now, ctx.guidance));
    },
  });

  if (opts.cron !== false) {
    const command = [
      "cron",
      "add",
      "--name",
      "membank nightly",
      "--declaration-key",
      CRON_KEY,
      "--cron",
      opts.cronExpr ?? NIGHTLY_CRON,
      ...(opts.tz ? ["--tz", opts.tz] : []),
      "--command-argv",
      JSON.stringify(nightlyArgv(ctx, opts.tz)),
      "--description",
      "membank: sessions, facts, bank pages, git commit, index (exit 3 = nothing to do)",
      "--no-deliver",
      "--json",
    ];
    steps.push({
      id: "cron",
      summary: `add the nightly job "membank nightly" (${opts.cronExpr ?? NIGHTLY_CRON}; idempotent by key ${CRON_KEY})`,
      done: false,
      command,
      apply: async () => {
        const res = await runOpenClaw(ctx.runner, command);
        // cron add prints {"ok": false, ...} on some failures while exiting 0.
        if (res.code !== 0 || /"ok":\s*false/.test(res.stdout)) {
          throw new MembankError(
            `openclaw cron add failed: ${lastLine(res)}. Start the Gateway (openclaw gateway) and run setup again, or pass --no-cron`,
            { code: "EOPENCLAW" },
          );
        }
      },
    });
  }
  return steps;
}

/**
 * When the plugin and the MCP server are both wired (setup once, then setup --mcp, or the other
 * way round), the agent is offered memory_recall and memory_entity twice: setup leaves both in
 * place and says which command keeps only the one just chosen.
 */
export function bothWiredNote(ctx: OpenClawContext, mcp: boolean): string | undefined {
  const paths = getPath(ctx.config, "plugins.load.paths");
  const plugin =
    Array.isArray(paths) &&
    paths.includes(ctx.pluginDir) &&
    getPath(ctx.config, `plugins.entries.${PLUGIN_ID}.enabled`) !== false;
  const server = getPath(ctx.config, `mcp.servers.${MCP_SERVER}`) !== undefined;
  const tools = MCP_TOOLS.join(" and ");
  if (mcp && plugin) {
    return `note: the membank plugin is enabled too, so the agent is offered ${tools} twice; \`openclaw plugins disable ${PLUGIN_ID}\` keeps only the MCP server's`;
  }
  if (!mcp && server) {
    return `note: MCP server "${MCP_SERVER}" is configured too, so the agent is offered ${tools} twice; \`openclaw mcp unset ${MCP_SERVER}\` keeps only the plugin's`;
  }
  return undefined;
}

/** One line per step, with the exact command or file, for --dry-run and the report. */
export function describeStep(step: SetupStep, dryRun: boolean): string[] {
  const tag = step.done ? "ok  " : dryRun ? "will" : "did ";
  const out = [`[${tag}] ${step.summary}`];
  if (!step.done && step.command) out.push(`       $ openclaw ${step.command.map(shellQuote).join(" ")}`);
  else if (!step.done && step.file) out.push(`       write ${step.file}`);
  return out;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
