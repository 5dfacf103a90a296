import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadOpenClawConfigAsWritten, substituteEnv } from "../sessions/openclaw-config.js";
import { withOpenClawDotEnv } from "../sessions/openclaw-dotenv.js";
import {
  openClawAgents,
  openClawConfigPath,
  openClawHome,
  openClawStateDir,
  profileName,
} from "../sessions/openclaw-locate.js";
import { MembankError } from "../workspace/errors.js";
import { cliScript, packageRoot } from "../workspace/init.js";
import { findOpenClawBin, type OpenClawRunner } from "./run.js";

/** Everything setup and status need to know, found once. */
export interface OpenClawContext {
  runner: OpenClawRunner;
  stateDir: string;
  configFile: string;
  /** OpenClaw's config as read (top-level keys plugins, mcp, memory, agents at least). */
  config: Record<string, unknown>;
  /** The same with `${VAR}`s as written: where a value setup writes back (with its change) comes from. */
  written: Record<string, unknown>;
  workspace: string;
  /**
   * Set when the config gives that workspace as a relative path: OpenClaw resolves it from the
   * Gateway's working folder, setup from its own, and the two may differ (said, not guessed).
   */
  workspaceNote?: string;
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
  /** Which of OpenClaw's agents to wire in (default: the one that owns the default workspace). */
  agent?: string;
  /** OpenClaw's `--profile`: its state in `~/.openclaw-<profile>` (see profileEnv). */
  profile?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The environment `openclaw --profile <name>` runs with (OpenClaw's applyCliProfileEnv):
 * OPENCLAW_PROFILE, and OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH in `~/.openclaw-<name>` unless
 * already set. Every OpenClaw command setup runs, and membank's own reading, then see that profile.
 */
export function profileEnv(profile: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const name = profileName(profile);
  if (!name) {
    if (profile.trim().toLowerCase() === "default") return env;
    throw new MembankError(
      `--profile ${JSON.stringify(profile)}: use letters, numbers, "_" and "-" only (as OpenClaw)`,
    );
  }
  const state = env.OPENCLAW_STATE_DIR?.trim() || path.join(openClawHome({ env }), `.openclaw-${name}`);
  return {
    ...env,
    OPENCLAW_PROFILE: name,
    OPENCLAW_STATE_DIR: state,
    OPENCLAW_CONFIG_PATH: env.OPENCLAW_CONFIG_PATH?.trim() || path.join(state, "openclaw.json"),
  };
}

/**
 * The workspace of `agent`, else of the agent that owns OpenClaw's default workspace, else of
 * its system agent (what OpenClaw 2026.9 migrates a `default: true` marker to).
 */
function agentWorkspace(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  configFile: string,
  agent: string | undefined,
): { workspace: string; setting?: string } {
  const agents = openClawAgents(config, { env });
  const id = agent?.trim().toLowerCase() ?? agents.owner ?? agents.system;
  if (id && agents.ids.includes(id)) {
    const setting = agents.workspaceSettingOf(id);
    return { workspace: agents.workspaceOf(id), ...(setting !== undefined ? { setting } : {}) };
  }
  const list = agents.ids.join(", ");
  throw new MembankError(
    id
      ? `${configFile}: OpenClaw has no agent "${id}" (agents: ${list}); pass one of them to --agent`
      : `${configFile}: ${agents.ids.length} agents (${list}) and none is the default: pass --agent <id> or --workspace <dir>`,
    { code: "EOPENCLAWAGENT" },
  );
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

export async function openClawContext(opts: ContextOptions = {}): Promise<OpenClawContext> {
  const env = opts.profile ? profileEnv(opts.profile, opts.env ?? process.env) : (opts.env ?? process.env);
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
  // Read before anything changes: a config OpenClaw cannot read stops setup here, untouched.
  // `${VAR}`s as OpenClaw expands them: its .env files fill what the shell leaves unset
  // (OpenClaw's own commands, run with `env`, read those files themselves).
  const configEnv = withOpenClawDotEnv(env, { stateDir, home: openClawHome({ env }) });
  const written = loadOpenClawConfigAsWritten(configFile) ?? {};
  const config = substituteEnv(written, configEnv) as Record<string, unknown>;
  const found = opts.workspace ? undefined : agentWorkspace(config, configEnv, configFile, opts.agent);
  const workspace = found?.workspace ?? path.resolve(opts.workspace!);
  // A relative setting (not `~…`, not absolute) is read from another folder by the Gateway.
  const setting = found?.setting;
  const relative = setting !== undefined && !setting.startsWith("~") && !path.isAbsolute(setting) ? setting : undefined;
  const workspaceNote = relative
    ? `note: ${configFile} gives the workspace as a relative path, "${relative}": OpenClaw takes it from the ` +
      `Gateway's working folder, setup took it from this shell's (${workspace}); write it as ~/… or an absolute ` +
      "path, or pass --workspace, so both are the same folder"
    : undefined;
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
    written,
    workspace,
    ...(workspaceNote ? { workspaceNote } : {}),
    pluginDir,
    cli: cliScript(root) ?? path.join(root, "dist", "membank.mjs"),
    node: process.execPath,
    guidance: await readFile(guidanceFile, "utf8"),
  };
}
