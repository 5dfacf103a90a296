/**
 * The CLI as users run it: package.json's `bin.membank` (the esbuild bundle that `pnpm build`
 * writes). End-to-end tests run this file, so they test the shipped entry point and not only
 * the tsc build; TSC_CLI is the tsc build's entry, for tests that compare the two.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: { membank: string } };
export const MEMBANK_BIN = path.join(REPO_ROOT, pkg.bin.membank);
export const TSC_CLI = path.join(REPO_ROOT, "dist/src/cli/main.js");

/**
 * An ordinary user's shell for a CLI run: an editor, a pager and an askpass set, and no git
 * identity anywhere in git's config (an empty global file under `tmp`, no system file), so
 * membank must neither open an editor nor rely on an identity. `extra` adds or overrides.
 */
export async function ordinaryShellEnv(tmp: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const empty = path.join(tmp, "empty.gitconfig");
  await writeFile(empty, "");
  return {
    ...process.env,
    EDITOR: "vi",
    VISUAL: "vi",
    GIT_EDITOR: "vi",
    PAGER: "less",
    LANG: "C",
    GIT_ASKPASS: "/bin/true",
    GIT_CONFIG_GLOBAL: empty,
    GIT_CONFIG_NOSYSTEM: "1",
    ...extra,
  };
}

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bin run with `args` in `env`, whatever its exit code (tests assert on it). */
export function runBin(args: readonly string[], env: NodeJS.ProcessEnv): Promise<BinRun> {
  return collectRun(spawn(process.execPath, [MEMBANK_BIN, ...args], { env, stdio: "pipe" }));
}

/** A spawned process's exit code and whole output, once it closes. */
export function collectRun(child: ChildProcessWithoutNullStreams): Promise<BinRun> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
