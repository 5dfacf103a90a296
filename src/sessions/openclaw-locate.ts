import { readdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

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
  if (configured) {
    if (configured === "~" || configured.startsWith("~/")) return path.join(home, configured.slice(1));
    return path.resolve(configured);
  }
  return path.join(home, ".openclaw");
}

function expandHome(p: string, home: string): string {
  return p === "~" || p.startsWith("~/") ? path.join(home, p.slice(1)) : path.resolve(p);
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

/**
 * The workspace folders OpenClaw's own config names: `agents.defaults.workspace`, each
 * agent's `workspace` (`agents.list[]` or `agents.entries`), and `$OPENCLAW_WORKSPACE_DIR`.
 */
async function configuredWorkspaces(state: string, env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const out: string[] = [];
  const fromEnv = env.OPENCLAW_WORKSPACE_DIR?.trim();
  if (fromEnv) out.push(expandHome(fromEnv, home));
  const file = env.OPENCLAW_CONFIG_PATH?.trim()
    ? expandHome(env.OPENCLAW_CONFIG_PATH.trim(), home)
    : path.join(state, "openclaw.json");
  const config = await readOpenClawConfigFile(file);
  const agents = config?.agents;
  if (!agents || typeof agents !== "object") return out;
  const a = agents as { defaults?: { workspace?: unknown }; list?: unknown; entries?: unknown };
  const entries = Array.isArray(a.list)
    ? a.list
    : a.entries && typeof a.entries === "object"
      ? Object.values(a.entries)
      : [];
  for (const w of [a.defaults?.workspace, ...entries.map((e) => (e as { workspace?: unknown } | null)?.workspace)]) {
    if (typeof w === "string" && w.trim() !== "") out.push(expandHome(w.trim(), home));
  }
  return out;
}

/**
 * The agents dir (`<state>/agents`) when the workspace is OpenClaw's: it is `<state>/workspace`
 * (or `<state>/workspace-<agent>`, OpenClaw's per-agent workspaces), OpenClaw's config names
 * it as a workspace (`agents.defaults.workspace: "~/clawd"`, an agent's own `workspace`,
 * `$OPENCLAW_WORKSPACE_DIR`), or its parent folder is a state dir too (holds
 * `agents/<id>/agent/` or `agents/<id>/sessions/`). Undefined otherwise: membank then reads
 * no chats unless `sessions.dir` says where.
 */
export async function findOpenClawAgentsDir(
  workspaceRoot: string,
  opts: LocateOptions = {},
): Promise<string | undefined> {
  const root = path.resolve(workspaceRoot);
  const parent = path.dirname(root);
  const state = openClawStateDir(opts);
  const base = path.basename(root);
  const agentsDir = async () => ((await isDir(path.join(state, "agents"))) ? path.join(state, "agents") : undefined);
  if (parent === state && (base === "workspace" || base.startsWith("workspace-"))) return agentsDir();
  if (await hasAgents(parent)) return path.join(parent, "agents");
  const env = opts.env ?? process.env;
  const named = await configuredWorkspaces(state, env, opts.home ?? env.HOME ?? os.homedir());
  return named.includes(root) ? agentsDir() : undefined;
}
