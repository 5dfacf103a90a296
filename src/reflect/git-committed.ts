/**
 * The paths membank has committed, so that a page the user then took out of git (`git rm`
 * and a commit, a revert of membank's commit, a reset) is not put back in membank's name
 * the next night. The page is written again (the logs still say what it said), but the
 * commit leaves it to the user, saying why.
 *
 * `.memory/committed-paths.txt`, one workspace-relative path a line: derived data. When it is
 * missing (the first run after an upgrade, `.memory/` deleted) it starts from the bank pages
 * HEAD holds, which membank wrote or the user committed: either way they were in git.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { nulSplit, type RepoInfo, runGit } from "../workspace/git.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

const recordFile = (ws: Workspace) => path.join(stateDir(ws), "committed-paths.txt");

/** The paths membank committed before (see above); `head` is HEAD's commit, undefined on an unborn branch. */
export async function committedBefore(ws: Workspace, repo: RepoInfo, head: string | undefined): Promise<Set<string>> {
  try {
    return new Set((await readFile(recordFile(ws), "utf8")).split("\n").filter((l) => l !== ""));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  let seed: string[] = [];
  if (head !== undefined) {
    const listed = await runGit(["ls-tree", "-r", "-z", "--name-only", head, "--", `${repo.prefix}bank`], {
      cwd: repo.top,
    });
    seed = nulSplit(listed.stdout).map((p) => p.slice(repo.prefix.length));
  }
  await mkdir(stateDir(ws), { recursive: true });
  await writeFileAtomic(recordFile(ws), seed.length > 0 ? `${seed.sort().join("\n")}\n` : "");
  return new Set(seed);
}

/** Add the paths of a commit membank made to the record. */
export async function recordCommitted(
  ws: Workspace,
  known: ReadonlySet<string>,
  paths: readonly string[],
): Promise<void> {
  const fresh = paths.filter((p) => !known.has(p));
  if (fresh.length > 0) await appendFile(recordFile(ws), `${fresh.join("\n")}\n`);
}
