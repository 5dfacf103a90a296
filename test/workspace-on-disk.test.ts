/**
 * Logs and pages out of sight are not deleted logs and new pages. Before this check a sparse
 * checkout without memory/ made the nightly commit a bank emptied of every fact ("no longer in
 * the log" on all evidence), and one without bank/ rebuilt the pages without the user's text.
 * A memory/ folder missing or empty (a drive not mounted) did the same. Now nothing is written
 * or committed, and the run says why and what to do.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ordinaryShellEnv, REPO_ROOT, runBin } from "./cli-bin.js";

let tmp: string;
let env: NodeJS.ProcessEnv;
let n = 0;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, encoding: "utf8" });

/** The natural fixture after its first nightly, committed, plus a note of the user's own on a page. */
async function workspace(): Promise<string> {
  const dir = path.join(tmp, `ws-${n++}`);
  cpSync(path.join(REPO_ROOT, "fixtures/natural"), dir, { recursive: true });
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "logs");
  const first = await runBin(["run", "nightly", "--workspace", dir], env);
  expect(first.code, first.stderr).toBe(0);
  return dir;
}

/** Every file under bank/ with its bytes (absent folder: empty). */
function bankFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const bank = path.join(dir, "bank");
  if (!existsSync(bank)) return out;
  for (const rel of readdirSync(bank, { recursive: true, encoding: "utf8" })) {
    const abs = path.join(bank, rel);
    if (rel.endsWith(".md")) out.set(rel, readFileSync(abs, "utf8"));
  }
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "membank-on-disk-"));
  env = await ordinaryShellEnv(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the workspace's Markdown out of sight", () => {
  it("a sparse checkout without memory/: the nightly refuses, commits nothing and leaves the bank as it was", async () => {
    const dir = await workspace();
    git(dir, "sparse-checkout", "set", "--no-cone", "/*", "!/memory/");
    expect(existsSync(path.join(dir, "memory"))).toBe(false);
    const head = git(dir, "rev-parse", "HEAD");
    const before = bankFiles(dir);

    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /memory\/2026-\d\d-\d\d\.md and \d+ more tracked file\(s\) are outside this git sparse checkout/,
    );
    expect(run.stderr).toContain("git sparse-checkout add memory bank");
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(bankFiles(dir)).toEqual(before);
    expect(git(dir, "status", "--porcelain")).toBe("");

    // Once the logs are back, the nightly runs again and finds nothing new.
    git(dir, "sparse-checkout", "disable");
    const again = await runBin(["run", "nightly", "--workspace", dir], env);
    expect([0, 3], again.stderr).toContain(again.code); // 3: nothing to do
    expect(bankFiles(dir)).toEqual(before);
  });

  it("a sparse checkout without bank/: no page is rebuilt without the user's text", async () => {
    const dir = await workspace();
    git(dir, "sparse-checkout", "set", "--no-cone", "/*", "!/bank/");
    const head = git(dir, "rev-parse", "HEAD");

    const run = await runBin(["reflect", "--workspace", dir], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/bank\/\S+\.md and \d+ more tracked file\(s\) are outside this git sparse checkout/);
    expect(existsSync(path.join(dir, "bank"))).toBe(false);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  });

  it("memory/ moved away or left empty (a drive not mounted): refused with the reason, nothing lost", async () => {
    const dir = await workspace();
    const before = bankFiles(dir);
    const head = git(dir, "rev-parse", "HEAD");
    renameSync(path.join(dir, "memory"), path.join(tmp, `away-${n}`));

    const missing = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/memory\/ is missing but bank\/\S+ cites memory\/2026-\d\d-\d\d\.md/);

    mkdirSync(path.join(dir, "memory"));
    const empty = await runBin(["reflect", "--workspace", dir], env);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain("memory/ is empty but");
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(bankFiles(dir)).toEqual(before);
  });

  it("a page the user deleted is written anew but not committed, and the run says how to get the user's text back", async () => {
    const dir = await workspace();
    const page = "bank/entities/Elin.md";
    const abs = path.join(dir, page);
    writeFileSync(abs, `${readFileSync(abs, "utf8")}\nElin prefers calls before ten.\n`);
    git(dir, "commit", "-qam", "my note on Elin");
    const head = git(dir, "rev-parse", "HEAD");
    rmSync(abs);

    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(run.stdout).toContain(`${page}: written, not committed: it was missing when membank wrote it anew`);
    expect(run.stdout).toContain(`git checkout HEAD -- ${page}`);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);

    git(dir, "checkout", "HEAD", "--", page);
    const again = await runBin(["run", "nightly", "--workspace", dir], env);
    expect([0, 3], again.stderr).toContain(again.code);
    expect(readFileSync(abs, "utf8")).toContain("Elin prefers calls before ten.");
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("memory/ linked to a folder outside the workspace: the run says it reads none of it, and why", async () => {
    const dir = path.join(tmp, "linked");
    mkdirSync(dir);
    cpSync(path.join(REPO_ROOT, "fixtures/natural/memory"), path.join(tmp, "synced-memory"), { recursive: true });
    symlinkSync(path.join(tmp, "synced-memory"), path.join(dir, "memory"));
    git(dir, "init", "-q");
    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect([0, 3], run.stderr).toContain(run.code);
    expect(`${run.stdout}${run.stderr}`).toContain(
      `memory: not indexed: is a link to ${realpathSync(path.join(tmp, "synced-memory"))}, outside the workspace`,
    );
  });

  it("a workspace with MEMORY.md and no daily logs yet still runs", async () => {
    const dir = path.join(tmp, "core-only");
    mkdirSync(dir);
    cpSync(path.join(REPO_ROOT, "fixtures/natural/MEMORY.md"), path.join(dir, "MEMORY.md"));
    git(dir, "init", "-q");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "core");
    const first = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/commit: [0-9a-f]{12}/);
    const second = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(second.code, second.stderr).toBe(3); // nothing to do
  });
});

describe("many logs gone at once", () => {
  /** Every log path bank/ cites, across all pages (opinion evidence whose line is gone stays, marked so: not a citation). */
  const citedLogs = (dir: string) =>
    new Set(
      [...bankFiles(dir).values()]
        .flatMap((t) => t.split("\n"))
        .filter((line) => !line.includes("(no longer in the log)"))
        .flatMap((line) => [...line.matchAll(/memory\/[\w/-]*\d{4}-\d\d-\d\d\.md/g)].map((m) => m[0])),
    );
  const logs = (dir: string) =>
    readdirSync(path.join(dir, "memory"))
      .filter((f) => f.endsWith(".md"))
      .sort();
  /** Move `count` logs (every other one, so dates spread) out of the workspace, as a sync half done would. */
  const hide = (dir: string, count: number) => {
    const away = path.join(tmp, `away-${n++}`);
    mkdirSync(away);
    const moved = logs(dir)
      .filter((_, i) => i % 2 === 1)
      .slice(0, count);
    for (const f of moved) renameSync(path.join(dir, "memory", f), path.join(away, f));
    return { away, moved };
  };

  it("a third of the logs gone: the nightly refuses, commits nothing, and runs on once they are back", async () => {
    const dir = await workspace();
    const head = git(dir, "rev-parse", "HEAD");
    const before = bankFiles(dir);
    const { away, moved } = hide(dir, 6);

    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/6 of the \d+ daily logs the last run read are gone from the disk \(memory\/2026-/);
    expect(run.stderr).toContain("--accept-deleted-logs");
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(bankFiles(dir)).toEqual(before);
    // Only the user's own change shows: the logs that are gone.
    const status = git(dir, "status", "--porcelain").split("\n").filter(Boolean);
    expect(status.map((l) => l.trim()).sort()).toEqual(moved.map((f) => `D memory/${f}`));
    // `membank reflect` (a full run) refuses as well.
    const reflect = await runBin(["reflect", "--workspace", dir], env);
    expect(reflect.code).not.toBe(0);
    expect(reflect.stderr).toMatch(/6 of the \d+ daily logs the last run read are gone/);
    expect(bankFiles(dir)).toEqual(before);

    for (const f of moved) renameSync(path.join(away, f), path.join(dir, "memory", f));
    const back = await runBin(["run", "nightly", "--workspace", dir], env);
    expect([0, 3], back.stderr).toContain(back.code);
    expect(bankFiles(dir)).toEqual(before);
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("deleted on purpose: --accept-deleted-logs takes their facts out of the bank in one commit", async () => {
    const dir = await workspace();
    const { moved } = hide(dir, 6);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "drop old logs");
    const run = await runBin(["run", "nightly", "--accept-deleted-logs", "--workspace", dir], env);
    expect(run.code, run.stderr).toBe(0);
    const cited = citedLogs(dir);
    for (const f of moved) expect(cited.has(`memory/${f}`)).toBe(false);
    expect(git(dir, "status", "--porcelain")).toBe("");
    // The next run has nothing to refuse: the last run read the logs as they are now.
    const next = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(next.code, next.stderr).toBe(3);
  });

  it("two logs deleted by hand: taken as deleted, no flag needed", async () => {
    const dir = await workspace();
    const { moved } = hide(dir, 2);
    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(run.code, run.stderr).toBe(0);
    const cited = citedLogs(dir);
    for (const f of moved) expect(cited.has(`memory/${f}`)).toBe(false);
  });

  it("logs sorted into a year folder are moved, not gone: the bank cites them at their new place", async () => {
    const dir = await workspace();
    const before = citedLogs(dir).size;
    mkdirSync(path.join(dir, "memory", "2026"));
    for (const f of logs(dir)) renameSync(path.join(dir, "memory", f), path.join(dir, "memory", "2026", f));
    const run = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(run.code, run.stderr).toBe(0);
    const cited = citedLogs(dir);
    expect(cited.size).toBe(before);
    for (const p of cited) expect(p.startsWith("memory/2026/")).toBe(true);
  });
});
