/**
 * Logs as cloud sync and stray writes leave them, run through the real bin. iCloud Drive
 * ("Optimise Mac Storage") evicts a log it keeps only in the cloud, leaving a hidden
 * placeholder `.2026-03-04.md.icloud`: the log read as deleted, and its facts left the bank in
 * the next commit. A stray zero byte in a log (a tool's write, a sync's merge) made its line no
 * fact: a fact an earlier night read there left the bank with nothing but a line's warning. A log
 * a sync left half-copied (cut mid-line) lost its last facts from the bank without a word, and
 * its half line became a new fact.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const repos = notesRepos("membank-cloud-stray-");
const { git } = repos;

const LOGS = {
  "memory/2026-03-03.md": "Rainy Tuesday.\n\n## Retain\n- W @Ines: teaches the Thursday pottery class\n",
  "memory/2026-03-04.md":
    "Kiln day, glaze came out streaky.\n\n## Retain\n- W @Marek: fires the kiln on Wednesdays\n- O(c=0.7) @Marek: thinks celadon glaze is overrated\n",
};

async function afterFirstNight() {
  const dir = repos.notes(LOGS);
  const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
  expect(first.code, first.stderr).toBe(0);
  const page = path.join(dir, "bank/entities/Marek.md");
  const before = readFileSync(page, "utf8");
  expect(before).toContain("fires the kiln on Wednesdays");
  return { dir, page, before, head: git(dir, "rev-parse", "HEAD") };
}

describe("a log iCloud Drive evicted (only its .icloud placeholder is on the disk)", () => {
  it("stops the nightly saying it is in the cloud, not deleted, and how to download it; nothing is committed", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    const text = readFileSync(log);
    // What iCloud leaves: a small binary plist under a hidden name, the log itself gone.
    renameSync(log, path.join(dir, "memory/.2026-03-04.md.icloud"));
    writeFileSync(path.join(dir, "memory/.2026-03-04.md.icloud"), Buffer.from("bplist00\xd3\x01\x02\x03", "latin1"));
    for (const extra of [[], ["--accept-deleted-logs"]]) {
      const run = await runBin(["run", "nightly", ...extra, "--workspace", dir], repos.env);
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain(
        "memory/2026-03-04.md: is not on this disk: iCloud Drive keeps it only in the cloud",
      );
      expect(run.stderr).toContain("brctl download memory/2026-03-04.md");
      expect(run.stderr).toContain("membank changed nothing");
      expect(readFileSync(page, "utf8")).toBe(before);
      expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    }
    // Downloaded again (iCloud puts the log back and drops the placeholder): the night runs, the bank as it was.
    writeFileSync(log, text);
    renameSync(path.join(dir, "memory/.2026-03-04.md.icloud"), path.join(repos.tmp, "gone.icloud"));
    const again = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect([0, 3], again.stderr).toContain(again.code);
    expect(readFileSync(page, "utf8")).toBe(before);
  }, 90_000);
});

describe("a log with a stray zero byte or two in a fact's line", () => {
  it("is read without them: the fact stays in the bank, and the line is named", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    const text = readFileSync(log, "utf8");
    writeFileSync(log, text.replace("fires the kiln", "fires the\0 kiln").replace("celadon", "cela\0\0don"));
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect([0, 3], run.stderr).toContain(run.code);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "diff", "--stat", head.trim(), "HEAD", "--", "bank")).toBe("");
    expect(`${run.stdout}${run.stderr}`).toContain("memory/2026-03-04.md:4: holds 3 zero bytes amid its text");
  }, 90_000);
});

describe("a log that became a folder (a tool wrote memory/<day>.md/...)", () => {
  it("stops the nightly naming it, instead of taking its facts out of the bank", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    const text = readFileSync(log);
    rmSync(log);
    mkdirSync(log);
    writeFileSync(path.join(log, "draft.txt"), "kiln notes\n");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain("memory/2026-03-04.md: is a folder, not a file");
    expect(run.stderr).toContain("membank changed nothing");
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    rmSync(log, { recursive: true });
    writeFileSync(log, text);
    const again = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect([0, 3], again.stderr).toContain(again.code);
    expect(readFileSync(page, "utf8")).toBe(before);
  }, 90_000);
});

describe("a log a sync left half-copied (shorter than last night, cut mid-line)", () => {
  it("stops the nightly naming where it ends, instead of taking its last facts out of the bank", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    const text = readFileSync(log);
    writeFileSync(log, text.subarray(0, text.indexOf("Wednesdays") + 6)); // "...fires the kiln on Wedn"
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain("memory/2026-03-04.md:4: ends mid-line, shorter than an earlier run read it");
    expect(run.stderr).toContain("2 fact(s) an earlier run read in it would leave the bank");
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    writeFileSync(log, text); // the sync finishes
    const again = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect([0, 3], again.stderr).toContain(again.code);
    expect(readFileSync(page, "utf8")).toBe(before);
  }, 90_000);

  it("a log saved without a last line break (VS Code's default) is edited as usual: facts changed or cut with a whole last line go", async () => {
    const { dir, page } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    const text = readFileSync(log, "utf8");
    // The opinion line cut, the last line left without its break, a fact above it reworded.
    const edited = text
      .replace("- O(c=0.7) @Marek: thinks celadon glaze is overrated\n", "")
      .replace("fires the kiln on Wednesdays\n", "fires the kiln on Wednesdays and Sundays");
    writeFileSync(log, edited);
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).toBe(0);
    const after = readFileSync(page, "utf8");
    expect(after).toContain("fires the kiln on Wednesdays and Sundays");
    // An opinion taken out of its log stays on the opinions page, marked so (reflect's rule).
    expect(readFileSync(path.join(dir, "bank/opinions.md"), "utf8")).toContain("(no longer in the log)");
  }, 90_000);
});

describe("a log that is empty (0 bytes) now: an online-only placeholder (OneDrive, Dropbox) or what a crash leaves on ext4", () => {
  it("stops the nightly when an earlier night read facts in it; deleted instead, its facts go as a deleted log's", async () => {
    const { dir, page, before, head } = await afterFirstNight();
    const log = path.join(dir, "memory/2026-03-04.md");
    writeFileSync(log, "");
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain("memory/2026-03-04.md: is empty (0 bytes)");
    expect(run.stderr).toContain("membank changed nothing");
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    rmSync(log);
    const deleted = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(readFileSync(page, "utf8")).not.toContain("fires the kiln");
  }, 90_000);
});

describe("a bank page iCloud Drive evicted", () => {
  it("stops the nightly before the page is written anew without the person's text on it", async () => {
    const { dir, page, head } = await afterFirstNight();
    writeFileSync(page, `${readFileSync(page, "utf8")}\nMet him at the guild open day; ask about a wheel.\n`);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "my note on Marek");
    const mine = git(dir, "rev-parse", "HEAD");
    expect(mine).not.toBe(head);
    renameSync(page, path.join(dir, "bank/entities/.Marek.md.icloud"));
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain(
      "bank/entities/Marek.md: is not on this disk: iCloud Drive keeps it only in the cloud",
    );
    expect(git(dir, "rev-parse", "HEAD")).toBe(mine);
    expect(git(dir, "status", "--porcelain", "--", "bank/entities/Marek.md")).toBe(" D bank/entities/Marek.md\n");
  }, 90_000);
});
