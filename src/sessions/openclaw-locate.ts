import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { agentFolders, expandHome } from "./discover.js";
import { loadOpenClawConfig, OpenClawConfigError } from "./openclaw-config.js";
import { withOpenClawDotEnv } from "./openclaw-dotenv.js";

/** Where to look for OpenClaw: the environment and home directory (options, so tests never see the real HOME). */
export interface LocateOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** A state dir has `agents/<id>/agent/` or `agents/<id>/sessions/` (a folder merely named agents is not one). */
async function hasAgents(state: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(path.join(state, "agents"));
  } catch {
    return false;
  }
  for (const n of names) {
    if (await isDir(path.join(state, "agents", n, "agent"))) return true;
    if (await isDir(path.join(state, "agents", n, "sessions"))) return true;
  }
  return false;
}

/**
 * The home OpenClaw's paths start from: `$OPENCLAW_HOME` (a leading `~` is the OS home), else
 * the caller's `home`, `$HOME`, the OS home. Blank, "undefined" and "null" count as unset, as in OpenClaw.
 */
export function openClawHome(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const osHome = opts.home ?? env.HOME ?? os.homedir();
  const configured = env.OPENCLAW_HOME?.trim();
  if (!configured || configured === "undefined" || configured === "null") return osHome;
  return expandHome(configured, osHome);
}

/** Where Clawdbot (OpenClaw's earlier name) kept its state and config; OpenClaw 2026.9 still reads them. */
const LEGACY_STATE_DIRS = [".clawdbot"];
const CONFIG_FILES = ["openclaw.json", "clawdbot.json"];

/**
 * OpenClaw's state dir as its resolveStateDir (2026.9): `$OPENCLAW_STATE_DIR`, else `~/.openclaw`
 * when it exists, else a Clawdbot `~/.clawdbot` that exists, else `~/.openclaw`
 * (`--profile p` sets `$OPENCLAW_STATE_DIR` to `~/.openclaw-p`).
 */
export function openClawStateDir(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const home = openClawHome(opts);
  const configured = env.OPENCLAW_STATE_DIR?.trim();
  if (configured) return expandHome(configured, home);
  const current = path.join(home, ".openclaw");
  if (existsSync(current)) return current;
  return LEGACY_STATE_DIRS.map((d) => path.join(home, d)).find((d) => existsSync(d)) ?? current;
}

/**
 * OpenClaw's config file as its resolveConfigPath (2026.9): `$OPENCLAW_CONFIG_PATH`, else the
 * first that exists of `openclaw.json` and Clawdbot's `clawdbot.json` in the state dir (with no
 * `$OPENCLAW_STATE_DIR`: in `~/.openclaw`, then `~/.clawdbot`), else `<state dir>/openclaw.json`.
 */
export function openClawConfigPath(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const configured = env.OPENCLAW_CONFIG_PATH?.trim();
  if (configured) return expandHome(configured, openClawHome(opts));
  const state = openClawStateDir(opts);
  const home = openClawHome(opts);
  const dirs = env.OPENCLAW_STATE_DIR?.trim()
    ? [state]
    : [path.join(home, ".openclaw"), ...LEGACY_STATE_DIRS.map((d) => path.join(home, d))];
  const found = dirs.flatMap((d) => CONFIG_FILES.map((f) => path.join(d, f))).find((f) => existsSync(f));
  return found ?? path.join(state, CONFIG_FILES[0]!);
}

/**
 * OpenClaw's config file as data (JSON5, `$include` merged, `${VAR}` substituted), or undefined
 * when it is missing or OpenClaw could not read it either.
 */
export async function readOpenClawConfigFile(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown> | undefined> {
  try {
    return loadOpenClawConfig(file, env);
  } catch (error) {
    if (error instanceof OpenClawConfigError) return undefined;
    throw error;
  }
}

/** A profile name OpenClaw accepts (`--profile`); "default" is no profile. */
export function profileName(raw: string | undefined): string | undefined {
  const p = raw?.trim();
  return p && /^[a-z0-9][a-z0-9_-]{0,63}$/i.test(p) && p.toLowerCase() !== "default" ? p : undefined;
}

/**
 * The default agent's workspace when the config names none, as OpenClaw's
 * resolveDefaultAgentWorkspaceDir: `$OPENCLAW_WORKSPACE_DIR` (taken as written, no `~`), else
 * `<state>/workspace` when `$OPENCLAW_STATE_DIR` is set, else `~/.openclaw-<profile>/workspace`
 * for `$OPENCLAW_PROFILE`, else `~/.openclaw/workspace`.
 */
export function defaultWorkspace(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  if (env.OPENCLAW_STATE_DIR?.trim()) return path.join(openClawStateDir(opts), "workspace");
  const profile = profileName(env.OPENCLAW_PROFILE);
  return path.join(openClawHome(opts), profile ? `.openclaw-${profile}` : ".openclaw", "workspace");
}

/** The agents of OpenClaw's config and where each one's workspace is. */
export interface OpenClawAgents {
  /** Configured agent ids, lower case, in config order (`["main"]` when the config has no roster). */
  ids: string[];
  /** The agent that owns the default workspace: one marked `default: true`, the sole agent, or none. */
  owner?: string;
  /** `agents.defaults.systemAgent.agentId` (OpenClaw 2026.9's "default agent" after its migration), when configured. */
  system?: string;
  /** `agents.defaults.workspace`, expanded. */
  defaults?: string;
  workspaceOf: (id: string) => string;
  /** The setting workspaceOf took agent `id`'s workspace from, as written: its own, else agents.defaults.workspace. */
  workspaceSettingOf: (id: string) => string | undefined;
  /** An agent's own `agentDir` (its session store is `<agentDir>/openclaw-agent.sqlite`), when configured. */
  agentDirOf: (id: string) => string | undefined;
}

/**
 * OpenClaw's agents as its agent-scope code resolves them (2026.9): the roster is
 * `agents.entries` (keyed by id) or else `agents.list[]`; an agent's own `workspace` wins; the
 * owner agent gets `agents.defaults.workspace` or the default workspace; any other agent
 * `<agents.defaults.workspace>/<id>`, else `<state>/workspace-<id>`.
 */
export function openClawAgents(config: Record<string, unknown> | undefined, opts: LocateOptions = {}): OpenClawAgents {
  const home = openClawHome(opts);
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const a = (config?.agents ?? {}) as {
    defaults?: { workspace?: unknown; systemAgent?: { agentId?: unknown } };
    entries?: unknown;
    list?: unknown;
    ownership?: unknown;
  };
  const raw: [unknown, unknown][] =
    a.entries !== undefined && a.entries !== null && typeof a.entries === "object"
      ? Object.entries(a.entries)
      : Array.isArray(a.list)
        ? a.list.map((e) => [(e as { id?: unknown } | null)?.id, e])
        : [];
  const hasRoster = a.entries !== undefined || a.list !== undefined;
  const entries = new Map<string, { workspace?: string; setting?: string; agentDir?: string; default: boolean }>();
  for (const [id, e] of raw) {
    const name = text(id)?.toLowerCase();
    if (!name || !e || typeof e !== "object" || entries.has(name)) continue;
    const w = text((e as { workspace?: unknown }).workspace);
    const dir = text((e as { agentDir?: unknown }).agentDir);
    entries.set(name, {
      ...(w ? { workspace: expandHome(w, home), setting: w } : {}),
      ...(dir ? { agentDir: expandHome(dir, home) } : {}),
      default: (e as { default?: unknown }).default === true,
    });
  }
  const ids = entries.size === 0 && !hasRoster ? ["main"] : [...entries.keys()];
  const marked = a.ownership === "explicit" ? [] : [...entries].filter(([, e]) => e.default).map(([id]) => id);
  const owner = marked.length === 1 ? marked[0] : ids.length === 1 ? ids[0] : undefined;
  const system = text(a.defaults?.systemAgent?.agentId)?.toLowerCase();
  const d = text(a.defaults?.workspace);
  const defaults = d ? expandHome(d, home) : undefined;
  const state = openClawStateDir(opts);
  const workspaceOf = (id: string) => {
    const own = entries.get(id)?.workspace;
    if (own) return own;
    if (id === owner) return defaults ?? defaultWorkspace(opts);
    return defaults ? path.join(defaults, id) : path.join(state, `workspace-${id}`);
  };
  return {
    ids,
    ...(owner ? { owner } : {}),
    ...(system && ids.includes(system) ? { system } : {}),
    ...(defaults ? { defaults } : {}),
    workspaceOf,
    workspaceSettingOf: (id: string) => entries.get(id)?.setting ?? d,
    agentDirOf: (id: string) => entries.get(id)?.agentDir,
  };
}

/** Where a workspace's chats are: OpenClaw's agents dir, and which agents' (undefined: all). */
export interface OpenClawSessions {
  dir: string;
  agents?: string[];
  /** Agents whose `agentDir` the config moves out of `<dir>/<id>/agent` (OpenClaw's agents.entries.*.agentDir). */
  agentDirs?: Record<string, string>;
}

/**
 * The agents dir (`<state>/agents`) when the workspace is OpenClaw's: it is `<state>/workspace`
 * (or `<state>/workspace-<agent>`, OpenClaw's per-agent workspaces), OpenClaw's config names
 * it as an agent's workspace (`agents.defaults.workspace: "~/clawd"`, an agent's own
 * `workspace`, `$OPENCLAW_WORKSPACE_DIR`), or its parent folder is a state dir too (holds
 * `agents/<id>/agent/` or `agents/<id>/sessions/`). Undefined otherwise: membank then reads
 * no chats unless `sessions.dir` says where. With several agents, the chats of an agent whose
 * workspace is another existing folder stay out: they belong to that agent's memory. Throws
 * OpenClawConfigError on a config OpenClaw cannot read either.
 */
export async function findOpenClawSessions(
  workspaceRoot: string,
  opts: LocateOptions = {},
): Promise<OpenClawSessions | undefined> {
  const root = path.resolve(workspaceRoot);
  const parent = path.dirname(root);
  const state = openClawStateDir(opts);
  const base = path.basename(root);
  const dir = path.join(state, "agents");
  // The config's `${VAR}`s as OpenClaw expands them: its .env files fill what the shell leaves unset.
  const env = withOpenClawDotEnv(opts.env ?? process.env, { stateDir: state, home: openClawHome(opts) });
  // A config OpenClaw cannot read throws (OpenClawConfigError): without it, whose chats are whose is unknown.
  const agents = openClawAgents(loadOpenClawConfig(openClawConfigPath(opts), env), { ...opts, env });
  const moved = agents.ids.flatMap((id) => {
    const d = agents.agentDirOf(id);
    return d ? [[id, d] as const] : [];
  });
  if (moved.length > 0 || (await isDir(dir))) {
    const ids = [...new Set([...(await agentFolders(dir)), ...agents.ids])].sort();
    const homes = new Map(ids.map((id) => [id, agents.workspaceOf(id)]));
    const named = [agents.defaults, defaultWorkspace(opts), ...homes.values()].includes(root);
    if (named || (parent === state && (base === "workspace" || base.startsWith("workspace-")))) {
      const elsewhere = async (id: string) => homes.get(id) !== root && (await isDir(homes.get(id)!));
      const mine: string[] = [];
      for (const id of ids) if (!(await elsewhere(id))) mine.push(id);
      const agentDirs = Object.fromEntries(moved.filter(([id]) => mine.includes(id)));
      return {
        dir,
        ...(mine.length === ids.length ? {} : { agents: mine }),
        ...(Object.keys(agentDirs).length > 0 ? { agentDirs } : {}),
      };
    }
  }
  if (await hasAgents(parent)) return { dir: path.join(parent, "agents") };
  return undefined;
}

/** The agents dir of findOpenClawSessions, when there is one. */
export async function findOpenClawAgentsDir(
  workspaceRoot: string,
  opts: LocateOptions = {},
): Promise<string | undefined> {
  return (await findOpenClawSessions(workspaceRoot, opts))?.dir;
}
