// Bank pages checked out with CRLF line endings (Windows, core.autocrlf=true): membank must
// not read every page as a hand edit and freeze, and must write the pages back in CRLF.
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";
import { bankFiles, copyLog, EVOLVING, git, workspaceFrom } from "./reflect-support.js";

const run = promisify(execFile);
const cli = MEMBANK_BIN;
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function reflectCli(dir: string): Promise<{ conflicts: unknown[]; pagesWritten: string[]; commit?: string }> {
  const { stdout } = await run(process.execPath, [cli, "reflect", "--workspace", dir, "--json"], {
    env: { ...process.env, MEMBANK_WORKSPACE: "" },
  });
  return JSON.parse(stdout);
}

/** Every line break is CRLF (no bare LF, no bare CR). */
const allCrlf = (text: string) => !/[^\r]\n|^\n|\r(?!\n)/.test(text);

describe("CRLF bank pages", () => {
  it("a core.autocrlf=true checkout reflects without conflicts, stays CRLF and commits clean LF", async () => {
    const { dir } = await workspaceFrom(EVOLVING, { logs: (n) => n < "2026-01-08" });
    dirs.push(dir);
    await reflectCli(dir);
    // Check the bank out again the way Windows git does.
    git(dir, "config", "core.autocrlf", "true");
    await rm(path.join(dir, "bank"), { recursive: true });
    git(dir, "checkout", "--", "bank");
    const checkedOut = await bankFiles(dir);
    for (const [rel, text] of checkedOut) expect(allCrlf(text), rel).toBe(true);
    // A person adds a note outside the markers (in their CRLF editor) and commits it.
    const ana = checkedOut.get("bank/entities/Ana.md")!;
    const noted = ana.replace("## Notes\r\n", "## Notes\r\n\r\nAna is vegetarian.\r\n");
    expect(noted).not.toBe(ana);
    await writeFile(path.join(dir, "bank/entities/Ana.md"), noted);
    git(dir, "commit", "-q", "-am", "user: note");

    await copyLog(dir, "2026-01-08.md");
    const report = await reflectCli(dir);
    expect(report.conflicts).toEqual([]);
    expect(report.pagesWritten).toContain("bank/entities/Ana.md");
    expect(report.pagesWritten).toContain("bank/opinions.md");
    expect(report.commit).toBeDefined();
    const after = await bankFiles(dir);
    // Pages that were there keep CRLF (a page new in this run, from the LF template, may be LF).
    for (const rel of checkedOut.keys()) expect(allCrlf(after.get(rel)!), rel).toBe(true);
    const anaAfter = after.get("bank/entities/Ana.md")!;
    expect(anaAfter).toContain("## Notes\r\n\r\nAna is vegetarian.\r\n");
    expect(anaAfter).toContain("Still prefers tea over coffee in the morning.");
    // Nothing left over: git sees the pages as committed, and stores them with LF.
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
    expect(git(dir, "show", "HEAD:bank/entities/Ana.md")).not.toContain("\r");

    // A second run finds nothing to do.
    const again = await reflectCli(dir);
    expect(again.pagesWritten).toEqual([]);
    expect(again.conflicts).toEqual([]);
    expect(await bankFiles(dir)).toEqual(after);
  });

  it("pages written with CRLF directly (no autocrlf) keep CRLF; a mixed page keeps its bytes", async () => {
    const { dir } = await workspaceFrom(EVOLVING, { logs: (n) => n < "2026-01-08" });
    dirs.push(dir);
    await reflectCli(dir);
    const crlf = (s: string) => s.replace(/\n/g, "\r\n");
    const world = await readFile(path.join(dir, "bank/world.md"), "utf8");
    await writeFile(path.join(dir, "bank/world.md"), crlf(world));
    // Ben.md: CRLF front matter and heading (pasted from Windows), the rest LF.
    const ben = await readFile(path.join(dir, "bank/entities/Ben.md"), "utf8");
    const cut = ben.indexOf("<!-- membank:begin summary");
    const mixed = `${crlf(ben.slice(0, cut))}${ben.slice(cut)}`;
    await writeFile(path.join(dir, "bank/entities/Ben.md"), mixed);
    git(dir, "commit", "-q", "-am", "user: edited on Windows");

    await copyLog(dir, "2026-01-08.md");
    const report = await reflectCli(dir);
    expect(report.conflicts).toEqual([]);
    expect(report.pagesWritten).toEqual(expect.arrayContaining(["bank/world.md", "bank/entities/Ben.md"]));
    const worldAfter = await readFile(path.join(dir, "bank/world.md"), "utf8");
    expect(allCrlf(worldAfter)).toBe(true);
    expect(worldAfter).toContain("The bridge project slipped");
    const benAfter = await readFile(path.join(dir, "bank/entities/Ben.md"), "utf8");
    expect(benAfter.startsWith(crlf(ben.slice(0, cut)))).toBe(true);
    expect(benAfter.slice(crlf(ben.slice(0, cut)).length)).not.toContain("\r");
    expect(benAfter).toContain("The bridge project slipped");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  });
});
