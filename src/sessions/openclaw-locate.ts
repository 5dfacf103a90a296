import { readdir, stat } from "node:fs/promises";
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

/**
 * The agents dir (`<state>/agents`) when the workspace is OpenClaw's: it is `<state>/workspace`
 * (or `<state>/workspace-<agent>`, OpenClaw's per-agent workspaces), or its parent folder is a
 * state dir too (holds `agents/<id>/agent/` or `agents/<id>/sessions/`). Undefined otherwise: membank then reads no chats
 * unless `sessions.dir` says where.
 */
export async function findOpenClawAgentsDir(
  workspaceRoot: string,
  opts: LocateOptions = {},
): Promise<string | undefined> {
  const root = path.resolve(workspaceRoot);
  const parent = path.dirname(root);
  const state = openClawStateDir(opts);
  const base = path.basename(root);
  if (parent === state && (base === "workspace" || base.startsWith("workspace-"))) {
    return (await isDir(path.join(state, "agents"))) ? path.join(state, "agents") : undefined;
  }
  return (await hasAgents(parent)) ? path.join(parent, "agents") : undefined;
}
