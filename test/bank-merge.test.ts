/**
 * Many machines, one bank (issue 15): two clones of a workspace and a bare remote, in
 * temp dirs, driven through the CLI and real git. Each machine writes a different new
 * day and runs the nightly; one pulls the other's work. With or without membank's merge
 * driver, after the next nightly the bank equals what one machine makes from both days.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitConflicts } from "../src/markdown/conflicts.js";
import { renderRegion } from "../src/markdown/regions.js";
import { mergePage } from "../src/reflect/merge.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
const ID = ["-c", "user.name=t", "-c", "user.email=t@t"];
let tmp: string;

const git = async (cwd: string, ...args: string[]) => (await exec("git", [...ID, ...args], { cwd })).stdout;
/** git that may fail (a conflicting pull): its exit code and output. */
async function gitTry(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await exec("git", [...ID, ...args], { cwd });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}
async function membank(...args: string[]): Promise<string> {
  try {
    return (await exec(process.execPath, [CLI, ...args])).stdout;
  } catch (error) {
    const e = error as { stdout: string; stderr: string };
    throw new Error(`membank ${args.join(" ")} failed:\n${e.stdout}\n${e.stderr}`);
  }
}
const nightly = (dir: string) => membank("run", "nightly", "--workspace", dir);

// The laptop's Monday and the desktop's Tuesday: both touch Priya, and both move Jonas's
// "ledger-sync ships in March" opinion, by different evidence.
const DAY16 = `# 2026-03-16 (Monday)

Jonas finally accepted the new date in the planning meeting. Priya ran the big load test
over the weekend -- clean.

## Retain

- W @Jonas: ledger-sync will not ship in March; he confirmed the April 14 release date.
- W @Priya: Ran the 500k-row load test over the weekend with no dropped rows.
- O(c=0.6) @Priya: Thinks the retry fix is safe to ship.
`;
const DAY17 = `# 2026-03-17 (Tuesday)

## Notes
- Jonas is at it again: wants to squeeze ledger-sync into March "if retries land this week".
- Priya: retry fix merged.

## Retain
- O(c=0.7) @Jonas: ledger-sync ships in March after all, if the retry fix lands this week.
- B @Priya: I reviewed the retry fix with Priya; it was merged this afternoon.
- S: Short day, mostly reviews.
`;
const NOTE_TOP = "> Priya prefers Slack DMs over email for anything urgent (my own note).\n";
const NOTE_END = "\n## My notes\n\n- Ask her about the Berlin offsite talk.\n";

async function bank(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const dir of ["bank", "bank/entities"]) {
    for (const n of (await readdir(path.join(root, dir))).sort())
      if (n.endsWith(".md")) out[`${dir}/${n}`] = await readFile(path.join(root, dir, n), "utf8");
  }
  return out;
}

async function addNote(dir: string, where: "top" | "end"): Promise<void> {
  const file = path.join(dir, "bank/entities/Priya.md");
  const text = await readFile(file, "utf8");
  await writeFile(file, where === "top" ? text.replace("# Priya\n", `# Priya\n\n${NOTE_TOP}`) : text + NOTE_END);
}

async function addDay(dir: string, day: string, text: string): Promise<void> {
  await writeFile(path.join(dir, `memory/${day}.md`), text);
  await git(dir, "add", "memory");
  await git(dir, "commit", "-qm", `log ${day}`);
}

let seed: string;
let origin: string;
/** The bank one machine makes from the union of the logs (and both human notes). */
let reference: Record<string, string>;

async function clone(name: string): Promise<string> {
  const dir = path.join(tmp, name);
  await git(tmp, "clone", "-q", origin, dir);
  return dir;
}

/** Laptop (16th, note at the top) pushes; desktop (17th, note at the end) has not pulled yet. */
async function diverge(prefix: string): Promise<{ laptop: string; desktop: string }> {
  origin = path.join(tmp, `${prefix}.git`);
  await git(tmp, "clone", "-q", "--bare", seed, origin);
  const laptop = await clone(`${prefix}-laptop`);
  const desktop = await clone(`${prefix}-desktop`);
  await addNote(laptop, "top");
  await git(laptop, "commit", "-qam", "my note on Priya");
  await addDay(laptop, "2026-03-16", DAY16);
  await nightly(laptop);
  await addNote(desktop, "end");
  await git(desktop, "commit", "-qam", "my notes on Priya");
  await addDay(desktop, "2026-03-17", DAY17);
  await nightly(desktop);
  await git(laptop, "push", "-q", "origin", "HEAD:main");
  return { laptop, desktop };
}

const opinion = (text: string) => /<!-- membank:begin op-a085b639f513 -->[\s\S]*?sha=\w+ -->/.exec(text)?.[0];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-merge-"));
  seed = path.join(tmp, "seed");
  await cp(path.join(ROOT, "bank.example"), seed, { recursive: true });
  await writeFile(path.join(seed, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  await git(seed, "init", "-q", "-b", "main");
  await git(seed, "add", "-A");
  await git(seed, "commit", "-qm", "my notes");
  await nightly(seed);
  // Weeks ago someone set Jonas's opinion by hand and a run adopted it: merges keep that history.
  const ops = path.join(seed, "bank/opinions.md");
  await writeFile(
    ops,
    (await readFile(ops, "utf8")).replace(/(membank:begin op-a085b639f513 -->[\s\S]*?- confidence: )[\d.]+/, "$10.45"),
  );
  await git(seed, "commit", "-qam", "Jonas: 0.45");
  await nightly(seed);
  // .gitattributes travels with the bank; the driver's git config stays per clone.
  await membank("merge-driver", "--install", "--workspace", seed);
  await git(seed, "config", "--unset", "merge.membank.driver");
  await git(seed, "add", ".gitattributes");
  await git(seed, "commit", "-qm", "bank pages merge with membank");
  origin = path.join(tmp, "origin.git");
  await git(tmp, "clone", "-q", "--bare", seed, origin);

  const one = await clone("one-machine");
  await addNote(one, "top");
  await addNote(one, "end");
  await git(one, "commit", "-qam", "my notes on Priya");
  await addDay(one, "2026-03-16", DAY16);
  await nightly(one);
  await addDay(one, "2026-03-17", DAY17);
  await nightly(one);
  reference = await bank(one);
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("one bank on two machines", () => {
  it("without the driver: the pull conflicts, the next nightly rebuilds the regions and equals one machine's bank", async () => {
    const { laptop, desktop } = await diverge("plain");
    // The same opinion, moved by different evidence on each machine.
    const before = [
      opinion(await readFile(path.join(laptop, "bank/opinions.md"), "utf8")),
      opinion(await readFile(path.join(desktop, "bank/opinions.md"), "utf8")),
    ];
    expect(before[0]).not.toEqual(before[1]);

    const pull = await gitTry(desktop, "pull", "--no-rebase", "--no-edit", "origin", "main");
    expect(pull.code).not.toBe(0);
    expect(pull.out).toMatch(/CONFLICT \(content\).*bank\//);
    // What a user does without the driver: commit the merge as it is, then run membank.
    await git(desktop, "commit", "-qam", "merge");
    // A user's git that colours everything and shows signatures: membank reads git's answers all the same.
    await git(desktop, "config", "color.ui", "always");
    await git(desktop, "config", "log.showSignature", "true");
    expect(await readFile(path.join(desktop, "bank/opinions.md"), "utf8")).toContain("<<<<<<< ");

    const out = await nightly(desktop);
    expect(out).toMatch(/git conflict markers inside membank's regions: rebuilt/);
    const merged = await bank(desktop);
    expect(merged).toEqual(reference);
    expect(merged["bank/entities/Priya.md"]).toContain(NOTE_TOP);
    expect(merged["bank/entities/Priya.md"]).toContain(NOTE_END);
    expect(opinion(merged["bank/opinions.md"]!)).not.toEqual(before[1]);
    expect(await git(desktop, "status", "--porcelain", "bank")).toBe("");
    // A second run has nothing to do (exit 3) and changes nothing.
    await expect(nightly(desktop)).rejects.toThrow(/run: nothing to do/);
    expect(await git(desktop, "status", "--porcelain", "bank")).toBe("");
  }, 120_000);

  it("with the driver: the pull merges cleanly and the next nightly equals one machine's bank", async () => {
    const { desktop } = await diverge("driver");
    expect(await membank("merge-driver", "--install", "--workspace", desktop)).toMatch(/merge driver set up/);
    expect(await membank("doctor", "--workspace", desktop)).toMatch(/ok merge +bank pages merge with membank's driver/);

    const pull = await gitTry(desktop, "pull", "--no-rebase", "--no-edit", "origin", "main");
    expect(pull.out).not.toMatch(/CONFLICT/);
    expect(pull.code).toBe(0);
    for (const text of Object.values(await bank(desktop))) expect(text).not.toContain("<<<<<<<");

    await nightly(desktop);
    expect(await bank(desktop)).toEqual(reference);
    expect(await git(desktop, "status", "--porcelain", "bank")).toBe("");
  }, 120_000);

  it("a driver whose node is gone (nvm removed that version): git's text merge with markers, never the page of one machine alone", async () => {
    const { desktop } = await diverge("stale");
    await membank("merge-driver", "--install", "--workspace", desktop);
    const command = (await git(desktop, "config", "--get", "merge.membank.driver")).trim();
    expect(command).toContain(process.execPath);
    await git(
      desktop,
      "config",
      "merge.membank.driver",
      command.replaceAll(process.execPath, "/opt/nvm/v20.11.0/bin/node"),
    );

    const pull = await gitTry(desktop, "pull", "--no-rebase", "--no-edit", "origin", "main");
    expect(pull.code).not.toBe(0);
    // Both machines' notes are in the page (the laptop's one merged in), the rest marked as git marks it.
    const priya = await readFile(path.join(desktop, "bank/entities/Priya.md"), "utf8");
    expect(priya).toContain(NOTE_TOP);
    expect(priya).toContain(NOTE_END);
    expect(await readFile(path.join(desktop, "bank/opinions.md"), "utf8")).toContain("<<<<<<< ours");
    await git(desktop, "commit", "-qam", "merge");
    await nightly(desktop);
    expect(await bank(desktop)).toEqual(reference);
  }, 120_000);

  it("a real conflict in people's text stays a git conflict; the other pages are still rebuilt", async () => {
    const { laptop, desktop } = await diverge("human");
    await membank("merge-driver", "--install", "--workspace", desktop);
    for (const [dir, says] of [
      [laptop, "Slack DMs"],
      [desktop, "a phone call"],
    ] as const) {
      const file = path.join(dir, "bank/entities/Jonas.md");
      await writeFile(
        file,
        (await readFile(file, "utf8")).replace("# Jonas\n", `# Jonas\n\nBest reached by ${says}.\n`),
      );
      await git(dir, "commit", "-qam", "how to reach Jonas");
    }
    // And on the laptop, a confidence set by hand (not yet run through reflect): it wins.
    const ops = path.join(laptop, "bank/opinions.md");
    const handSet = (await readFile(ops, "utf8")).replace(
      /(membank:begin op-a085b639f513 -->[\s\S]*?- confidence: )[\d.]+/,
      "$10.30",
    );
    await writeFile(ops, handSet);
    await git(laptop, "commit", "-qam", "I doubt March");
    await git(laptop, "push", "-q", "origin", "HEAD:main");
    const pull = await gitTry(desktop, "pull", "--no-rebase", "--no-edit", "origin", "main");
    expect(pull.out).toMatch(/region "op-a085b639f513" was edited by hand on the other machine; that edit is kept/);
    expect(pull.out).toMatch(/CONFLICT \(content\).*bank\/entities\/Jonas\.md/);
    expect(pull.out).not.toMatch(/CONFLICT.*(opinions|Priya)/);
    const jonas = await readFile(path.join(desktop, "bank/entities/Jonas.md"), "utf8");
    expect(jonas).toMatch(
      /<<<<<<< [^\n]*\nBest reached by a phone call\.\n=======\nBest reached by Slack DMs\.\n>>>>>>> /,
    );

    // Committed as it is: that page is reported with its line and left alone, the rest is rebuilt.
    await git(desktop, "commit", "-qam", "merge");
    const out = await nightly(desktop);
    expect(out).toMatch(/bank\/entities\/Jonas\.md:\d+: git conflict markers in your text outside membank's regions/);
    expect(await readFile(path.join(desktop, "bank/entities/Jonas.md"), "utf8")).toBe(jonas);
    const merged = await bank(desktop);
    expect(merged["bank/entities/Priya.md"]).toBe(reference["bank/entities/Priya.md"]);
    // The desktop's evidence (the 17th) moved the hand-set value, not the laptop's number before it.
    expect(opinion(merged["bank/opinions.md"]!)).toMatch(/- confidence: 0\.\d\d \(last change: 0\.30 -> 0\.\d\d\)/);
    expect(opinion(merged["bank/opinions.md"]!)).toContain("`c0a8d6d2463f`");
  }, 120_000);

  it("a page with markers but no merge commit: both sides' notes kept, a Setext heading is not a marker", async () => {
    const page = (facts: string, note: string) =>
      `# Mara\n\nTeam lead\n=========\n${note}\n${renderRegion("facts", facts)}\n\n## Notes\n\n- met at the offsite\n`;
    const ours = page("- 2026-03-16 — new on the laptop\n", "");
    const theirs = `${page("- 2026-03-17 — new on the desktop\n", "")}- likes tea\n`;
    const conflicted = `# Mara\n\nTeam lead\n=========\n\n<!-- membank:begin facts -->\n<<<<<<< HEAD\n- 2026-03-16 — new on the laptop\n<!-- membank:end facts sha=${"a".repeat(12)} -->\n=======\n- 2026-03-17 — new on the desktop\n<!-- membank:end facts sha=${"b".repeat(12)} -->\n>>>>>>> desktop\n`;
    const split = splitConflicts(conflicted);
    expect(split?.lines).toEqual([7]);
    expect(split?.base).toBeUndefined();
    expect(splitConflicts("# Title\n=======\ntext\n")).toBeUndefined();

    const merged = await mergePage({ ours, theirs, path: "bank/entities/Mara.md" });
    expect(merged.clean).toBe(true);
    expect(merged.stale).toEqual(["facts"]);
    expect(merged.text).toBe(`${ours}- likes tea\n`);
  });
});
