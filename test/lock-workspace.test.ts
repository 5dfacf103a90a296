import { execFile, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MembankError } from "../src/workspace/errors.js";
import {
  acquireWorkspaceLock,
  isWorkspaceLocked,
  LOCKED_EXIT_CODE,
  lockPath,
  readLockOwner,
} from "../src/workspace/lock.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
const LOCK_JS = path.join(ROOT, "dist/src/workspace/lock.js");

let tmp: string;
let ws: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-lock-"));
  await writeFile(path.join(tmp, "MEMORY.md"), "# Core\n");
  ws = await openWorkspace(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("workspace lock", () => {
  it("is exclusive: a second taker fails at once naming the holder's pid, or waits for the release", async () => {
    const held = await acquireWorkspaceLock(ws, { purpose: "run nightly" });
    expect(await isWorkspaceLocked(ws)).toBe(true);
    expect(await readLockOwner(ws)).toMatchObject({ pid: process.pid, purpose: "run nightly" });
    const err = await acquireWorkspaceLock(ws).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MembankError);
    expect((err as MembankError).exitCode).toBe(LOCKED_EXIT_CODE);
    expect((err as Error).message).toContain(`locked by pid ${process.pid}`);
    expect((err as Error).message).toContain("run nightly");
    setTimeout(() => void held.release(), 300);
    const second = await acquireWorkspaceLock(ws, { waitMs: 5000 });
    expect(second.owner.pid).toBe(process.pid);
    await second.release();
    expect(await isWorkspaceLocked(ws)).toBe(false);
  });

  it("recovers at once a lock left by a process that was killed", async () => {
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { acquireWorkspaceLock } = await import(${JSON.stringify(LOCK_JS)}); await acquireWorkspaceLock({ root: ${JSON.stringify(ws.root)} }, { purpose: "doomed" }); console.log("locked"); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
      child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
    });
    expect((await readLockOwner(ws))?.pid).toBe(child.pid);
    await expect(acquireWorkspaceLock(ws)).rejects.toThrow(`locked by pid ${child.pid}`);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const recovered: (number | undefined)[] = [];
    const t0 = Date.now();
    const lock = await acquireWorkspaceLock(ws, { onStaleRecovered: (o) => recovered.push(o?.pid) });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(recovered).toEqual([child.pid]);
    await lock.release();
  });

  it("recovers at once a lock whose taker was killed before it wrote its owner file, or whose holder died releasing it", async () => {
    // A pid that is surely dead: a child that has exited.
    const dead = spawn(process.execPath, ["-e", ""]);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.on("exit", r));
    // Killed between mkdir and the owner file: the directory and its taker's mark are left.
    await mkdir(lockPath(ws), { recursive: true });
    await writeFile(`${lockPath(ws)}.taking-${os.hostname()}-${deadPid}`, "");
    const first = await acquireWorkspaceLock(ws, { purpose: "after a killed taker" });
    expect(first.owner.purpose).toBe("after a killed taker");
    await first.release();
    // Killed while releasing (owner file gone, directory not yet): no mark at all.
    await mkdir(lockPath(ws), { recursive: true });
    const second = await acquireWorkspaceLock(ws);
    await second.release();
    expect((await readdir(path.dirname(lockPath(ws)))).filter((n) => n.startsWith("lock"))).toEqual([]);
  });

  it("leaves alone a lock without an owner file while a live process is marked as taking it", async () => {
    const taker = spawn("sleep", ["30"]);
    try {
      await mkdir(lockPath(ws), { recursive: true });
      await writeFile(`${lockPath(ws)}.taking-${os.hostname()}-${taker.pid}`, "");
      const err = await acquireWorkspaceLock(ws).catch((e: unknown) => e);
      expect((err as MembankError).exitCode).toBe(LOCKED_EXIT_CODE);
      expect((err as Error).message).toContain("is taking the lock");
    } finally {
      taker.kill();
    }
  });

  it("recovers a lock of another host (or a hung holder) once it has not been refreshed for staleMs", async () => {
    await mkdir(lockPath(ws), { recursive: true });
    await writeFile(
      path.join(lockPath(ws), "owner.json"),
      JSON.stringify({ pid: 1, hostname: "elsewhere", since: "2026-01-01T00:00:00Z", purpose: "run nightly" }),
    );
    await expect(acquireWorkspaceLock(ws, { staleMs: 2000 })).rejects.toThrow(/locked by pid 1 on host elsewhere/);
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath(ws), old, old);
    const lock = await acquireWorkspaceLock(ws, { staleMs: 2000 });
    expect((await readLockOwner(ws))?.pid).toBe(process.pid);
    await lock.release();
  });

  it("membank run exits 4 with the holder's pid while another process holds the lock", async () => {
    const held = await acquireWorkspaceLock(ws, { purpose: "test holder" });
    try {
      const res = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws.root]).catch(
        (e: unknown) => e,
      );
      const r = res as { code?: number; stderr?: string };
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`locked by pid ${process.pid}`);
      expect(r.stderr).toContain("test holder");
    } finally {
      await held.release();
    }
  });

  it("two runs started at once: exactly one reflects and commits", async () => {
    const root = path.join(tmp, "bank");
    await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
    await writeFile(path.join(root, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
    const git = (...args: string[]) => exec("git", args, { cwd: root });
    await git("init", "-q");
    await git("add", "-A");
    await git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
    const run = () =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, [CLI, "run", "nightly", "--workspace", root], { stdio: "ignore" });
        p.on("exit", (code) => resolve(code ?? -1));
      });
    const codes = (await Promise.all([run(), run()])).sort();
    // Either the second was refused (4: busy) or it started after the first ended (3: nothing to do).
    expect([
      [0, 3],
      [0, 4],
    ]).toContainEqual(codes);
    const log = (await git("log", "--format=%an %s")).stdout.trim().split("\n");
    expect(log.filter((l) => l.startsWith("membank "))).toHaveLength(1);
    const records = await Promise.all(
      (await readdir(path.join(root, ".memory/runs"))).map(async (f) =>
        JSON.parse(await readFile(path.join(root, ".memory/runs", f), "utf8")),
      ),
    );
    const reflected = records.filter(
      (r) => r.steps.find((s: { name: string }) => s.name === "reflect")?.counts?.pagesWritten > 0,
    );
    expect(reflected).toHaveLength(1);
  });
});

describe("a long hold", () => {
  it("stays valid across refreshes even while the event loop is blocked for a while", async () => {
    const lock = await acquireWorkspaceLock(ws, { staleMs: 2000 });
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      // busy: a long synchronous parse
    }
    await new Promise((r) => setTimeout(r, 2500));
    expect(lock.compromised).toBe(false);
    await lock.release();
    expect(await isWorkspaceLocked(ws)).toBe(false);
  });
});
