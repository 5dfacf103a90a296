import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CONFIG_FILE } from "../workspace/config.js";
import { retainBlockState } from "./agents-block.js";
import { getPath, type OpenClawContext } from "./context.js";
import { runOpenClaw } from "./run.js";
import { CRON_KEY, MCP_SERVER, PLUGIN_ID } from "./setup.js";
import { openClawVersion, unsupportedVersion } from "./version.js";

export interface StatusItem {
  id: string;
  /** true wired, false not wired, null unknown (e.g. the Gateway is not running). */
  ok: boolean | null;
  detail: string;
}

export interface OpenClawStatus {
  openclaw: string;
  version?: string;
  stateDir: string;
  configFile: string;
  workspace: string;
  items: StatusItem[];
}

export interface StatusOptions {
  /** Ask the Gateway for the cron job (needs a running Gateway; default true). */
  cron?: boolean;
}

/** What is wired and what is not; reads only, changes nothing. */
export async function openClawStatus(ctx: OpenClawContext, opts: StatusOptions = {}): Promise<OpenClawStatus> {
  const items: StatusItem[] = [];
  const version = await openClawVersion(ctx.runner);
  const unsupported = await unsupportedVersion(ctx.pluginDir, version);
  items.push({ id: "version", ok: !unsupported, detail: unsupported ?? `OpenClaw ${version} is supported` });

  items.push({
    id: "workspace",
    ok: existsSync(path.join(ctx.workspace, CONFIG_FILE)),
    detail: `${ctx.workspace} ${existsSync(path.join(ctx.workspace, CONFIG_FILE)) ? "is" : "is not"} a membank workspace`,
  });

  const paths = getPath(ctx.config, "plugins.load.paths");
  const linked = Array.isArray(paths) && paths.includes(ctx.pluginDir);
  const entry = getPath(ctx.config, `plugins.entries.${PLUGIN_ID}`) as Record<string, unknown> | undefined;
  const enabled = linked && entry?.enabled !== false;
  items.push({
    id: "plugin",
    ok: enabled,
    detail: linked ? `plugin linked from ${ctx.pluginDir}${enabled ? "" : " but disabled"}` : "plugin not installed",
  });
  const cli = getPath(ctx.config, `plugins.entries.${PLUGIN_ID}.config.membank`);
  items.push({
    id: "plugin-config",
    ok: typeof cli === "string" && existsSync(cli),
    detail:
      typeof cli === "string"
        ? `plugin runs ${cli}${existsSync(cli) ? "" : " (missing: build membank, or run setup again)"}`
        : "plugin config has no membank path",
  });

  const server = getPath(ctx.config, `mcp.servers.${MCP_SERVER}`);
  items.push({
    id: "mcp",
    ok: server !== undefined,
    detail: server !== undefined ? `MCP server "${MCP_SERVER}" configured` : `no MCP server "${MCP_SERVER}" (optional)`,
  });

  const extra = getPath(ctx.config, "memory.search.extraPaths");
  const hasBank = Array.isArray(extra) && extra.some((p) => p === "bank" || (p as { path?: unknown })?.path === "bank");
  items.push({
    id: "extra-paths",
    ok: hasBank,
    detail: hasBank ? "memory_search reads bank/" : "memory.search.extraPaths lacks bank",
  });

  const agentsFile = path.join(ctx.workspace, "AGENTS.md");
  const state = retainBlockState(await readFile(agentsFile, "utf8").catch(() => ""), ctx.guidance);
  items.push({
    id: "agents-md",
    ok: state === "current",
    detail: `Retain paragraph in AGENTS.md: ${state}`,
  });

  if (opts.cron !== false) {
    const res = await runOpenClaw(ctx.runner, ["cron", "list", "--json"], 60_000);
    if (res.code !== 0 || /"ok":\s*false/.test(res.stdout)) {
      items.push({ id: "cron", ok: null, detail: "nightly job: unknown (the Gateway did not answer)" });
    } else {
      const found = res.stdout.includes(CRON_KEY) || res.stdout.includes("membank nightly");
      items.push({ id: "cron", ok: found, detail: found ? "nightly job scheduled" : "no nightly job" });
    }
  }

  return {
    openclaw: ctx.runner.bin,
    ...(version ? { version } : {}),
    stateDir: ctx.stateDir,
    configFile: ctx.configFile,
    workspace: ctx.workspace,
    items,
  };
}

export function formatStatus(s: OpenClawStatus): string {
  const mark = (ok: boolean | null) => (ok === null ? "[?]" : ok ? "[x]" : "[ ]");
  return [
    `openclaw: ${s.openclaw}${s.version ? ` (${s.version})` : ""}`,
    `state:    ${s.stateDir}`,
    `config:   ${s.configFile}`,
    `workspace: ${s.workspace}`,
    ...s.items.map((i) => `${mark(i.ok)} ${i.id}: ${i.detail}`),
  ].join("\n");
}
