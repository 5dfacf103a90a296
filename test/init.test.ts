import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MembankError } from "../src/workspace/errors.js";
import { cliScript, initWorkspace, packageRoot, STARTER_MEMORY } from "../src/workspace/init.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-init-"));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function makeTemplates(): Promise<string> {
  const dir = path.join(tmp, "pkg-templates");
  await mkdir(path.join(dir, "sub"), { recursive: true });
  await writeFile(path.join(dir, "entity.md"), "# {{title}}\n");
  await writeFile(path.join(dir, "opinions.md"), "# Opinions\n");
  await writeFile(path.join(dir, "sub", "extra.md"), "extra\n");
  return dir;
}

describe("initWorkspace", () => {
  it("creates the folders, starter files, templates and a git repository in a new folder", async () => {
    const ws = path.join(tmp, "ws");
    const report = await initWorkspace(ws, { templatesDir: await makeTemplates() });

    expect(report.root).toBe(ws);
    expect(report.created).toEqual([
      "memory/",
      "bank/",
      "bank/entities/",
      "MEMORY.md",
      "membank.config.json",
      ".gitignore",
      "templates/",
      "templates/entity.md",
      "templates/opinions.md",
      "templates/sub/extra.md",
      // bank/** merges with membank's driver (issue 15)
      ".gitattributes",
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.git).toBe("initialized");
    expect(await readFile(path.join(ws, "MEMORY.md"), "utf8")).toBe(STARTER_MEMORY);
    expect(JSON.parse(await readFile(path.join(ws, "membank.config.json"), "utf8"))).toEqual({});
    expect((await readFile(path.join(ws, ".gitignore"), "utf8")).split("\n")).toContain(".memory/");
    expect(await readFile(path.join(ws, "templates/sub/extra.md"), "utf8")).toBe("extra\n");

    // A real repository whose root is the workspace, and git ignores the derived folder.
    const git = async (...args: string[]) => (await run("git", args, { cwd: ws })).stdout;
    expect((await git("rev-parse", "--show-toplevel")).trim()).toBe(await realpathOf(ws));
    await mkdir(path.join(ws, ".memory"));
    await writeFile(path.join(ws, ".memory", "index.sqlite"), "x");
    const untracked = (await git("status", "--porcelain", "--untracked-files=all")).split("\n");
    expect(untracked).toContain("?? MEMORY.md");
    expect(untracked.some((l) => l.includes(".memory"))).toBe(false);

    // The result is a workspace the rest of membank opens, with every default in effect.
    const opened = await openWorkspace(ws);
    expect(opened.configPath).toBe(path.join(ws, "membank.config.json"));
    expect(opened.config.retain.defaultConfidence).toBe(0.7);
  });

  it("never overwrites: a second run creates nothing and keeps the user's edits", async () => {
    const ws = path.join(tmp, "ws");
    const templates = await makeTemplates();
    await initWorkspace(ws, { templatesDir: templates });
    await writeFile(path.join(ws, "MEMORY.md"), "# Mine\n- edited by hand\n");
    await writeFile(path.join(ws, "templates", "entity.md"), "my entity template\n");

    const again = await initWorkspace(ws, { templatesDir: templates });
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(again.skipped).toEqual([
      "MEMORY.md",
      "membank.config.json",
      ".gitignore",
      "templates/entity.md",
      "templates/opinions.md",
      "templates/sub/extra.md",
    ]);
    expect(again.git).toBe("existing");
    expect(await readFile(path.join(ws, "MEMORY.md"), "utf8")).toBe("# Mine\n- edited by hand\n");
    expect(await readFile(path.join(ws, "templates", "entity.md"), "utf8")).toBe("my entity template\n");
  });

  it("completes an existing folder: keeps memory.md, appends .memory/ to a .gitignore that lacks it", async () => {
    const ws = path.join(tmp, "existing");
    await mkdir(path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "memory.md"), "# lower-case core file\n");
    await writeFile(path.join(ws, "memory", "2026-01-02.md"), "## Retain\n- S: hi\n");
    await writeFile(path.join(ws, ".gitignore"), "node_modules/");

    const report = await initWorkspace(ws, { git: false, templatesDir: path.join(tmp, "none") });
    expect(report.created).toEqual(["bank/", "bank/entities/", "membank.config.json"]);
    expect(report.skipped).toEqual(["memory.md"]);
    expect(report.updated).toEqual([".gitignore"]);
    expect(report.git).toBe("disabled");
    expect(report.templatesFrom).toBeUndefined();
    expect(existsSync(path.join(ws, "MEMORY.md"))).toBe(false);
    expect(existsSync(path.join(ws, ".git"))).toBe(false);
    expect(await readFile(path.join(ws, ".gitignore"), "utf8")).toBe("node_modules/\n.memory/\n");
    expect(await readFile(path.join(ws, "memory", "2026-01-02.md"), "utf8")).toBe("## Retain\n- S: hi\n");

    // Appending happens once: the next run sees the line and leaves the file alone.
    const again = await initWorkspace(ws, { git: false, templatesDir: path.join(tmp, "none") });
    expect(again.updated).toEqual([]);
    expect(again.skipped).toContain(".gitignore");
    expect(await readFile(path.join(ws, ".gitignore"), "utf8")).toBe("node_modules/\n.memory/\n");
  });

  it("does not nest a repository inside another one", async () => {
    const outer = path.join(tmp, "outer");
    await mkdir(outer);
    await run("git", ["init", "-q"], { cwd: outer });
    const report = await initWorkspace(path.join(outer, "notes"), { templatesDir: path.join(tmp, "none") });
    expect(report.git).toBe("parent");
    expect(report.gitRoot).toBe(await realpathOf(outer));
    expect(existsSync(path.join(outer, "notes", ".git"))).toBe(false);
  });

  it("refuses a path that is a file, and a file where a folder must go, without writing anything", async () => {
    const file = path.join(tmp, "afile");
    await writeFile(file, "x");
    await expect(initWorkspace(file)).rejects.toThrow(MembankError);
    await expect(initWorkspace(file)).rejects.toThrow(/not a folder/);

    const ws = path.join(tmp, "clash");
    await mkdir(ws);
    await writeFile(path.join(ws, "bank"), "not a folder");
    await expect(initWorkspace(ws, { git: false })).rejects.toThrow(/bank\/.*a file of that name exists/);
    expect(existsSync(path.join(ws, "MEMORY.md"))).toBe(false);
  });

  it("finds the package root (with templates/) from the source tree", () => {
    expect(packageRoot()).toBe(repoRoot);
  });

  it("names the CLI script git and OpenClaw call: the bin when built, else the tsc entry, else none", async () => {
    expect(cliScript()).toBe(MEMBANK_BIN);
    const pkg = await mkdtemp(path.join(tmpdir(), "membank-pkg-"));
    try {
      await writeFile(
        path.join(pkg, "package.json"),
        JSON.stringify({ name: "membank", bin: { membank: "dist/m.cjs" } }),
      );
      expect(cliScript(pkg)).toBeUndefined();
      await mkdir(path.join(pkg, "dist/src/cli"), { recursive: true });
      await writeFile(path.join(pkg, "dist/src/cli/main.js"), "");
      expect(cliScript(pkg)).toBe(path.join(pkg, "dist/src/cli/main.js"));
      await writeFile(path.join(pkg, "dist/m.cjs"), "");
      expect(cliScript(pkg)).toBe(path.join(pkg, "dist/m.cjs"));
    } finally {
      await rm(pkg, { recursive: true, force: true });
    }
  });
});

describe("membank init (built CLI)", () => {
  it("creates a workspace and reports it as JSON; the human form lists kept files on a re-run", async () => {
    const ws = path.join(tmp, "cli-ws");
    const { stdout } = await run(process.execPath, [cli, "init", ws, "--json"]);
    const report = JSON.parse(stdout) as { root: string; created: string[]; git: string };
    expect(report.root).toBe(ws);
    expect(report.created).toEqual(expect.arrayContaining(["memory/", "bank/entities/", "MEMORY.md", ".gitignore"]));
    expect(report.git).toBe("initialized");
    expect(existsSync(path.join(ws, ".git"))).toBe(true);

    const second = await run(process.execPath, [cli, "init", "--workspace", ws]);
    expect(second.stdout).toContain("kept     MEMORY.md (exists, not touched)");
    expect(second.stdout).toContain("Nothing to do: already a workspace.");
    expect(second.stdout).toContain("git: already a repository");
  });

  it("exits non-zero with a clear message when DIR is a file", async () => {
    const file = path.join(tmp, "afile");
    await writeFile(file, "x");
    const result = await run(process.execPath, [cli, "init", file]).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a folder");
  });
});

async function realpathOf(p: string): Promise<string> {
  const { realpath } = await import("node:fs/promises");
  return realpath(p);
}
