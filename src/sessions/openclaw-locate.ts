import { readdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { agentFolders, expandHome } from "./discover.js";

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

/** OpenClaw's state dir: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. */
export function openClawStateDir(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const home = opts.home ?? env.HOME ?? os.homedir();
  const configured = env.OPENCLAW_STATE_DIR?.trim();
  return configured ? expandHome(configured, home) : path.join(home, ".openclaw");
}

/** OpenClaw's config file: `$OPENCLAW_CONFIG_PATH`, else `<state dir>/openclaw.json`. */
export function openClawConfigPath(opts: LocateOptions = {}): string {
  const env = opts.env ?? process.env;
  const configured = env.OPENCLAW_CONFIG_PATH?.trim();
  return configured
    ? expandHome(configured, opts.home ?? env.HOME ?? os.homedir())
    : path.join(openClawStateDir(opts), "openclaw.json");
}

/**
 * OpenClaw's config file as data, or undefined when it is missing or unreadable. OpenClaw
 * writes plain JSON; a hand-edited file is JSON5, so `//` and block comments and trailing
 * commas are dropped before a second try.
 */
export async function readOpenClawConfigFile(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  return parseOpenClawConfig(text);
}

/** OpenClaw's config text as data: JSON, else JSON5's comments and trailing commas dropped; undefined when neither parses. */
export function parseOpenClawConfig(text: string): Record<string, unknown> | undefined {
  for (const candidate of [text, json5Lite(text)]) {
    try {
      const parsed = JSON.parse(candidate) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // next candidate
    }
  }
  return undefined;
}

/** JSON5's comments and trailing commas removed (strings kept as they are). */
function json5Lite(text: string): string {
  return text
    .replace(/("(?:[^"\\\n]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str: string | undefined) => str ?? "")
    .replace(
      /("(?:[^"\\\n]|\\.)*")|,(\s*[}\]])/g,
      (_m, str: string | undefined, close: string | undefined) => str ?? close ?? "",
    );
}

interface AgentsConfig {
  /** `agents.defaults.workspace`. */
  defaults?: string;
  /** `$OPENCLAW_WORKSPACE_DIR`: the default agent's workspace when the config names none. */
  fromEnv?: string;
  entries: { id: string; workspace?: string; default: boolean }[];
}

/** The agents part of OpenClaw's config (`agents.list[]` or `agents.entries`), paths expanded. */
async function agentsConfig(opts: LocateOptions, env: NodeJS.ProcessEnv, home: string): Promise<AgentsConfig> {
  const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
  const out: AgentsConfig = { entries: [], ...(fromEnv ? { fromEnv: expandHome(fromEnv, home) } : {}) };
  const agents = (await readOpenClawConfigFile(openClawConfigPath(opts)))?.agents;
  if (!agents || typeof agents !== "object") return out;
  const a = agents as { defaults?: { workspace?: unknown }; list?: unknown; entries?: unknown };
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const defaults = text(a.defaults?.workspace);
  if (defaults) out.defaults = expandHome(defaults, home);
  const raw: [unknown, unknown][] = Array.isArray(a.list)
    ? a.list.map((e) => [(e as { id?: unknown } | null)?.id, e])
    : a.entries && typeof a.entries === "object"
      ? Object.entries(a.entries)
      : [];
  for (const [id, e] of raw) {
    const name = text(id);
    if (!name || !e || typeof e !== "object") continue;
    const w = text((e as { workspace?: unknown }).workspace);
    out.entries.push({
      id: name.toLowerCase(),
      ...(w ? { workspace: expandHome(w, home) } : {}),
      default: (e as { default?: unknown }).default === true,
    });
  }
  return out;
}

/**
 * The workspace OpenClaw gives agent `id`, as its resolveAgentWorkspaceDir does (less legacy
 * migrations): the agent's own `workspace`; for the default agent `agents.defaults.workspace`,
 * `$OPENCLAW_WORKSPACE_DIR` or `<state>/workspace`; for another `<defaults.workspace>/<id>` or
 * `<state>/workspace-<id>`.
 */
function agentWorkspace(id: string, cfg: AgentsConfig, state: string): string {
  const entry = cfg.entries.find((e) => e.id === id);
  if (entry?.workspace) return entry.workspace;
  const defaultId = (cfg.entries.find((e) => e.default) ?? cfg.entries[0])?.id ?? "main";
  if (id === defaultId) return cfg.defaults ?? cfg.fromEnv ?? path.join(state, "workspace");
  return cfg.defaults ? path.join(cfg.defaults, id) : path.join(state, `workspace-${id}`);
}

/** Where a workspace's chats are: OpenClaw's agents dir, and which agents' (undefined: all). */
export interface OpenClawSessions {
  dir: string;
  agents?: string[];
}

/**
 * The agents dir (`<state>/agents`) when the workspace is OpenClaw's: it is `<state>/workspace`
 * (or `<state>/workspace-<agent>`, OpenClaw's per-agent workspaces), OpenClaw's config names
 * it as an agent's workspace (`agents.defaults.workspace: "~/clawd"`, an agent's own
 * `workspace`, `$OPENCLAW_WORKSPACE_DIR`), or its parent folder is a state dir too (holds
 * `agents/<id>/agent/` or `agents/<id>/sessions/`). Undefined otherwise: membank then reads
 * no chats unless `sessions.dir` says where. With several agents, the chats of an agent whose
 * workspace is another existing folder stay out: they belong to that agent's memory.
 */
export async function findOpenClawSessions(
  workspaceRoot: string,
  opts: LocateOptions = {},
): Promise<OpenClawSessions | undefined> {
  const root = path.resolve(workspaceRoot);
  const parent = path.dirname(root);
  const state = openClawStateDir(opts);
  const base = path.basename(root);
  const env = opts.env ?? process.env;
  const dir = path.join(state, "agents");
  if (await isDir(dir)) {
    const cfg = await agentsConfig(opts, env, opts.home ?? env.HOME ?? os.homedir());
    const ids = [...new Set([...(await agentFolders(dir)), ...cfg.entries.map((e) => e.id)])].sort();
    const homes = new Map(ids.map((id) => [id, agentWorkspace(id, cfg, state)]));
    const named = [cfg.defaults, cfg.fromEnv, ...homes.values()].includes(root);
    if (named || (parent === state && (base === "workspace" || base.startsWith("workspace-")))) {
      const elsewhere = async (id: string) => homes.get(id) !== root && (await isDir(homes.get(id)!));
      const agents: string[] = [];
      for (const id of ids) if (!(await elsewhere(id))) agents.push(id);
      return agents.length === ids.length ? { dir } : { dir, agents };
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
