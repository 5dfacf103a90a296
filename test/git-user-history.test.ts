/**
 * What the user did to membank's pages stays done. A page saved by a Latin-1 editor had its
 * accents turned into U+FFFD by the next night's rewrite, committed in membank's name.
 * What the user did in git stays done too. Before, a page the user removed in
 * a commit of their own (`git rm`, a `git revert` of membank's commit, a reset) was written
 * again and committed the very next night in membank's name, with no word about it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ordinaryShellEnv, runBin } from "./cli-bin.js";

let tmp: string;
let env: NodeJS.ProcessEnv;
let n = 0;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, encoding: "utf8" });

/** A choir member's notes after membank's first night, committed. */
async function workspace(): Promise<string> {
  const dir = path.join(tmp, `ws-${n++}`);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  writeFileSync(
    path.join(dir, "memory/2026-05-18.md"),
    "Choir night. Grete brought cake again.\n\n## Retain\n- W @Grete: sings alto, moved over from the sopranos in March\n- O(c=0.6) @Grete: finds the new conductor too fussy about breathing\n- W @StMarys: rehearsals moved to the church hall on Mondays\n",
  );
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "notes");
  const first = await runBin(["run", "nightly", "--workspace", dir], env);
  expect(first.code, first.stderr).toBe(0);
  return dir;
}

const nightly = async (dir: string) => {
  const run = await runBin(["run", "nightly", "--workspace", dir], env);
  expect([0, 3], run.stderr).toContain(run.code);
  return run;
};

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "membank-user-history-"));
  env = await ordinaryShellEnv(tmp);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("a page the user took out of git", () => {
  it("by a commit of theirs: written again from the logs but never committed back, said every night; a new entity's page still commits", async () => {
    const dir = await workspace();
    const page = "bank/entities/StMarys.md";
    git(dir, "rm", "-q", page);
    git(dir, "commit", "-qm", "don't need a page for the church");
    const removal = git(dir, "rev-parse", "HEAD").trim();
    writeFileSync(
      path.join(dir, "memory/2026-05-25.md"),
      "## Retain\n- W @Grete: is organising the summer concert raffle\n- W @Oskar: new tenor, works nights at the bakery\n",
    );
    git(dir, "add", "memory");
    git(dir, "commit", "-qm", "monday");

    const run = await nightly(dir);
    expect(run.stdout).toContain(`${page}: written, not committed: you took it out of git`);
    const tree = git(dir, "ls-tree", "-r", "--name-only", "HEAD", "bank");
    expect(tree).not.toContain(page);
    expect(tree).toContain("bank/entities/Oskar.md"); // new tonight: committed as ever
    expect(git(dir, "log", "--format=%H", "-1", "--", page).trim()).toBe(removal);

    // The user deletes it again; the next night says the same and still commits nothing of it.
    rmSync(path.join(dir, page));
    const again = await nightly(dir);
    expect(again.stdout).toContain(`${page}: written, not committed: you took it out of git`);
    expect(git(dir, "ls-tree", "-r", "--name-only", "HEAD", "bank")).not.toContain(page);

    // Committing it is how to have it back; membank then keeps it up to date again.
    git(dir, "add", page);
    git(dir, "commit", "-qm", "ok, keep it");
    writeFileSync(
      path.join(dir, "memory/2026-06-01.md"),
      "## Retain\n- W @StMarys: the hall's heating is broken until July\n",
    );
    git(dir, "add", "memory");
    git(dir, "commit", "-qm", "june");
    const kept = await nightly(dir);
    expect(kept.stdout).not.toContain("you took it out of git");
    expect(git(dir, "show", `HEAD:${page}`)).toContain("heating is broken");
    expect(git(dir, "status", "--porcelain")).toBe("");
  });

  it("by `git revert` of membank's first night: the next night does not commit the pages back", async () => {
    const dir = await workspace();
    git(dir, "revert", "--no-edit", "HEAD");
    const head = git(dir, "rev-parse", "HEAD").trim();
    const run = await nightly(dir);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
    expect(run.stdout).toContain("bank/entities/Grete.md: written, not committed: you took it out of git");
    expect(existsSync(path.join(dir, "bank/entities/Grete.md"))).toBe(true);
    expect(readFileSync(path.join(dir, "memory/2026-05-18.md"), "utf8")).toContain("Grete brought cake");
  });
});

describe("a branch without membank's pages", () => {
  it("made before membank's first night: the nightly there commits the pages on that branch, and `git switch` back is not blocked by them", async () => {
    const dir = path.join(tmp, `ws-${n++}`);
    mkdirSync(path.join(dir, "memory"), { recursive: true });
    writeFileSync(path.join(dir, "memory/2026-05-18.md"), "## Retain\n- W @Grete: sings alto\n");
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "notes");
    git(dir, "branch", "drafts");
    await nightly(dir);
    git(dir, "switch", "-q", "drafts");
    expect(existsSync(path.join(dir, "bank"))).toBe(false);
    writeFileSync(path.join(dir, "memory/2026-05-25.md"), "## Retain\n- W @Oskar: new tenor\n");
    const run = await nightly(dir);
    expect(run.stdout).not.toContain("you took it out of git");
    expect(git(dir, "ls-tree", "-r", "--name-only", "HEAD", "bank")).toContain("bank/entities/Grete.md");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
    git(dir, "switch", "-q", "main");
    expect(git(dir, "show", "HEAD:bank/entities/Grete.md")).toContain("sings alto");
  });

  it("reset to before membank's first night on the same branch: the pages are not committed back", async () => {
    const dir = await workspace();
    git(dir, "reset", "-q", "--hard", "HEAD~1");
    const head = git(dir, "rev-parse", "HEAD").trim();
    const run = await nightly(dir);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
    expect(run.stdout).toContain("bank/entities/Grete.md: written, not committed: you took it out of git");
  });
});

describe("a page the user saved in another encoding", () => {
  it("is not rewritten: one line naming file and line, nothing written or committed; once saved as UTF-8 the next night updates it", async () => {
    const dir = await workspace();
    const page = path.join(dir, "bank/entities/Grete.md");
    // Typed in an old Windows editor (cp1252): "Grete's sister runs the café in Málaga".
    const note = Buffer.from("\nGrete's sister runs the caf\xe9 in M\xe1laga.\n", "latin1");
    writeFileSync(page, Buffer.concat([readFileSync(page), note]));
    git(dir, "commit", "-qam", "note on Grete");
    const head = git(dir, "rev-parse", "HEAD").trim();
    const before = readFileSync(page);
    writeFileSync(
      path.join(dir, "memory/2026-05-25.md"),
      "## Retain\n- W @Grete: is organising the summer concert raffle\n",
    );
    git(dir, "add", "memory");
    git(dir, "commit", "-qm", "monday");
    const refused = await runBin(["run", "nightly", "--workspace", dir], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/bank\/entities\/Grete\.md:\d+: not valid UTF-8 \(byte 0xE9\)/);
    expect(readFileSync(page)).toEqual(before);
    expect(git(dir, "log", "-1", "--format=%s")).toContain("monday");

    writeFileSync(
      page,
      Buffer.concat([before.subarray(0, before.length - note.length), Buffer.from(note.toString("latin1"))]),
    );
    git(dir, "commit", "-qam", "saved as UTF-8");
    const fixed = await nightly(dir);
    expect(fixed.code).toBe(0);
    const text = readFileSync(page, "utf8");
    expect(text).toContain("runs the café in Málaga.");
    expect(text).toContain("summer concert raffle");
    expect(git(dir, "log", "-1", "--format=%s")).toMatch(/^membank/);
    expect(head).not.toBe(git(dir, "rev-parse", "HEAD").trim());
  });
});
