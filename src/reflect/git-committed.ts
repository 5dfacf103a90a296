/**
 * The paths membank has committed, so that a page the user then took out of git (`git rm`
 * and a commit, a revert of membank's commit, a reset) is not put back in membank's name
 * the next night. The page is written again (the logs still say what it said), but the
 * commit leaves it to the user, saying why.
 *
 * `.memory/committed-paths.txt`, one line a path: `<branch>\t<path>` (the branch membank
 * committed it on), or a bare `<path>` as older versions wrote (on every branch). Per branch:
 * a branch made before membank's first night never had the pages, and a nightly run there
 * commits them like any new page (left out, they blocked `git switch` back to the other
 * branch as untracked files, and were said to be taken out of git). Derived data: when it
 * is missing (the first run after an upgrade, `.memory/` deleted) it starts from the bank
 * pages HEAD holds, which membank wrote or the user committed: either way they were in git.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { nulSplit, type RepoInfo, runGit } from "../workspace/git.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

const recordFile = (ws: Workspace) => path.join(stateDir(ws), "committed-paths.txt");

/** The record's line of `p` committed on `branch`. */
const line = (branch: string, p: string) => `${branch}\t${p}`;

/**
 * The paths membank committed before on `branch` (see above); `head` is HEAD's commit,
 * undefined on an unborn branch.
 */
export async function committedBefore(
  ws: Workspace,
  repo: RepoInfo,
  head: string | undefined,
  branch: string,
): Promise<Set<string>> {
  try {
    const out = new Set<string>();
    for (const l of (await readFile(recordFile(ws), "utf8")).split("\n")) {
      if (l === "") continue;
      const tab = l.indexOf("\t");
      if (tab === -1) out.add(l);
      else if (l.slice(0, tab) === branch) out.add(l.slice(tab + 1));
    }
    return out;
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
  const lines = seed.sort().map((p) => line(branch, p));
  await writeFileAtomic(recordFile(ws), lines.length > 0 ? `${lines.join("\n")}\n` : "");
  return new Set(seed);
}

/** Add the paths of a commit membank made on `branch` to the record. */
export async function recordCommitted(
  ws: Workspace,
  known: ReadonlySet<string>,
  paths: readonly string[],
  branch: string,
): Promise<void> {
  const fresh = paths.filter((p) => !known.has(p));
  if (fresh.length > 0) await appendFile(recordFile(ws), `${fresh.map((p) => line(branch, p)).join("\n")}\n`);
}
