import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONFIG_FILE, defaultConfig, loadConfigFile, type MembankConfig } from "./config.js";
import { MembankError } from "./errors.js";
import { locateWorkspace, type ResolveOptions, STATE_DIR, stateDirOf } from "./locate.js";

export type { ResolveOptions } from "./locate.js";

export interface Workspace {
  /** Absolute, real path of the workspace folder. */
  root: string;
  config: MembankConfig;
  /** The config file that was read, if any. */
  configPath?: string;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** What makes a folder a workspace: a config file, a core memory file, or a memory/ folder. */
export function workspaceMarkers(dir: string): string[] {
  const found: string[] = [];
  if (existsSync(path.join(dir, CONFIG_FILE))) found.push(CONFIG_FILE);
  for (const name of ["MEMORY.md", "memory.md"]) {
    if (existsSync(path.join(dir, name))) found.push(name);
  }
  if (isDir(path.join(dir, "memory"))) found.push("memory/");
  return found;
}

function notAWorkspace(dir: string, how: string): MembankError {
  return new MembankError(
    `${dir} (${how}) is not a membank workspace: it has no ${CONFIG_FILE}, MEMORY.md, memory.md or memory/ folder.\n` +
      `Create one with: membank init ${JSON.stringify(dir)}`,
    { code: "ENOWORKSPACE" },
  );
}

/** Open a known workspace folder: read its config (defaults when there is none). */
export async function openWorkspace(dir: string, how = "given"): Promise<Workspace> {
  const abs = path.resolve(dir);
  if (!existsSync(abs)) {
    throw new MembankError(`Workspace folder ${abs} (${how}) does not exist.`, { code: "ENOWORKSPACE" });
  }
  if (!isDir(abs)) {
    throw new MembankError(`Workspace ${abs} (${how}) is not a folder.`, { code: "ENOWORKSPACE" });
  }
  if (workspaceMarkers(abs).length === 0) throw notAWorkspace(abs, how);
  // A .memory/ made before it got its own .gitignore (or by an older membank) is fixed on first open.
  if (isDir(path.join(abs, STATE_DIR))) ensureStateDir(path.join(abs, STATE_DIR));
  const configPath = path.join(abs, CONFIG_FILE);
  if (existsSync(configPath)) {
    return { root: abs, config: await loadConfigFile(configPath), configPath };
  }
  return { root: abs, config: defaultConfig() };
}

/**
 * Find the workspace: `--workspace DIR`, then `MEMBANK_WORKSPACE`, then the nearest
 * folder from cwd upwards that holds a `membank.config.json`.
 */
export async function resolveWorkspace(options: ResolveOptions = {}): Promise<Workspace> {
  const { dir, how } = locateWorkspace(options);
  return openWorkspace(dir, how);
}

/** Absolute path of a workspace-relative setting (settings may also be absolute). */
export function workspacePath(ws: Workspace, p: string): string {
  return path.resolve(ws.root, p);
}

/** The derived-data folder (`.memory/`), git-ignored. */
export function stateDir(ws: Workspace): string {
  return stateDirOf(ws.root);
}

/**
 * Create a `.memory/` folder (if missing) with a `.gitignore` of `*`, so derived data never
 * shows in `git status` of any repository, not only one whose root .gitignore `init` wrote.
 * The .gitignore is a convenience: failing to write it never fails a run.
 */
export function ensureStateDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, ".gitignore");
  if (existsSync(file)) return;
  try {
    writeFileSync(file, "# membank: derived data (index, run records), rebuilt from the Markdown\n*\n", { flag: "wx" });
  } catch {
    // Another process wrote it first (EEXIST), or the folder is read-only: nothing to do.
  }
}

/** `ensureStateDir` for the folder of `file` when that folder is a `.memory/` (an index elsewhere is left alone). */
export function ensureStateDirOf(file: string): void {
  const dir = path.dirname(file);
  if (path.basename(dir) === STATE_DIR) ensureStateDir(dir);
  else mkdirSync(dir, { recursive: true });
}
