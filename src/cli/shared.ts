import type { Command } from "commander";
import { nativeError } from "../index/native.js";
import type { ServeRequest } from "../serve/protocol.js";
import { describeIoError, MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";

export interface WorkspaceFlag {
  workspace?: string;
}

/** Add the `--workspace DIR` option every command takes. */
export function workspaceOption(cmd: Command): Command {
  return cmd.option(
    "-w, --workspace <dir>",
    "workspace folder (default: $MEMBANK_WORKSPACE, or the nearest folder with membank.config.json)",
  );
}

export async function loadWorkspace(flags: WorkspaceFlag): Promise<Workspace> {
  // Lazily: the config schema (zod) is not needed by `--version` and `--help`.
  const { resolveWorkspace } = await import("../workspace/workspace.js");
  return resolveWorkspace(flags.workspace === undefined ? {} : { workspace: flags.workspace });
}

/**
 * The answer of the workspace's warm server (`membank serve`) when one runs, else undefined
 * (the caller then works in-process, printing the same bytes). Reads no config: a call the
 * server answers loads neither the config schema nor the index nor a model here. A
 * workspace that cannot be found or opened is reported by the in-process path.
 */
export async function askWarmServer<T>(flags: WorkspaceFlag, request: ServeRequest): Promise<T | undefined> {
  const { locateWorkspace } = await import("../workspace/locate.js");
  let root: string;
  try {
    root = locateWorkspace(flags.workspace === undefined ? {} : { workspace: flags.workspace }).dir;
  } catch {
    return undefined;
  }
  const { askServer } = await import("../serve/client.js");
  return askServer<T>(root, request);
}

/** Stable, pretty JSON on stdout, newline-terminated. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Parse a positive integer flag or fail with a message naming the flag. */
export function intFlag(name: string, min = 1): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new MembankError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`, { exitCode: 2 });
    }
    return n;
  };
}

/** Parse a number flag within bounds. */
export function numberFlag(name: string, min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max) {
      throw new MembankError(`${name} must be a number in ${min}..${max}, got ${JSON.stringify(value)}`, {
        exitCode: 2,
      });
    }
    return n;
  };
}

/**
 * Print a user-facing error and return its exit code: a MembankError's message, or one
 * line for a file-system failure (disk full, read-only, a folder in the way) naming the
 * path; only an unexpected error (a bug) gets a stack.
 */
export function reportError(error: unknown): number {
  // better-sqlite3 built for another Node: one line with the command that fixes it (checked first:
  // a wrapper may have made it a MembankError whose message is Node's multi-line text).
  const native = nativeError(error);
  if (native !== undefined) {
    process.stderr.write(`membank: ${native.message}\n`);
    return native.exitCode;
  }
  if (error instanceof MembankError) {
    process.stderr.write(`membank: ${error.message}\n`);
    return error.exitCode;
  }
  const io = describeIoError(error);
  if (io !== undefined) {
    process.stderr.write(`membank: ${io}\n`);
    return 1;
  }
  const err = error as Error;
  process.stderr.write(`membank: unexpected error: ${err?.stack ?? String(error)}\n`);
  return 1;
}
