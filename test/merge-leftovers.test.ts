/**
 * What merges and sync tools leave in a workspace kept on two machines, run through the real
 * bin from an ordinary shell (no git identity, EDITOR/PAGER set): a log committed with git's
 * conflict markers still in it, and a sync tool's conflicted copy of a day's log. Before, the
 * markers were glued onto the facts above them in the bank pages, and the copy's facts were
 * dropped without a word.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BinRun, ordinaryShellEnv, runBin } from "./cli-bin.js";

let tmp: string;
let env: NodeJS.ProcessEnv;
let n = 0;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "membank-leftovers-"));
  env = await ordinaryShellEnv(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, env, encoding: "utf8" });

function nightly(dir: string): Promise<BinRun> {
  return runBin(["run", "nightly", "--workspace", dir], env);
}

/** A beekeeper's notes in git, one night already run. */
async function notes(): Promise<string> {
  const dir = path.join(tmp, `ws-${n++}`);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  writeFileSync(path.join(dir, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  writeFileSync(path.join(dir, ".gitignore"), ".memory/\n");
  writeFileSync(path.join(dir, "MEMORY.md"), "# Core\n\nTwo hives behind the orchard, since 2024.\n");
  writeFileSync(
    path.join(dir, "memory/2026-05-02.md"),
    "swarm season!! checked both hives before breakfast\n\n## Retain\n- W @Odile: keeps bees three fields over, offered her spare nuc box\n",
  );
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "bees");
  const first = await nightly(dir);
  expect(first.code, first.stderr).toBe(0);
  return dir;
}

/** Every file under bank/ with its text. */
function bankTexts(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = `${rel}/${name}`;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out.set(r, readFileSync(path.join(dir, r), "utf8"));
    }
  };
  walk("bank");
  return out;
}

describe("a log merged from two machines with the conflict left in", () => {
  it("reads the facts of both sides without the markers, names each marker line, and is clean once resolved", async () => {
    const dir = await notes();
    const log = path.join(dir, "memory/2026-05-09.md");
    writeFileSync(log, "Sat 9 May\n\nwarm, bees bringing in pollen\n\n## Retain\n- W @Odile: lent me her smoker\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "sat");
    // The laptop's edit of the day, and the desktop's, each committed on its own side.
    git(dir, "checkout", "-qb", "laptop");
    writeFileSync(log, `${readFileSync(log, "utf8")}- B: Moved the second hive under the pear tree (more shade)\n`);
    git(dir, "commit", "-qam", "laptop");
    git(dir, "checkout", "-q", "main");
    writeFileSync(
      log,
      `${readFileSync(log, "utf8")}- W @Odile: says the Varroa count is up at her site, 3 per 100 bees\n`,
    );
    git(dir, "commit", "-qam", "desktop");
    expect(() => git(dir, "merge", "-q", "laptop")).toThrow();
    // The user commits the merge as it stands: `git commit -am` takes the markers along.
    git(dir, "commit", "-qam", "merge laptop");
    const lines = readFileSync(log, "utf8").split("\n");
    const markers = lines.flatMap((l, i) => (/^(<{7}|={7}|>{7})/.test(l) ? [i + 1] : []));
    expect(markers).toHaveLength(3);

    const run = await nightly(dir);
    expect(run.code, run.stderr).toBe(0);
    for (const line of markers) {
      expect(run.stdout + run.stderr).toMatch(new RegExp(`memory/2026-05-09\\.md:${line}: git conflict marker`));
    }
    const bank = bankTexts(dir);
    for (const [file, text] of bank) expect(text, file).not.toMatch(/<{7}|={7}|>{7}|laptop$/m);
    const odile = bank.get("bank/entities/Odile.md") ?? "";
    expect(odile).toMatch(/lent me her smoker \(/);
    expect(odile).toMatch(/Varroa count is up at her site, 3 per 100 bees \(/);
    expect([...bank.values()].join("\n")).toMatch(/Moved the second hive under the pear tree \(more shade\) \(/);
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");

    // Resolved by keeping both sides: no marker is said any more, and the facts stay.
    writeFileSync(log, lines.filter((_, i) => !markers.includes(i + 1)).join("\n"));
    git(dir, "commit", "-qam", "resolve");
    const next = await nightly(dir);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout + next.stderr).not.toMatch(/conflict marker/);
    expect(readFileSync(path.join(dir, "bank/entities/Odile.md"), "utf8")).toMatch(/Varroa count is up/);
  });
});

describe("a sync tool's conflicted copy of a day's log", () => {
  it("is named every night with the log to merge it into, never committed, and its fact reaches the bank once merged", async () => {
    const dir = await notes();
    const log = "memory/2026-05-10.md";
    writeFileSync(path.join(dir, log), "Sun\n\n## Retain\n- W @Odile: sells her honey at the Sunday market\n");
    // The phone edited the same day while offline: Dropbox and Syncthing each kept its version.
    const phone =
      "Sun\n\n## Retain\n- W @Odile: sells her honey at the Sunday market\n- B: ordered 10 frames from Thorne\n";
    const copies = [
      "memory/2026-05-10 (Odile's iPhone's conflicted copy 2026-05-10).md",
      "memory/2026-05-10.sync-conflict-20260510-211407-QX3KB2P.md",
    ];
    for (const c of copies) writeFileSync(path.join(dir, c), phone);
    const run = await nightly(dir);
    expect(run.code, run.stderr).toBe(0);
    for (const c of copies) {
      expect(run.stdout).toContain(`${c}:1: named like a log of 2026-05-10`);
      expect(run.stdout).toContain(`move what it adds into ${log} and delete it`);
    }
    expect(readFileSync(path.join(dir, "bank/entities/Odile.md"), "utf8")).toMatch(/honey at the Sunday market/);
    const committed = git(dir, "log", "--name-only", "--format=").split("\n");
    for (const c of copies) expect(committed).not.toContain(c);
    const again = await nightly(dir);
    expect(again.stdout).toContain(`${copies[0]}:1: named like a log of 2026-05-10`);

    // Merged by hand and the copies deleted: the phone's fact is in the bank, nothing more is said.
    writeFileSync(path.join(dir, log), phone);
    for (const c of copies) rmSync(path.join(dir, c));
    const merged = await nightly(dir);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).not.toMatch(/named like a log/);
    expect([...bankTexts(dir).values()].join("\n")).toMatch(/ordered 10 frames from Thorne \(/);
  });
});
