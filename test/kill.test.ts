/**
 * Crash safety: SIGKILL `membank run nightly` at seeded random moments and check that every
 * Markdown file is whole (some version the pipeline writes, never a torn one), git is
 * consistent and not blocked by a stale index.lock, and that later runs finish the work so the
 * bank ends equal to the bank of a workspace that was never interrupted.
 */
import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "dist/src/cli/main.js");
const SEED = Number(process.env.MEMBANK_KILL_SEED ?? 20261122);
const KILLS = Number(process.env.MEMBANK_KILLS ?? 12);

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let tmp: string;

async function makeWorkspace(name: string): Promise<string> {
  const root = path.join(tmp, name);
  await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    `${JSON.stringify({ embedding: { provider: "none" }, sessions: { tz: "UTC" } })}\n`,
  );
  await writeFile(path.join(root, ".gitignore"), ".memory/\n");
  const git = (...args: string[]) => exec("git", args, { cwd: root });
  await git("init", "-q");
  await git("add", "-A");
  await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return root;
}

async function markdown(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const n of names.sort()) {
      const abs = path.join(dir, n);
      if ((await stat(abs)).isDirectory()) await walk(abs);
      else if (n.endsWith(".md")) out.set(path.relative(root, abs), await readFile(abs, "utf8"));
    }
  }
  await walk(path.join(root, "memory"));
  await walk(path.join(root, "bank"));
  return out;
}

function runCli(
  root: string,
  killAfterMs?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [CLI, "run", "nightly", "--workspace", root, "--sessions", path.join(tmp, "sessions")],
    {
      stdio: "ignore",
    },
  );
  if (killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, ms: Date.now() - t0 })));
}

/** Run until "nothing to do" (3); every run must succeed (0) or have nothing to do. */
async function settle(root: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const r = await runCli(root);
    expect([0, 3]).toContain(r.code);
    if (r.code === 3) return;
  }
  throw new Error("the pipeline did not settle in 5 runs");
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-kill-"));
  await cp(path.join(ROOT, "fixtures/sessions/agents"), path.join(tmp, "sessions"), { recursive: true });
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("SIGKILL at random points", () => {
  it("leaves whole files and a consistent repository, and later runs finish the work", async () => {
    // The reference: the same workspace, never interrupted. Every version of every file it
    // passes through is a legal state for the killed workspace.
    const clean = await makeWorkspace("clean");
    const versions = new Map<string, Set<string>>();
    const remember = (files: Map<string, string>) => {
      for (const [p, text] of files) {
        const set = versions.get(p) ?? new Set<string>();
        set.add(text);
        versions.set(p, set);
      }
    };
    remember(await markdown(clean));
    const first = await runCli(clean);
    expect(first.code).toBe(0);
    remember(await markdown(clean));
    for (let i = 0; i < 4; i++) {
      const r = await runCli(clean);
      remember(await markdown(clean));
      if (r.code === 3) break;
    }
    const reference = await markdown(clean);
    const span = Math.max(400, first.ms);

    const work = await makeWorkspace("work");
    const rand = mulberry32(SEED);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      const r = await runCli(work, Math.floor(rand() * span));
      if (r.signal === "SIGKILL") killed++;
      else expect([0, 3]).toContain(r.code);
      for (const [p, text] of await markdown(work)) {
        expect(versions.get(p)?.has(text), `${p} after kill ${i} is not a version a run writes`).toBe(true);
      }
      const fsck = await exec("git", ["fsck", "--no-progress"], { cwd: work });
      expect(fsck.stderr).not.toMatch(/error|fatal|corrupt/i);
    }
    expect(killed).toBeGreaterThan(KILLS / 2);

    await settle(work);
    const final = await markdown(work);
    expect([...final.keys()]).toEqual([...reference.keys()]);
    for (const [p, text] of reference) expect(final.get(p), p).toBe(text);
    // Everything the pipeline wrote is committed, nothing is left blocking git.
    const status = await exec("git", ["status", "--porcelain", "--", "memory", "bank"], { cwd: work });
    expect(status.stdout).toBe("");
    await expect(stat(path.join(work, ".git/index.lock"))).rejects.toThrow();
    const tree = async (root: string) =>
      (await exec("git", ["ls-tree", "-r", "HEAD", "--", "bank", "memory"], { cwd: root })).stdout;
    expect(await tree(work)).toBe(await tree(clean));
  });
});
