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
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
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
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; stderr: string }> {
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [CLI, "run", "nightly", "--workspace", root, "--sessions", path.join(tmp, "sessions")],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  if (killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, ms: Date.now() - t0, stderr })),
  );
}

/** Run until "nothing to do" (3); every run must succeed (0) or have nothing to do. */
async function settle(root: string, after?: (files: Map<string, string>) => void): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await runCli(root);
    expect([0, 3], r.stderr).toContain(r.code);
    ms.push(r.ms);
    if (after) after(await markdown(root));
    if (r.code === 3) return ms;
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

/** Night `n`'s new input: a daily log with Retain facts and a day of chat sessions. */
async function addNight(root: string, n: number): Promise<void> {
  const day = `2026-04-${String(n + 1).padStart(2, "0")}`;
  await writeFile(
    path.join(root, "memory", `${day}.md`),
    `# ${day}\n\nA working day.\n\n## Retain\n- W @Priya: Reviewed the ledger-sync plan, round ${n}.\n- O(c=0.8) @Jonas: Prefers written status updates over meetings (night ${n}).\n- B @Mara: I drafted the release notes for night ${n}.\n`,
  );
}

async function addSessions(n: number): Promise<void> {
  const day = `2026-04-${String(n + 1).padStart(2, "0")}`;
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    const ts = Date.parse(`${day}T09:00:00Z`) + i * 60_000;
    const role = i % 2 === 0 ? "user" : "assistant";
    lines.push(
      JSON.stringify({
        type: "message",
        timestamp: ts,
        message: { role, content: `night ${n} message ${i} about ledger-sync` },
      }),
    );
  }
  await writeFile(path.join(tmp, "sessions", "main", "sessions", `night-${n}.jsonl`), `${lines.join("\n")}\n`);
}

describe("SIGKILL at random points", () => {
  it("leaves whole files and a consistent repository, and later runs finish the work", async () => {
    // The reference: the same workspace, never interrupted. Every version of every file it
    // passes through is a legal state for the killed workspace.
    const clean = await makeWorkspace("clean");
    const work = await makeWorkspace("work");
    const versions = new Map<string, Set<string>>();
    const remember = (files: Map<string, string>) => {
      for (const [p, text] of files) {
        const set = versions.get(p) ?? new Set<string>();
        set.add(text);
        versions.set(p, set);
      }
    };
    const rand = mulberry32(SEED);
    const nights = Math.max(1, Math.round(KILLS / 3));
    let killed = 0;
    let kills = 0;
    // Night 0 is the first run over bank.example; later nights add a log and a day of sessions.
    for (let night = 0; night < nights; night++) {
      if (night > 0) {
        await addSessions(night);
        await addNight(clean, night);
        await addNight(work, night);
      }
      remember(await markdown(clean));
      // Kill within the span of the run that did the night's work.
      const span = Math.max(300, (await settle(clean, remember))[0] as number);
      const perNight = night === nights - 1 ? KILLS - kills : Math.floor(KILLS / nights);
      for (let i = 0; i < perNight; i++, kills++) {
        const r = await runCli(work, Math.floor(rand() * span));
        if (r.signal === "SIGKILL") killed++;
        else expect([0, 3], r.stderr).toContain(r.code);
        for (const [p, text] of await markdown(work)) {
          expect(versions.get(p)?.has(text), `${p} after kill ${kills} is not a version a run writes`).toBe(true);
        }
        const fsck = await exec("git", ["fsck", "--no-progress"], { cwd: work });
        expect(fsck.stderr).not.toMatch(/error|fatal|corrupt/i);
      }
      await settle(work);
      const reference = await markdown(clean);
      const final = await markdown(work);
      expect([...final.keys()]).toEqual([...reference.keys()]);
      for (const [p, text] of reference) expect(final.get(p), `${p} after night ${night}`).toBe(text);
      // Everything the pipeline wrote is committed, nothing is left blocking git.
      const status = await exec("git", ["status", "--porcelain", "--", "bank"], { cwd: work });
      // A temp file of a write killed midway is removed by the first run a minute later; younger ones may remain.
      const tempFile = /\.md\.\d+$/;
      expect(
        status.stdout.split("\n").filter((l) => l && !tempFile.test(l)),
        status.stdout,
      ).toEqual([]);
      const untracked = await exec("git", ["status", "--porcelain", "--", "memory"], { cwd: work });
      // Only the night's hand-written log is the user's to commit.
      expect(
        untracked.stdout.split("\n").filter((l) => l && !/memory\/2026-04-\d\d\.md$/.test(l) && !tempFile.test(l)),
      ).toEqual([]);
      await expect(stat(path.join(work, ".git/index.lock"))).rejects.toThrow();
    }
    expect(killed).toBeGreaterThanOrEqual(Math.floor(KILLS / 4));
    if (process.env.MEMBANK_KILL_VERBOSE) console.log(`killed ${killed} of ${KILLS} runs`);
    const tree = async (root: string) =>
      (await exec("git", ["ls-tree", "-r", "HEAD", "--", "bank", "memory"], { cwd: root })).stdout;
    expect(await tree(work)).toBe(await tree(clean));
  }, 600_000);
});
