/**
 * Folders of logs membank cannot read (permissions: a sync client or sudo left them 0700 for
 * another account), run through the real bin as an ordinary user. Before, a year folder that
 * could not be listed read as no logs (a few of them: their facts left the bank without a
 * word), and memory/ itself was said to be "empty".
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { notesRepos } from "./support/notes-repo.js";
import { chownRecursive, runAsUser } from "./support/run-as-user.js";

const repos = notesRepos("membank-folders-");
const { git } = repos;
const run = (args: readonly string[], dir: string) => runAsUser(repos, args, dir);

beforeAll(() => {
  chmodSync(repos.tmp, 0o755);
});

/** Notes sorted into year folders, after a first nightly; HEAD and Amara's page as they were. */
async function afterFirstNight() {
  const dir = repos.notes({
    "memory/2025/2025-11-02.md": "## Retain\n- W @Amara: teaches the Tuesday pottery class\n",
    "memory/2026/2026-01-10.md": "## Retain\n- W @Amara: fired the big kiln for the first time\n",
  });
  const first = await run(["run", "nightly", "--workspace", dir], dir);
  expect(first.code, first.stderr).toBe(0);
  const page = path.join(dir, "bank/entities/Amara.md");
  const before = readFileSync(page, "utf8");
  expect(before).toContain("teaches the Tuesday pottery class");
  return { dir, page, before, head: git(dir, "rev-parse", "HEAD") };
}

describe("a folder of logs an earlier night read, unreadable now", () => {
  it("stops the nightly naming the folder and why, instead of taking its logs' facts out of the bank", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    mkdirSync(path.join(dir, "memory/2026"), { recursive: true });
    writeFileSync(path.join(dir, "memory/2026/2026-01-11.md"), "## Retain\n- W @Amara: sold six bowls\n");
    if (process.getuid?.() === 0) chownRecursive(dir, 65534, 65534);
    chmodSync(path.join(dir, "memory/2025"), 0o000);
    const stopped = await run(["run", "nightly", "--workspace", dir], dir);
    chmodSync(path.join(dir, "memory/2025"), 0o755);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/memory\/2025: cannot be read \(EACCES\).*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  }, 60_000);
});

describe("memory/ itself unreadable", () => {
  it("is said to be unreadable, with why, not empty; nothing is written", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    if (process.getuid?.() === 0) chownRecursive(dir, 65534, 65534);
    chmodSync(path.join(dir, "memory"), 0o000);
    const stopped = await run(["run", "nightly", "--workspace", dir], dir);
    chmodSync(path.join(dir, "memory"), 0o755);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain("memory: cannot be read (EACCES)");
    expect(stopped.stderr).not.toContain("memory/ is empty");
    expect(stopped.stderr).toContain("membank changed nothing");
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  }, 60_000);
});
