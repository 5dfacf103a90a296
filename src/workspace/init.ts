import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_FILE } from "./config.js";
import { MembankError } from "./errors.js";
import { repoInfo, runGit } from "./git.js";
import { installMergeDriver } from "./merge-driver.js";

/** What `initWorkspace` did, path by path (workspace-relative, `/` separators). */
export interface InitReport {
  root: string;
  /** Folders and files this run created. */
  created: string[];
  /** Files that already existed and were left exactly as they were. */
  skipped: string[];
  /** Existing files that got an addition (only `.gitignore`, when it lacked `.memory/`). */
  updated: string[];
  /**
   * `initialized`: `git init` ran; `existing`: the folder already is a repository root;
   * `parent`: the folder is inside another repository (no nested repo is made);
   * `disabled`: asked not to; `unavailable`: git could not be run (see gitError).
   */
  git: "initialized" | "existing" | "parent" | "disabled" | "unavailable";
  gitRoot?: string;
  gitError?: string;
  /** Folder the page templates were copied from, when the package ships them. */
  templatesFrom?: string;
}

export interface InitOptions {
  /** Run `git init` when the folder is not in a repository (default true). */
  git?: boolean;
  /** Where the package's `templates/` live; found from this module's location by default. */
  templatesDir?: string;
}

export const STARTER_MEMORY = `# MEMORY

Core facts: small, stable, edited by hand. membank never rewrites this file;
durable facts and opinions it finds are proposed in \`bank/proposals.md\`.

## About the person

- (name, role, time zone, how they like to be helped)

## People and projects

- (the people and projects that come up again and again)
`;

const STARTER_CONFIG = "{}\n";
const GITIGNORE_LINE = ".memory/";

function isMembankPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name === "membank";
  } catch {
    return false;
  }
}

/**
 * The package root: the nearest folder above this module that holds membank's
 * package.json. Works from src/ (tests) and from dist/src/ (the built CLI) alike.
 */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && isMembankPackage(pkg)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The script `membank` runs: package.json's `bin.membank` (the bundled CLI) when it is
 * built, else the tsc build's `dist/src/cli/main.js` (a checkout built with tsc alone);
 * undefined when neither exists. Git's merge driver and OpenClaw's plugin call this file.
 */
export function cliScript(root: string | undefined = packageRoot()): string | undefined {
  if (root === undefined) return undefined;
  let bin: unknown;
  try {
    bin = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { bin?: { membank?: unknown } }).bin
      ?.membank;
  } catch {
    bin = undefined;
  }
  const candidates = [typeof bin === "string" ? bin : undefined, "dist/src/cli/main.js"];
  for (const rel of candidates) {
    if (rel !== undefined && existsSync(path.join(root, rel))) return path.join(root, rel);
  }
  return undefined;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Every file under `dir`, relative, sorted (so reports are deterministic). */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Create a workspace in `dir` (DESIGN.md 1): memory/, bank/entities/, a starter MEMORY.md,
 * membank.config.json (`{}`: every default applies), a .gitignore for the derived `.memory/`,
 * the page templates, and a git repository. Safe to re-run: a file that exists is never
 * overwritten, only reported as skipped; only a .gitignore without `.memory/` gets that
 * line appended, because an index committed to git would be worse than an edited .gitignore.
 */
export async function initWorkspace(dir: string, options: InitOptions = {}): Promise<InitReport> {
  const root = path.resolve(dir);
  if (existsSync(root) && !(await isDirectory(root))) {
    throw new MembankError(`Cannot create a workspace at ${root}: it exists and is not a folder.`, {
      code: "ENOTDIR",
      exitCode: 2,
    });
  }
  for (let up = path.dirname(root); ; up = path.dirname(up)) {
    if (existsSync(up)) {
      if (!(await isDirectory(up))) {
        throw new MembankError(
          `Cannot create a workspace at ${root}: ${up} is a file, not a folder. Choose a path under a folder.`,
          { code: "ENOTDIR", exitCode: 2 },
        );
      }
      break;
    }
    if (path.dirname(up) === up) break;
  }
  const report: InitReport = { root, created: [], skipped: [], updated: [], git: "disabled" };

  async function ensureDir(rel: string): Promise<void> {
    const abs = path.join(root, rel);
    if (await isDirectory(abs)) return;
    if (existsSync(abs)) {
      throw new MembankError(`Cannot create folder ${rel}/ in ${root}: a file of that name exists.`, {
        code: "ENOTDIR",
        exitCode: 2,
      });
    }
    await mkdir(abs, { recursive: true });
    report.created.push(`${rel}/`);
  }

  async function ensureFile(rel: string, content: string | Buffer): Promise<void> {
    const abs = path.join(root, rel);
    try {
      // "wx" fails when the file exists: the check and the write are one step, so a file
      // that appears meanwhile is still never overwritten.
      await writeFile(abs, content, { flag: "wx" });
      report.created.push(rel);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      report.skipped.push(rel);
    }
  }

  await mkdir(root, { recursive: true });
  for (const rel of ["memory", "bank", "bank/entities"]) await ensureDir(rel);

  // An existing lower-case memory.md is the core file already; don't add a second one.
  if (existsSync(path.join(root, "memory.md")) && !existsSync(path.join(root, "MEMORY.md"))) {
    report.skipped.push("memory.md");
  } else {
    await ensureFile("MEMORY.md", STARTER_MEMORY);
  }
  await ensureFile(CONFIG_FILE, STARTER_CONFIG);

  const gitignore = path.join(root, ".gitignore");
  if (existsSync(gitignore)) {
    const text = await readFile(gitignore, "utf8");
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    if (lines.some((l) => l === ".memory/" || l === ".memory" || l === "/.memory/" || l === "/.memory")) {
      report.skipped.push(".gitignore");
    } else {
      await appendFile(gitignore, `${text === "" || text.endsWith("\n") ? "" : "\n"}${GITIGNORE_LINE}\n`);
      report.updated.push(".gitignore");
    }
  } else {
    await ensureFile(
      ".gitignore",
      `# membank's derived data (index, run records): rebuildable, never committed\n${GITIGNORE_LINE}\n`,
    );
  }

  const templatesDir =
    options.templatesDir ??
    (() => {
      const pkg = packageRoot();
      return pkg === undefined ? undefined : path.join(pkg, "templates");
    })();
  if (templatesDir !== undefined && (await isDirectory(templatesDir))) {
    const files = await listFiles(templatesDir);
    if (files.length > 0) {
      report.templatesFrom = templatesDir;
      await ensureDir("templates");
      for (const rel of files) {
        const sub = path.posix.dirname(rel);
        if (sub !== ".") await mkdir(path.join(root, "templates", sub), { recursive: true });
        await ensureFile(`templates/${rel}`, await readFile(path.join(templatesDir, rel)));
      }
    }
  }

  if (options.git !== false) await initGit(root, report);
  // Bank pages of two clones merge with membank's driver (issue 15); without a built CLI, doctor offers it later.
  const cli = cliScript();
  if (report.gitRoot !== undefined && cli !== undefined) {
    const { changed } = await installMergeDriver(root, cli).catch(() => ({ changed: [] as string[] }));
    if (changed.includes(".gitattributes")) report.created.push(".gitattributes");
  }
  return report;
}

async function initGit(root: string, report: InitReport): Promise<void> {
  try {
    const repo = await repoInfo(root);
    if (repo && repo.prefix === "") {
      report.git = "existing";
      report.gitRoot = root;
      return;
    }
    if (repo) {
      // A nested repository would hide the workspace from the outer one; reflect can
      // commit into the outer repository just as well.
      report.git = "parent";
      report.gitRoot = repo.top;
      return;
    }
    await runGit(["init", "-q"], { cwd: root });
    report.git = "initialized";
    report.gitRoot = root;
  } catch (error) {
    report.git = "unavailable";
    report.gitError = (error as Error).message.split("\n")[0] ?? String(error);
  }
}
