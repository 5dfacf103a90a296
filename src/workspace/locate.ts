import { existsSync } from "node:fs";
import path from "node:path";
import { MembankError } from "./errors.js";

/**
 * Where a workspace is, without reading its config: what a CLI call needs to reach a warm
 * server (`membank serve`) before it loads the config schema (zod) or anything else.
 */

/** The config file that marks (and configures) a workspace. */
export const CONFIG_FILE = "membank.config.json";

/** The derived-data folder's name. */
export const STATE_DIR = ".memory";

/** The derived-data folder (`.memory/`) of a workspace root, git-ignored. */
export function stateDirOf(root: string): string {
  return path.join(root, STATE_DIR);
}

export interface ResolveOptions {
  /** `--workspace DIR`, highest precedence. */
  workspace?: string;
  /** Defaults to process.cwd(). */
  cwd?: string;
  /** Defaults to process.env (for MEMBANK_WORKSPACE). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The workspace folder and how it was found: `--workspace DIR`, then `MEMBANK_WORKSPACE`,
 * then the nearest folder from cwd upwards that holds a `membank.config.json`. Not checked
 * to exist or to be a workspace (opening it does that).
 */
export function locateWorkspace(options: ResolveOptions = {}): { dir: string; how: string } {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.workspace) return { dir: path.resolve(cwd, options.workspace), how: "from --workspace" };
  const fromEnv = env.MEMBANK_WORKSPACE;
  if (fromEnv) return { dir: path.resolve(cwd, fromEnv), how: "from MEMBANK_WORKSPACE" };
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, CONFIG_FILE))) return { dir, how: `found ${CONFIG_FILE}` };
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new MembankError(
    `No workspace given and none found: pass --workspace DIR, set MEMBANK_WORKSPACE, or run inside a folder with ${CONFIG_FILE} (searched from ${cwd} upwards).`,
    { code: "ENOWORKSPACE" },
  );
}
