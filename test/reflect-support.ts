// Helpers for the reflect end-to-end tests: fixture workspaces copied into temp dirs and
// turned into real git repositories.
import { execFile, execFileSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { readRegions } from "../src/markdown/index.js";
import { type Opinion, parseOpinion } from "../src/reflect/index.js";
import { openWorkspace, type Workspace } from "../src/workspace/index.js";
import { MEMBANK_BIN } from "./cli-bin.js";

export const repoRoot = path.resolve(import.meta.dirname, "..");
export const EVOLVING = path.join(repoRoot, "fixtures/reflect/evolving");

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "User",
      GIT_AUTHOR_EMAIL: "user@example.org",
      GIT_COMMITTER_NAME: "User",
      GIT_COMMITTER_EMAIL: "user@example.org",
    },
  });
}

/** A copy of a fixture workspace; with `repo`, a git repository with one user commit. */
export async function workspaceFrom(
  fixture: string,
  opts: { repo?: boolean; logs?: (name: string) => boolean } = {},
): Promise<{ dir: string; ws: Workspace }> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-reflect-"));
  await cp(fixture, dir, {
    recursive: true,
    filter: (src) => !opts.logs || !src.includes(`${path.sep}memory${path.sep}`) || opts.logs(path.basename(src)),
  });
  if (opts.repo !== false) {
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "user: initial workspace");
  }
  return { dir, ws: await openWorkspace(dir) };
}

export async function copyLog(dir: string, name: string): Promise<void> {
  await cp(path.join(EVOLVING, "memory", name), path.join(dir, "memory", name));
}

export async function logNames(): Promise<string[]> {
  return (await readdir(path.join(EVOLVING, "memory"))).sort();
}

/** The opinions of bank/opinions.md keyed by their first entity. */
export async function opinionsByEntity(dir: string): Promise<Map<string, Opinion>> {
  const text = await readFile(path.join(dir, "bank/opinions.md"), "utf8");
  const out = new Map<string, Opinion>();
  for (const region of readRegions(text)) {
    const op = parseOpinion(region.name, region.body);
    if (typeof op === "string") throw new Error(op);
    out.set(op.entities[0] ?? "", op);
  }
  return out;
}

/** Every file under bank/, path -> text, for byte comparisons. */
export async function bankFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(rel: string): Promise<void> {
    for (const entry of (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) await walk(child);
      else out.set(child, await readFile(path.join(dir, child), "utf8"));
    }
  }
  await walk("bank");
  return out;
}

const CLI = MEMBANK_BIN;

/** The built CLI as a user runs it (no MEMBANK_WORKSPACE): exit code and output, never a throw. */
export async function membank(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, MEMBANK_WORKSPACE: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
