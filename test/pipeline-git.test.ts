import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dirtySince, markCommitStart, recoverIndexLock } from "../src/pipeline/git-recovery.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
let tmp: string;
let ws: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-git-"));
  await mkdir(path.join(tmp, "memory"));
  await mkdir(path.join(tmp, "bank"));
  await writeFile(path.join(tmp, "memory/2026-01-01.md"), "# day\n");
  await writeFile(path.join(tmp, "bank/world.md"), "# world\n");
  await exec("git", ["init", "-q"], { cwd: tmp });
  await exec("git", ["add", "-A"], { cwd: tmp });
  await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], { cwd: tmp });
  ws = await openWorkspace(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("git recovery after a kill", () => {
  it("removes an index.lock left by an interrupted membank commit, and only that", async () => {
    const lock = path.join(tmp, ".git/index.lock");
    // No marker: someone else's git is running (or crashed): refuse with a clear message.
    await writeFile(lock, "");
    await expect(recoverIndexLock(ws)).rejects.toThrow(/index\.lock exists: another git command is running/);
    // Our marker from a dead run, lock newer than the marker: ours, removed.
    await mkdir(path.join(tmp, ".memory"), { recursive: true });
    await writeFile(
      path.join(tmp, ".memory/commit-in-progress.json"),
      JSON.stringify({ pid: 999999, at: Date.now() - 1000 }),
    );
    const note = await recoverIndexLock(ws);
    expect(note).toMatch(/removed .*index\.lock left by an interrupted membank commit \(pid 999999\)/);
    await expect(stat(lock)).rejects.toThrow();
    await expect(stat(path.join(tmp, ".memory/commit-in-progress.json"))).rejects.toThrow();
    // A lock much older than our marker is not ours.
    await markCommitStart(ws);
    await writeFile(lock, "");
    const old = new Date(Date.now() - 3_600_000);
    await utimes(lock, old, old);
    await writeFile(path.join(tmp, ".memory/commit-in-progress.json"), JSON.stringify({ pid: 999999, at: Date.now() }));
    await expect(recoverIndexLock(ws)).rejects.toThrow(/index\.lock exists/);
  });

  it("finds the memory and bank files changed since a time (what a killed step wrote)", async () => {
    const before = Date.now() - 60_000;
    await writeFile(path.join(tmp, "bank/world.md"), "# world\nnew\n");
    await writeFile(path.join(tmp, "memory/2026-01-02-sessions.md"), "# s\n");
    await writeFile(path.join(tmp, "notes.md"), "outside memory and bank\n");
    expect(await dirtySince(ws, before)).toEqual(["bank/world.md", "memory/2026-01-02-sessions.md"]);
    const old = new Date(Date.now() - 3_600_000);
    await utimes(path.join(tmp, "bank/world.md"), old, old);
    expect(await dirtySince(ws, Date.now() - 1000)).toEqual(["memory/2026-01-02-sessions.md"]);
  });
});

describe("temp files of interrupted atomic writes", () => {
  it("removes old write-file-atomic leftovers in memory/, bank/ and .memory/, keeps young ones and other files", async () => {
    const { removeStaleTempFiles } = await import("../src/pipeline/cleanup.js");
    await mkdir(path.join(tmp, ".memory/runs"), { recursive: true });
    const old = new Date(Date.now() - 3_600_000);
    for (const f of ["bank/world.md.123456789", "memory/2026-01-01.md.42", ".memory/runs/x.json.987654"]) {
      await writeFile(path.join(tmp, f), "partial");
      await utimes(path.join(tmp, f), old, old);
    }
    await writeFile(path.join(tmp, "bank/opinions.md.55555"), "being written right now");
    await writeFile(path.join(tmp, "memory/notes.md.bak"), "a user's file");
    expect(await removeStaleTempFiles(ws)).toEqual([
      ".memory/runs/x.json.987654",
      "bank/world.md.123456789",
      "memory/2026-01-01.md.42",
    ]);
    await expect(stat(path.join(tmp, "bank/opinions.md.55555"))).resolves.toBeDefined();
    await expect(stat(path.join(tmp, "memory/notes.md.bak"))).resolves.toBeDefined();
  });
});
