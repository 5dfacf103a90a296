// The user's own work in the tree when the nightly runs, driven through the built CLI in an
// ordinary shell (editor and pager set, no git identity): membank's commit holds only
// membank's changes, the user's staged state is byte for byte as they left it, and no
// hand-written text is lost.
import { spawn } from "node:child_process";
import { chmod, cp, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectRun, MEMBANK_BIN, runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const ROOT = path.resolve(import.meta.dirname, "..");

const repos = notesRepos("membank-user-tree-");
const git = async (cwd: string, ...args: string[]): Promise<string> => repos.git(cwd, ...args);

/** bank.example's logs committed by the user, and a first nightly over them. */
async function afterFirstNight(): Promise<string> {
  const ws = repos.fresh("ws");
  await mkdir(ws, { recursive: true });
  await cp(path.join(ROOT, "bank.example/memory"), path.join(ws, "memory"), { recursive: true });
  await cp(path.join(ROOT, "bank.example/MEMORY.md"), path.join(ws, "MEMORY.md"));
  await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  await git(ws, "init", "-q", "-b", "main");
  await git(ws, "add", "-A");
  await git(ws, "commit", "-qm", "my notes");
  const first = await runBin(["run", "nightly", "--workspace", ws], repos.env);
  expect(first.code, first.stderr).toBe(0);
  return ws;
}

const newDay = (ws: string) =>
  writeFile(
    path.join(ws, "memory/2026-03-16.md"),
    "# Monday 16th\n\nBusy one.\n\n## Retain\n- W @Mara: Booked the night train to Berlin for the offsite.\n- W @Priya: Got the FJD-482 retry fix merged at last\n- W @Ola: Started on the payments team today.\n",
  );

describe("the user's own work in the tree", () => {
  it("staged edits, a draft in ## Notes, hand-made pages and a staged file of their own: only membank's pages are committed, git diff --cached is byte for byte the same", async () => {
    const ws = await afterFirstNight();
    const at = (p: string) => path.join(ws, p);
    const append = async (p: string, text: string) => writeFile(at(p), `${await readFile(at(p), "utf8")}${text}`);
    await append("MEMORY.md", "\n## Lisbon\n- Moving there in May, maybe.\n");
    await append("memory/2026-03-14.md", "- forgot: rang the plasterer back\n");
    await append("bank/entities/Mara.md", "- she hates being cc'd on everything (my note)\n");
    await mkdir(at("src"));
    await writeFile(at("src/app.py"), "print('hi')\n");
    await git(ws, "add", "MEMORY.md", "memory/2026-03-14.md", "bank/entities/Mara.md", "src/app.py");
    await append("bank/entities/Priya.md", "- ask her about the Lisbon move — half written\n");
    await writeFile(at("bank/entities/Ola.md"), "# Ola\n\nmet at the offsite, ex-Klarna. my own page\n");
    await writeFile(at("bank/todo.txt"), "call Henrik\n");
    await newDay(ws);
    const cachedBefore = await git(ws, "diff", "--cached", "--binary");
    const head = (await git(ws, "rev-parse", "HEAD")).trim();

    const run = await runBin(["run", "nightly", "--workspace", ws], repos.env);
    expect(run.code, run.stderr).toBe(0);
    expect((await git(ws, "rev-parse", "HEAD~1")).trim()).toBe(head);
    const files = (await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n");
    expect(
      files.every((f) => f.startsWith("bank/")),
      files.join(" "),
    ).toBe(true);
    for (const mine of ["bank/entities/Mara.md", "bank/entities/Priya.md", "bank/entities/Ola.md", "bank/todo.txt"])
      expect(files).not.toContain(mine);
    expect(await git(ws, "diff", "--cached", "--binary")).toBe(cachedBefore);
    // Every hand-written line is still on disk.
    expect(await readFile(at("bank/entities/Mara.md"), "utf8")).toContain("she hates being cc'd on everything");
    expect(await readFile(at("bank/entities/Priya.md"), "utf8")).toContain("ask her about the Lisbon move");
    expect(await readFile(at("bank/entities/Ola.md"), "utf8")).toContain("met at the offsite, ex-Klarna. my own page");
    expect(await readFile(at("bank/todo.txt"), "utf8")).toBe("call Henrik\n");
    // And the run says which pages it left for the user.
    expect(run.stdout).toMatch(/bank\/entities\/Priya\.md: written, not committed/);
    expect(run.stdout).toMatch(/bank\/entities\/Ola\.md: written, not committed/);
  });

  it("an executable bit the user set on a page (chmod, a FAT/NTFS mount) is not committed as membank's change", async () => {
    const ws = await afterFirstNight();
    await chmod(path.join(ws, "bank/entities/Mara.md"), 0o755);
    await newDay(ws);
    const run = await runBin(["run", "nightly", "--workspace", ws], repos.env);
    expect(run.code, run.stderr).toBe(0);
    const raw = await git(ws, "show", "--raw", "--format=", "HEAD");
    expect(raw).toMatch(/\tbank\/entities\/Mara\.md\n/);
    // Committed as HEAD had it, and the mode change is still the user's, unstaged.
    for (const line of raw.trim().split("\n")) expect(line, line).toMatch(/^:(100644|000000) 100644 /);
    expect(await git(ws, "diff", "--cached", "--name-only")).toBe("");
    expect(await git(ws, "diff", "--raw", "--", "bank/entities/Mara.md")).toMatch(/^:100644 100755 /);
    expect((await stat(path.join(ws, "bank/entities/Mara.md"))).mode & 0o777).toBe(0o755);
  });
});

describe("a page a formatter went over", () => {
  it("blank lines around each region's list (markdownlint, prettier) and trailing spaces: not a hand edit, the next nightly still updates and commits the page", async () => {
    const ws = await afterFirstNight();
    const page = path.join(ws, "bank/entities/Mara.md");
    const formatted = (await readFile(page, "utf8"))
      .replace(/(<!-- membank:begin [^>]*-->)\n(?!\n)/g, "$1\n\n")
      .replace(/([^\n])\n(<!-- membank:end [^>]*-->)/g, "$1\n\n$2")
      .replace(/^(- .*\))$/m, "$1   ");
    await writeFile(page, formatted);
    await git(ws, "commit", "-qam", "formatted on save");
    await newDay(ws);
    const run = await runBin(["run", "nightly", "--workspace", ws], repos.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/conflicts kept|edited by hand/);
    expect(await readFile(page, "utf8")).toContain("Booked the night train to Berlin");
    expect(await git(ws, "show", "--name-only", "--format=", "HEAD")).toContain("bank/entities/Mara.md");
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
    // The formatter's blank lines stay: membank's commit changes the facts, not the layout.
    const removed = (await git(ws, "diff", "HEAD~1", "HEAD", "--", "bank/entities/Mara.md"))
      .split("\n")
      .filter((l) => /^-(?!--)/.test(l));
    expect(
      removed.filter((l) => l === "-"),
      removed.join("\n"),
    ).toEqual([]);
    expect(await readFile(page, "utf8")).toMatch(/<!-- membank:begin facts -->\n\n- /);
    expect((await runBin(["run", "nightly", "--workspace", ws], repos.env)).code).toBe(3);
  });

  it("a word changed inside a region is still the person's edit: kept, and said", async () => {
    const ws = await afterFirstNight();
    const page = path.join(ws, "bank/entities/Mara.md");
    const text = await readFile(page, "utf8");
    await writeFile(page, text.replace("engineering lead", "engineering manager"));
    await git(ws, "commit", "-qam", "she was promoted");
    await newDay(ws);
    const run = await runBin(["run", "nightly", "--workspace", ws], repos.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("bank/entities/Mara.md: region summary edited by hand since membank wrote it; kept");
    expect(await readFile(page, "utf8")).toContain("engineering manager");
  });
});

describe("git config people have", () => {
  it("a pre-commit hook that reformats, a commit.template, an editor that never returns, signing on with no key: the nightly commits membank's pages as they were written, unsigned, without waiting", async () => {
    const ws = await afterFirstNight();
    const hooks = repos.fresh("hooks");
    await mkdir(hooks);
    // A formatter in a pre-commit hook (lint-staged, prettier): would rewrite the staged pages.
    await writeFile(
      path.join(hooks, "pre-commit"),
      '#!/bin/sh\nfor f in $(git diff --cached --name-only); do sed -i \'s/@/AT /g\' "$f"; git add "$f"; done\n',
    );
    await chmod(path.join(hooks, "pre-commit"), 0o755);
    await writeFile(path.join(ws, "..", "template.txt"), "JIRA-000: describe your change\n");
    for (const [k, v] of [
      ["core.hooksPath", hooks],
      ["commit.template", path.join(ws, "..", "template.txt")],
      ["core.editor", "sleep 600"],
      ["commit.gpgsign", "true"],
      ["user.signingkey", "0xDEADBEEF"],
      ["user.useConfigOnly", "true"],
    ])
      await git(ws, "config", k!, v!);
    await newDay(ws);
    const t0 = Date.now();
    const run = await runBin(["run", "nightly", "--workspace", ws], {
      ...repos.env,
      EDITOR: "sleep 600",
      GIT_EDITOR: "",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(60_000);
    const message = await git(ws, "log", "-1", "--format=%an%n%G?%n%B");
    expect(message).toMatch(/^membank\nN\nmembank nightly /);
    expect(message).not.toContain("JIRA-000");
    for (const f of (await git(ws, "show", "--name-only", "--format=", "HEAD")).trim().split("\n")) {
      expect(await git(ws, "show", `HEAD:${f}`), f).toBe(await readFile(path.join(ws, f), "utf8"));
    }
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
  });
});

describe("two runs at once", () => {
  it("cron's nightly and a hand `membank reflect` started together: one does the work, the other waits its turn or says who holds the lock; the bank ends as one clean run leaves it, each change committed once", async () => {
    const clean = await afterFirstNight();
    const ws = await afterFirstNight();
    await newDay(clean);
    await newDay(ws);
    expect((await runBin(["run", "nightly", "--workspace", clean], repos.env)).code).toBe(0);
    const start = (args: string[]) =>
      collectRun(spawn(process.execPath, [MEMBANK_BIN, ...args, "--workspace", ws], { env: repos.env, stdio: "pipe" }));
    const [nightly, reflect] = await Promise.all([start(["run", "nightly"]), start(["reflect"])]);
    expect([0, 3, 4], nightly.stderr).toContain(nightly.code);
    expect([0, 4], reflect.stderr).toContain(reflect.code);
    if (reflect.code === 4) expect(reflect.stderr).toMatch(/busy: locked by pid \d+/);
    // Whatever the order, a later nightly finishes the rest (the index) and then has nothing to do.
    const after = await runBin(["run", "nightly", "--workspace", ws], repos.env);
    expect([0, 3], after.stderr).toContain(after.code);
    expect((await runBin(["run", "nightly", "--workspace", ws], repos.env)).code).toBe(3);
    const tree = async (dir: string) => git(dir, "ls-tree", "-r", "HEAD", "--", "bank");
    expect(await tree(ws)).toBe(await tree(clean));
    expect(await git(ws, "status", "--porcelain", "--", "bank")).toBe("");
    // The new day's pages went into exactly one commit.
    const touching = (await git(ws, "log", "--format=%H", "--", "bank/entities/Ola.md")).trim().split("\n");
    expect(touching).toHaveLength(1);
  });
});
