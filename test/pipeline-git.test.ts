import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markCommitStart, recoverIndexLock } from "../src/pipeline/git-recovery.js";
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
    // (No wait here: test/shell-env.test.ts has a live git's lock that the run waits for.)
    await expect(recoverIndexLock(ws, undefined, 0)).rejects.toThrow(
      /index\.lock exists: another git command is running/,
    );
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
    // An hour old: no git command holds it that long, so the message says to remove it, and when it was left.
    const said = await recoverIndexLock(ws, undefined, 0).catch((error: Error) => error.message);
    expect(said).toBe(
      `${lock} was left at ${old.toISOString().replace(/\.\d+Z$/, "Z")} by a git command that crashed or was killed (none holds it that long): membank committed nothing; remove that file and run again`,
    );
    await stat(lock);
  });
});

describe("temp files of interrupted atomic writes", () => {
  it("removes only the temp files membank recorded, of writers that are gone; never a user's look-alike", async () => {
    const { removeRecordedTempFiles, writeOwnedFile } = await import("../src/workspace/owned.js");
    // A user's git-tracked backup and a draft that merely look like write-file-atomic temp files.
    await writeFile(path.join(tmp, "memory/2026-03-02.md.20260302"), "my backup of that day\n");
    await writeFile(path.join(tmp, "bank/world.md.123456789"), "a user's copy\n");
    const old = new Date(Date.now() - 3_600_000);
    await utimes(path.join(tmp, "memory/2026-03-02.md.20260302"), old, old);
    await utimes(path.join(tmp, "bank/world.md.123456789"), old, old);
    // What a killed membank left: a temp file it recorded, from a pid that is gone.
    await mkdir(path.join(tmp, ".memory"), { recursive: true });
    await writeFile(path.join(tmp, "bank/opinions.md.3141592653"), "half a page");
    await writeFile(path.join(tmp, "bank/experience.md.2718281828"), "being written by a live process");
    await writeFile(
      path.join(tmp, ".memory/temp-files.jsonl"),
      `${JSON.stringify({ tmp: "bank/opinions.md.3141592653", pid: 999_999_999 })}\n${JSON.stringify({ tmp: "bank/experience.md.2718281828", pid: process.ppid })}\n`,
    );
    // A real write records its temp file and leaves nothing behind.
    await writeOwnedFile(ws, "bank/world.md", "# world\nnew\n");
    expect(await removeRecordedTempFiles(ws)).toEqual(["bank/opinions.md.3141592653"]);
    await expect(stat(path.join(tmp, "memory/2026-03-02.md.20260302"))).resolves.toBeDefined();
    await expect(stat(path.join(tmp, "bank/world.md.123456789"))).resolves.toBeDefined();
    await expect(stat(path.join(tmp, "bank/experience.md.2718281828"))).resolves.toBeDefined();
    // The live writer's record is kept for a later cleanup; ours (done) and the dead one's are gone.
    const left = await import("node:fs/promises").then((fs) =>
      fs.readFile(path.join(tmp, ".memory/temp-files.jsonl"), "utf8"),
    );
    expect(left).toContain("experience.md.2718281828");
    expect(left).not.toContain("opinions.md.3141592653");
  });
});
