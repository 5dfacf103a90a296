import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expandHome } from "../sessions/discover.js";
import { openClawConfigPath, openClawStateDir, parseOpenClawConfig } from "../sessions/openclaw-locate.js";
import { MembankError } from "../workspace/errors.js";
import { cliScript, packageRoot } from "../workspace/init.js";
import { findOpenClawBin, type OpenClawRunner, runOpenClaw } from "./run.js";

/** Everything setup and status need to know, found once. */
export interface OpenClawContext {
  runner: OpenClawRunner;
  stateDir: string;
  configFile: string;
  /** OpenClaw's config as read (top-level keys plugins, mcp, memory, agents at least). */
  config: Record<string, unknown>;
  workspace: string;
  /** membank's companion plugin folder (openclaw-plugin/ in membank's package). */
  pluginDir: string;
  /** membank's CLI script and the node that runs it (the one its better-sqlite3 was built for). */
  cli: string;
  node: string;
  /** The Retain paragraph (openclaw-plugin/retain-guidance.md, shared with the plugin's prompt). */
  guidance: string;
}

export interface ContextOptions {
  openclaw?: string;
  workspace?: string;
  env?: NodeJS.ProcessEnv;
}

/** A value at a dot path of a parsed config. */
export function getPath(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const key of dotted.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * OpenClaw's config. The file is JSON5; plain JSON (what OpenClaw itself writes) is parsed
 * directly, anything else is asked of `openclaw config get` key by key (slower, always right).
 */
async function readOpenClawConfig(runner: OpenClawRunner, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return {};
  }
  const parsed = parseOpenClawConfig(text);
  if (parsed) return parsed;
  // JSON5 beyond comments and trailing commas (unquoted keys, single quotes): ask OpenClaw.
  const out: Record<string, unknown> = {};
  for (const key of ["plugins", "mcp", "memory", "agents"]) {
    const res = await runOpenClaw(runner, ["config", "get", key, "--json"]);
    if (res.code !== 0) continue;
    try {
      out[key] = JSON.parse(res.stdout);
    } catch {
      // unset or not JSON: leave it out
    }
  }
  return out;
}

export async function openClawContext(opts: ContextOptions = {}): Promise<OpenClawContext> {
  const env = opts.env ?? process.env;
  const bin = opts.openclaw ? path.resolve(opts.openclaw) : findOpenClawBin(env);
  if (!bin) {
    throw new MembankError(
      "OpenClaw not found: no `openclaw` on PATH. Install it (npm i -g openclaw@2026.9.6) or pass --openclaw <path>",
      { code: "ENOOPENCLAW" },
    );
  }
  const runner: OpenClawRunner = { bin, env };
  const stateDir = openClawStateDir({ env });
  const configFile = openClawConfigPath({ env });
  const config = await readOpenClawConfig(runner, configFile);
  const configured = getPath(config, "agents.defaults.workspace");
  const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
  const home = env.HOME ?? os.homedir();
  const workspace = path.resolve(
    opts.workspace ??
      (typeof configured === "string" ? expandHome(configured, home) : undefined) ??
      (fromEnv ? expandHome(fromEnv, home) : path.join(stateDir, "workspace")),
  );
  const root = packageRoot();
  if (!root) throw new MembankError("membank's package folder not found (is membank installed whole?)");
  const pluginDir = path.join(root, "openclaw-plugin");
  const guidanceFile = path.join(pluginDir, "retain-guidance.md");
  if (!existsSync(guidanceFile)) {
    throw new MembankError(
      `${guidanceFile} is missing: membank's openclaw-plugin/ folder is incomplete; reinstall membank`,
    );
  }
  return {
    runner,
    stateDir,
    configFile,
    config,
    workspace,
    pluginDir,
    cli: cliScript(root) ?? path.join(root, "dist", "membank.mjs"),
    node: process.execPath,
    guidance: await readFile(guidanceFile, "utf8"),
  };
}
