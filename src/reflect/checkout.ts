/**
 * Is the workspace's Markdown really on disk? reflect treats a log that is gone as deleted
 * (its facts leave the bank) and a page that is gone as new (rendered from scratch). Both are
 * wrong when the files are only out of sight: a git sparse checkout that leaves memory/ or
 * bank/ out, or a memory/ folder that is missing or empty (an unmounted drive, a sync not
 * done yet). The nightly would then commit a bank emptied of ten years of facts, or pages
 * without the user's own text. These checks refuse before anything is written.
 */
import { existsSync } from "node:fs";
import { opendir, stat } from "node:fs/promises";
import path from "node:path";
import { citedSource } from "../markdown/citation.js";
import { MembankError } from "../workspace/errors.js";
import { isHiddenName, listMemoryFiles } from "../workspace/files.js";
import { nulSplit, repoInfo, runGit } from "../workspace/git.js";
import { readMemoryText } from "../workspace/text-file.js";
import type { Workspace } from "../workspace/workspace.js";

export const NOT_ON_DISK = "ENOTONDISK";

/** The workspace folders whose files reflect reads as the truth. */
const TRUTH_DIRS = ["memory", "bank"] as const;

/** Refuse when the Markdown reflect would read is not on disk (see the module comment). */
export async function assertWorkspaceOnDisk(ws: Workspace): Promise<void> {
  await assertNotSparse(ws);
  await assertLogsPresent(ws);
}

/** Tracked files of memory/ or bank/ that a sparse checkout keeps off the disk. */
async function assertNotSparse(ws: Workspace): Promise<void> {
  const repo = await repoInfo(ws.root);
  // Without the sparse-checkout file there is no sparse checkout: no git call at all.
  if (repo === undefined || !existsSync(path.join(repo.gitDir, "info", "sparse-checkout"))) return;
  const r = await runGit(["ls-files", "-t", "-z", "--", ...TRUTH_DIRS], { cwd: ws.root });
  // `S <path>`: skip-worktree, git's mark for a path outside the sparse checkout.
  const outside = nulSplit(r.stdout)
    .filter((entry) => entry.startsWith("S "))
    .map((entry) => entry.slice(2))
    .filter((rel) => !existsSync(path.join(ws.root, rel)));
  if (outside.length === 0) return;
  const more = outside.length > 1 ? ` and ${outside.length - 1} more tracked file(s) are` : " is";
  throw new MembankError(
    `${outside[0]}${more} outside this git sparse checkout, so membank cannot see them and changed nothing ` +
      `(it would drop their facts from the bank, or rebuild pages without your text): ` +
      `check them out (git sparse-checkout add ${TRUTH_DIRS.join(" ")}) or run membank on a full checkout`,
    { code: NOT_ON_DISK },
  );
}

/** A memory/ folder missing or empty while the bank cites daily logs. */
async function assertLogsPresent(ws: Workspace): Promise<void> {
  const memory = path.join(ws.root, "memory");
  if (await hasEntries(memory)) return;
  // Only now (the rare case) read the bank: does it cite a log of memory/?
  for (const page of await listMemoryFiles(ws, { under: "bank" })) {
    const { text } = await readMemoryText(path.join(ws.root, page.path)).catch(() => ({ text: "" }));
    const cited = text
      .split("\n")
      .map(citedSource)
      .find((s) => s?.path.startsWith("memory/"));
    if (cited === undefined) continue;
    throw new MembankError(
      `memory/ is ${(await isDir(memory)) ? "empty" : "missing"} but ${page.path} cites ${cited.path}: ` +
        "membank changed nothing (it would drop every fact of your logs from the bank). " +
        "Bring the logs back (a drive not mounted? a sync not finished?) and run again; " +
        "if you removed them on purpose, remove bank/ too",
      { code: NOT_ON_DISK },
    );
  }
}

async function hasEntries(dir: string): Promise<boolean> {
  try {
    // The first entry answers: no full listing of ten years of logs. (The loop closes the handle.)
    for await (const entry of await opendir(dir)) if (!isHiddenName(entry.name)) return true;
  } catch {
    // missing, or not a folder
  }
  return false;
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() === true;
}
