/**
 * Log files that are odd on disk, run through the real bin from an ordinary shell: a log
 * membank could not read one night (permissions), and files named for days that do not
 * exist. Before, the first was taken as read for good (its facts never reached the bank once
 * readable, since its mtime did not move) and the second gave no facts and said nothing.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";
import { chownRecursive, runAsUser as runAs } from "./support/run-as-user.js";

const repos = notesRepos("membank-odd-logs-");
const { git } = repos;

/** A user's notes in git, in their own words, before membank's first night. */
const notes = (): string =>
  repos.notes({
    "memory/2026-04-13.md":
      "Back from the allotment, knees aching.\n\n## Retain\n- W @Halima: runs the seed swap at the community hall\n- O(c=0.65) @Halima: reckons broad beans do better sown in autumn\n",
    "MEMORY.md": "# Core\n\nI keep an allotment, plot 14.\n",
  });

/**
 * Notes after a first nightly, and a check for a run that must refuse: it exits non-zero,
 * says each of `said` and that it changed nothing, and leaves Halima's page and HEAD as they were.
 */
async function afterFirstNight() {
  const dir = notes();
  const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
  expect(first.code, first.stderr).toBe(0);
  const page = path.join(dir, "bank/entities/Halima.md");
  const before = readFileSync(page, "utf8");
  const head = git(dir, "rev-parse", "HEAD");
  const refused = async (...said: string[]) => {
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code).not.toBe(0);
    for (const text of [...said, "membank changed nothing"]) expect(run.stderr).toContain(text);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  };
  return { dir, page, refused };
}

const runAsUser = (args: readonly string[], dir: string) => runAs(repos, args, dir);

// runAsUser runs the bin as another user: the temp dir must be theirs to enter.
beforeAll(() => {
  chmodSync(repos.tmp, 0o755);
});

describe("a log membank could not read", () => {
  it("is said that night, and its facts reach the bank on the first run after it can be read", async () => {
    const dir = notes();
    const first = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect(first.code, first.stderr).toBe(0);

    // Written in the evening with a umask of 077 by another account (a sync client, sudo).
    const log = path.join(dir, "memory/2026-04-14.md");
    writeFileSync(
      log,
      "Rain all day.\n\n## Retain\n- W @Dariusz: lends out his rotavator if you bring it back clean\n",
    );
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "day");
    if (process.getuid?.() === 0) chownRecursive(dir, 65534, 65534);
    chmodSync(log, 0o000);
    const blocked = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect([0, 3], blocked.stderr).toContain(blocked.code);
    expect(blocked.stdout).toMatch(/memory\/2026-04-14\.md:1: cannot read the file \(EACCES\)/);
    expect(existsSync(path.join(dir, "bank/entities/Dariusz.md"))).toBe(false);

    chmodSync(log, 0o644); // the mtime stays as it was
    const after = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect(after.code, after.stderr).toBe(0);
    expect(readFileSync(path.join(dir, "bank/entities/Dariusz.md"), "utf8")).toContain("lends out his rotavator");
    expect(git(dir, "status", "--porcelain")).toBe("");
    const quiet = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect(quiet.code, quiet.stderr).toBe(3); // nothing left to do
  });
});

describe("a log an earlier night read, unreadable now", () => {
  it("stops the nightly naming it, instead of taking its facts out of the bank; runs on once readable", async () => {
    const dir = notes();
    const first = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect(first.code, first.stderr).toBe(0);
    const page = path.join(dir, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    const log = path.join(dir, "memory/2026-04-13.md");
    // Restored from a backup by root (a new mtime), with the owner's read taken away.
    writeFileSync(log, readFileSync(log));
    chmodSync(log, 0o000);
    const stopped = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/memory\/2026-04-13\.md: cannot read the file \(EACCES\).*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    chmodSync(log, 0o644);
    const after = await runAsUser(["run", "nightly", "--workspace", dir], dir);
    expect([0, 3], after.stderr).toContain(after.code);
    expect(readFileSync(page, "utf8")).toContain("runs the seed swap");
  });
});

describe("a log an earlier `membank reflect` read, unreadable now, after an upgrade dropped reflect's record of it", () => {
  it("stops the hand-run reflect naming it (the bank's citations say it was read), instead of taking its facts out", async () => {
    const dir = notes();
    const first = await runAsUser(["reflect", "--workspace", dir], dir);
    expect(first.code, first.stderr).toBe(0);
    const page = path.join(dir, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    const head = git(dir, "rev-parse", "HEAD");
    // A new version's first run: the derived state of the old one is gone (or no longer read).
    rmSync(path.join(dir, ".memory"), { recursive: true, force: true });
    const log = path.join(dir, "memory/2026-04-13.md");
    chmodSync(log, 0o000);
    const stopped = await runAsUser(["reflect", "--workspace", dir], dir);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/memory\/2026-04-13\.md: cannot read the file \(EACCES\).*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  });
});

describe("a log named for a day that does not exist", () => {
  it("is named with its reason every night, and reads once renamed to its day", async () => {
    const dir = notes();
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    // A slip of the keyboard and a month/day swap from a phone's date picker.
    writeFileSync(path.join(dir, "memory/2026-02-30.md"), "## Retain\n- W @Odile: took over the water rota\n");
    writeFileSync(path.join(dir, "memory/2026-14-04-trip.md"), "## Retain\n- W @Ferran: drives the minibus\n");
    for (const night of [1, 2]) {
      const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
      expect([0, 3], `night ${night}: ${run.stderr}`).toContain(run.code);
      expect(run.stdout).toContain("memory/2026-02-30.md:1: 2026-02-30 is not a calendar day");
      expect(run.stdout).toContain("memory/2026-14-04-trip.md:1: 2026-14-04 is not a calendar day");
    }
    const facts = await runBin(["facts", "--workspace", dir], repos.env);
    expect(facts.stderr).toContain("memory/2026-02-30.md:1: 2026-02-30 is not a calendar day");

    renameSync(path.join(dir, "memory/2026-02-30.md"), path.join(dir, "memory/2026-03-02.md"));
    const fixed = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).not.toContain("2026-02-30 is not a calendar day");
    expect(readFileSync(path.join(dir, "bank/entities/Odile.md"), "utf8")).toContain("took over the water rota");
  });
});

describe('a log re-saved as UTF-16 (Notepad\'s "Unicode", with its byte order mark)', () => {
  it("is read as the same text: its facts stay on the bank pages, recall and get find its lines, its bytes are never rewritten", async () => {
    const dir = notes();
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const page = path.join(dir, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    expect(before).toContain("runs the seed swap");
    const head = git(dir, "rev-parse", "HEAD");
    // Notepad: the same words, CRLF, UTF-16 LE with FF FE; a new day saved big-endian (FE FF).
    const log = path.join(dir, "memory/2026-04-13.md");
    const le = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(readFileSync(log, "utf8").replace(/\n/g, "\r\n"), "utf16le"),
    ]);
    writeFileSync(log, le);
    const beText = "Parents' evening.\r\n\r\n## Retain\r\n- W @MsOkafor: teaches Year 4 and runs the chess club\r\n";
    const be = Buffer.from(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(beText, "utf16le")]).swap16());
    const beLog = path.join(dir, "memory/2026-04-20.md");
    writeFileSync(beLog, be);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "saved in Notepad");

    const second = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("UTF-16");
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(readFileSync(path.join(dir, "bank/entities/MsOkafor.md"), "utf8")).toContain(
      "teaches Year 4 and runs the chess club",
    );
    expect(git(dir, "diff", "--stat", head.trim(), "HEAD", "--", "bank/entities/Halima.md")).toBe("");
    expect(readFileSync(log)).toEqual(le);
    expect(readFileSync(beLog)).toEqual(be);

    const facts = await runBin(["facts", "--workspace", dir], repos.env);
    expect(facts.stdout).toContain("memory/2026-04-20.md:4");
    const got = await runBin(
      ["get", "memory/2026-04-20.md", "--from", "3", "--lines", "2", "--workspace", dir],
      repos.env,
    );
    expect(got.stdout).toBe("## Retain\n- W @MsOkafor: teaches Year 4 and runs the chess club\n");
    const recall = await runBin(["recall", "who runs the chess club", "--workspace", dir], repos.env);
    expect(recall.stdout).toContain("memory/2026-04-20.md");
  });
});

describe("a log an earlier night read, moved out of the workspace and linked back (notes moved to a synced folder)", () => {
  it("stops the nightly naming the link, instead of taking its facts out of the bank; runs on once the file is back", async () => {
    const { dir, page, refused } = await afterFirstNight();
    const synced = repos.fresh("synced");
    mkdirSync(synced);
    const log = path.join(dir, "memory/2026-04-13.md");
    renameSync(log, path.join(synced, "2026-04-13.md"));
    symlinkSync(path.join(synced, "2026-04-13.md"), log);
    await refused("memory/2026-04-13.md: is a link to");
    rmSync(log);
    renameSync(path.join(synced, "2026-04-13.md"), log);
    const back = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(back.code === 0 || back.code === 3, back.stderr).toBe(true);
    expect(readFileSync(page, "utf8")).toContain("runs the seed swap");
  });
});

describe("memory/ an earlier night read, moved out of the workspace and linked back", () => {
  it("stops the nightly naming memory/, instead of committing a bank without any of its facts", async () => {
    const { dir, refused } = await afterFirstNight();
    const synced = repos.fresh("synced");
    mkdirSync(synced);
    renameSync(path.join(dir, "memory"), path.join(synced, "memory"));
    symlinkSync(path.join(synced, "memory"), path.join(dir, "memory"));
    await refused("memory: is a link to");
  });
});

describe("a log whose file name is not UTF-8 (Latin-1 from an old zip or a Windows share)", () => {
  it("is named with the reason by facts and by the nightly, instead of its facts missing without a word", async () => {
    const dir = notes();
    // "2026-04-16-café.md" with é as the Latin-1 byte 0xE9.
    const name = Buffer.concat([Buffer.from(`${dir}/memory/2026-04-16-caf`), Buffer.from([0xe9]), Buffer.from(".md")]);
    writeFileSync(name, "## Retain\n- W @Halima: brought cake to the committee meeting\n");
    const facts = await runBin(["facts", "--workspace", dir], repos.env);
    expect(`${facts.stdout}${facts.stderr}`).toContain(
      "memory/2026-04-16-caf\uFFFD.md:1: has a name that is not valid UTF-8 (written by a system with another encoding), so membank cannot open it",
    );
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.stdout).toContain("memory/2026-04-16-caf\uFFFD.md: not indexed: has a name that is not valid UTF-8");
  });
});

describe("a log an earlier night read, grown past the size limit (a huge paste)", () => {
  it("stops the nightly naming it and the limit, instead of taking its facts out of the bank", async () => {
    const { dir, refused } = await afterFirstNight();
    truncateSync(path.join(dir, "memory/2026-04-13.md"), 17 * 1024 * 1024);
    await refused("memory/2026-04-13.md: file is 17825792 bytes, over the 16777216-byte (16 MiB) limit");
  });
});

describe("a log zeroed by a power cut (ext4 keeps the size, the bytes are all 0)", () => {
  it("stops the nightly before it writes or commits anything, names the file, and runs on once it is restored", async () => {
    const dir = notes();
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const log = path.join(dir, "memory/2026-04-13.md");
    const page = path.join(dir, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    expect(before).toContain("runs the seed swap");
    const head = git(dir, "rev-parse", "HEAD");
    writeFileSync(log, Buffer.alloc(readFileSync(log).length));
    // A new day the agent wrote after the power came back.
    writeFileSync(
      path.join(dir, "memory/2026-04-15.md"),
      "## Retain\n- W @Halima: swapping leek seedlings on Saturday\n",
    );

    const stopped = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/memory\/2026-04-13\.md: holds only zero bytes .*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);

    git(dir, "checkout", "--", "memory/2026-04-13.md");
    const next = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(next.code, next.stderr).toBe(0);
    const now = readFileSync(page, "utf8");
    expect(now).toContain("runs the seed swap");
    expect(now).toContain("swapping leek seedlings");
  });
});

describe("a zeroed log under `membank reflect` run by hand (no nightly)", () => {
  it.each([[["reflect"]], [["reflect", "--all"]]])(
    "%j stops before writing or committing, as the nightly does",
    async (args) => {
      const dir = notes();
      const first = await runBin(["reflect", "--workspace", dir], repos.env);
      expect(first.code, first.stderr).toBe(0);
      const page = path.join(dir, "bank/entities/Halima.md");
      const before = readFileSync(page, "utf8");
      expect(before).toContain("runs the seed swap");
      const head = git(dir, "rev-parse", "HEAD");
      const log = path.join(dir, "memory/2026-04-13.md");
      writeFileSync(log, Buffer.alloc(readFileSync(log).length));

      const stopped = await runBin([...args, "--workspace", dir], repos.env);
      expect(stopped.code).not.toBe(0);
      expect(stopped.stderr).toMatch(/memory\/2026-04-13\.md: holds only zero bytes .*membank changed nothing/);
      expect(readFileSync(page, "utf8")).toBe(before);
      expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    },
  );
});

describe("logs kept in Git LFS, cloned on a machine without git-lfs", () => {
  it("the first nightly of the clone stops, naming the pointer, instead of committing a bank without their facts", async () => {
    const dir = notes();
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const clone = repos.fresh("clone");
    git(repos.tmp, "clone", "-q", dir, clone);
    // What git checks out for an LFS-tracked file when git-lfs is missing: the pointer.
    const log = path.join(clone, "memory/2026-04-13.md");
    const size = readFileSync(log).length;
    writeFileSync(log, `version https://git-lfs.github.com/spec/v1\noid sha256:${"4d7a".repeat(16)}\nsize ${size}\n`);
    const page = path.join(clone, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    const head = git(clone, "rev-parse", "HEAD");
    const run = await runBin(["run", "nightly", "--workspace", clone], repos.env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/memory\/2026-04-13\.md: is a Git LFS pointer.*git lfs pull.*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(clone, "rev-parse", "HEAD")).toBe(head);
  });
});
