/**
 * States people's disks and clones end up in, run through the real bin: a bank page replaced
 * by a folder of the same name (before, the run stopped saying "a file is a folder where
 * membank expects a file" without naming it: Node's EISDIR carries no path), and a shallow
 * clone (it already behaved; no other test covers one).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const repos = notesRepos("membank-disk-");
const { git } = repos;

/** A user's notes in git, in their own words, before membank's first night. */
const notes = (): string =>
  repos.notes({
    "memory/2026-07-01.md":
      "Quiz night.\n\n## Retain\n- W @Farid: captains the pub quiz team\n- W @Ines: knows every capital city\n",
  });

describe("a bank page replaced by a folder of the same name", () => {
  it("stops the nightly naming the folder, before any page is written or committed; the folder is kept", async () => {
    const dir = notes();
    expect((await runBin(["run", "nightly", "--workspace", dir], repos.env)).code).toBe(0);
    const page = path.join(dir, "bank/entities/Farid.md");
    rmSync(page);
    mkdirSync(page);
    writeFileSync(path.join(page, "photo-notes.txt"), "quiz photos\n");
    writeFileSync(
      path.join(dir, "memory/2026-07-08.md"),
      "## Retain\n- W @Farid: won the quiz on a tie-break\n- W @Ines: brought her cousin along\n",
    );
    const ines = readFileSync(path.join(dir, "bank/entities/Ines.md"), "utf8");
    const head = git(dir, "rev-parse", "HEAD");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${page} is a folder where membank expects a file (EISDIR)`);
    expect(readFileSync(path.join(dir, "bank/entities/Ines.md"), "utf8")).toBe(ines);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(path.join(page, "photo-notes.txt"), "utf8")).toBe("quiz photos\n");
  }, 30_000);
});

describe("a shallow clone (git clone --depth 1, as on a new laptop or in CI)", () => {
  it("runs the nightly on top of its one commit: the other machine's facts kept, the new ones committed", async () => {
    const origin = notes();
    expect((await runBin(["run", "nightly", "--workspace", origin], repos.env)).code).toBe(0);
    writeFileSync(
      path.join(origin, "memory/2026-07-08.md"),
      "## Retain\n- W @Ines: moved to the team's Thursday slot\n",
    );
    git(origin, "add", "-A");
    git(origin, "commit", "-qm", "a week on");
    const dir = repos.fresh("clone");
    git(repos.tmp, "clone", "-q", "--depth", "1", `file://${origin}`, dir);
    expect(git(dir, "rev-parse", "--is-shallow-repository").trim()).toBe("true");
    writeFileSync(path.join(dir, "memory/2026-07-15.md"), "## Retain\n- W @Farid: set the questions for the final\n");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(dir, "bank/entities/Ines.md"), "utf8")).toContain("knows every capital city");
    expect(readFileSync(path.join(dir, "bank/entities/Ines.md"), "utf8")).toContain(
      "moved to the team's Thursday slot",
    );
    expect(readFileSync(path.join(dir, "bank/entities/Farid.md"), "utf8")).toContain("set the questions for the final");
    expect(git(dir, "log", "--format=%s").trim().split("\n")).toHaveLength(2);
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  }, 30_000);
});

describe("bank/ moved to another folder and linked back (a synced folder, another project)", () => {
  it("stops the nightly naming the link before anything is written there or committed", async () => {
    const dir = notes();
    expect((await runBin(["run", "nightly", "--workspace", dir], repos.env)).code).toBe(0);
    const elsewhere = repos.fresh("elsewhere");
    mkdirSync(elsewhere);
    renameSync(path.join(dir, "bank"), path.join(elsewhere, "bank"));
    symlinkSync(path.join(elsewhere, "bank"), path.join(dir, "bank"));
    const farid = readFileSync(path.join(elsewhere, "bank/entities/Farid.md"), "utf8");
    writeFileSync(path.join(dir, "memory/2026-07-08.md"), "## Retain\n- W @Farid: won the quiz on a tie-break\n");
    const head = git(dir, "rev-parse", "HEAD");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/bank\/\S+ leads outside the workspace .* through a symbolic link/);
    expect(readFileSync(path.join(elsewhere, "bank/entities/Farid.md"), "utf8")).toBe(farid);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  }, 30_000);
});

describe("a named pipe (FIFO) where a log would be, named like one", () => {
  it("is passed over: the nightly neither hangs on it nor stops, the other logs are read", async () => {
    const dir = notes();
    execFileSync("mkfifo", [path.join(dir, "memory/2026-07-02.md")]);
    writeFileSync(path.join(dir, "memory/2026-07-03.md"), "## Retain\n- W @Ines: joined the choir\n");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(dir, "bank/entities/Ines.md"), "utf8")).toContain("joined the choir");
  }, 30_000);
});
