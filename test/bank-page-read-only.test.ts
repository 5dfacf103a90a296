/**
 * A bank page the user made read-only (chmod a-w) to keep it as it is. Before, membank's
 * atomic rename replaced it anyway (a rename needs no write permission on the file) and
 * committed it. Now a read-only page is hands-off: not written, not committed, said once per
 * run with how to hand it back; once writable again, the next run brings it up to date.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const repos = notesRepos("membank-readonly-");
const { git } = repos;

/** A user's notes in git, in their own words, before membank's first night. */
const notes = (): string =>
  repos.notes({
    "memory/2026-06-01.md":
      "Choir practice ran long.\n\n## Retain\n- W @Marguerite: conducts the Tuesday choir\n- W @Desmond: sings bass, new this term\n",
  });

const nightly = (dir: string) => runBin(["run", "nightly", "--workspace", dir], repos.env);

describe("a bank page made read-only by its user", () => {
  it("is left as it is and out of the commit, said each run with how to hand it back; updated once writable", async () => {
    const dir = notes();
    expect((await nightly(dir)).code).toBe(0);
    const page = path.join(dir, "bank/entities/Marguerite.md");
    const kept = "# Marguerite\n\nMy own page about Marguerite; membank, hands off.\n";
    writeFileSync(page, kept);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "my page");
    chmodSync(page, 0o444);
    writeFileSync(
      path.join(dir, "memory/2026-06-02.md"),
      "## Retain\n- W @Marguerite: moved rehearsals to the church hall\n- W @Desmond: brought his own music stand\n",
    );
    const head = git(dir, "rev-parse", "HEAD").trim();

    const run = await nightly(dir);
    expect(run.code, run.stderr).toBe(0);
    const said = `${run.stdout}\n${run.stderr}`;
    expect(said).toContain("bank/entities/Marguerite.md");
    expect(said).toMatch(/read-only/);
    expect(said).toContain("chmod u+w bank/entities/Marguerite.md");
    expect(said.split("bank/entities/Marguerite.md is read-only").length).toBe(2); // once
    expect(readFileSync(page, "utf8")).toBe(kept);
    expect(statSync(page).mode & 0o777).toBe(0o444);
    // The rest of the bank moves on; the read-only page is in no commit.
    expect(readFileSync(path.join(dir, "bank/entities/Desmond.md"), "utf8")).toContain("brought his own music stand");
    expect(git(dir, "log", "--format=%H", `${head}..HEAD`, "--", "bank/entities/Marguerite.md")).toBe("");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");

    // A second night with nothing new: nothing written, nothing committed, still said.
    const again = await nightly(dir);
    expect(again.stdout).toContain("run: nothing to do"); // exit 3, as any night with nothing new
    expect(`${again.stdout}\n${again.stderr}`).toContain("bank/entities/Marguerite.md is read-only");
    expect(readFileSync(page, "utf8")).toBe(kept);

    // Handed back: the next run brings it up to date, with the fact of the night it was kept.
    chmodSync(page, 0o644);
    const back = await nightly(dir);
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(page, "utf8")).toContain("moved rehearsals to the church hall");
    expect(readFileSync(page, "utf8")).toContain("My own page about Marguerite");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  }, 60_000);

  it("a read-only opinions page stops the run before anything is written (opinions evolve from it)", async () => {
    const dir = notes();
    writeFileSync(
      path.join(dir, "memory/2026-06-01.md"),
      "## Retain\n- O(c=0.7) @Desmond: thinks the choir should sing more Britten\n",
    );
    expect((await nightly(dir)).code).toBe(0);
    const opinions = path.join(dir, "bank/opinions.md");
    const before = readFileSync(opinions, "utf8");
    chmodSync(opinions, 0o444);
    writeFileSync(
      path.join(dir, "memory/2026-06-03.md"),
      "## Retain\n- O(c=0.9) @Desmond: thinks the choir should sing more Britten\n- W @Desmond: bought a new tuning fork\n",
    );
    const head = git(dir, "rev-parse", "HEAD").trim();
    const run = await nightly(dir);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}\n${run.stderr}`).toContain("chmod u+w bank/opinions.md");
    expect(readFileSync(opinions, "utf8")).toBe(before);
    expect(readFileSync(path.join(dir, "bank/entities/Desmond.md"), "utf8")).not.toContain("tuning fork");
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
  }, 60_000);

  it("a page of zero bytes only (a crash while it was saved) is left as it is, said with how to restore it; restored, it catches up", async () => {
    const dir = notes();
    expect((await nightly(dir)).code).toBe(0);
    const page = path.join(dir, "bank/entities/Marguerite.md");
    const zeros = Buffer.alloc(readFileSync(page).length);
    writeFileSync(page, zeros);
    writeFileSync(
      path.join(dir, "memory/2026-06-02.md"),
      "## Retain\n- W @Marguerite: moved rehearsals to the church hall\n",
    );
    const head = git(dir, "rev-parse", "HEAD").trim();
    const run = await nightly(dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "bank/entities/Marguerite.md holds only zero bytes (what a crash or power loss leaves of a file being written): left as it is and not committed; restore it from git (git checkout -- bank/entities/Marguerite.md)",
    );
    expect(readFileSync(page)).toEqual(zeros);
    expect(git(dir, "log", "--format=%H", `${head}..HEAD`, "--", "bank/entities/Marguerite.md")).toBe("");
    git(dir, "checkout", "--", "bank/entities/Marguerite.md");
    const back = await nightly(dir);
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(page, "utf8")).toContain("moved rehearsals to the church hall");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  }, 60_000);

  it("a bank copied from a read-only place (every page read-only): said in one line, nothing written or committed", async () => {
    const dir = notes();
    writeFileSync(
      path.join(dir, "memory/2026-05-31.md"),
      "## Retain\n- W @Ada: plays the organ\n- W @Bea: turns the pages\n- W @Cy: tunes the piano\n- W @Dot: keeps the register\n",
    );
    expect((await nightly(dir)).code).toBe(0);
    writeFileSync(path.join(dir, "memory/2026-06-02.md"), "## Retain\n- W @Desmond: brought his own music stand\n");
    const bank = (rel: string) => path.join(dir, "bank", rel);
    const pages = ["Ada", "Bea", "Cy", "Dot", "Marguerite", "Desmond"].map((n) => `entities/${n}.md`);
    const present = [...pages, "world.md", "proposals.md"].filter((p) => existsSync(bank(p)));
    expect(present.length).toBe(8);
    for (const p of present) chmodSync(bank(p), 0o444);
    const head = git(dir, "rev-parse", "HEAD").trim();
    const run = await nightly(dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `${present.length} bank pages are read-only \\(.*\\): left as they are and not committed; to hand them back to membank: chmod -R u\\+w bank`,
      ),
    );
    expect(run.stdout).not.toContain("bank/entities/Desmond.md is read-only");
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);
  }, 60_000);
});
