/**
 * What git's index and HEAD hold for the commit step (reflect/git.ts), and bringing the
 * user's index in step with a commit membank made: read-only git queries plus the two
 * index updates, each for exactly the paths membank committed.
 */
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { type GitState, nulList, nulSplit, type RepoInfo, runGit } from "../workspace/git.js";
import { contentHash } from "../workspace/owned.js";

/** Hash of a file of the work tree (path from the repository's top), undefined when unreadable. */
async function workTreeHash(repo: RepoInfo, topPath: string): Promise<string | undefined> {
  try {
    return contentHash(await readFile(path.join(repo.top, topPath)));
  } catch {
    return undefined;
  }
}

/** One object read by `git cat-file --batch`: its id, type and bytes (absent: "missing"). */
export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

/** Read objects named by `specs` (e.g. `HEAD:bank/x.md`, `<commit>^{tree}`) in one git call. */
export async function catBatch(repo: RepoInfo, specs: string[]): Promise<(BatchObject | undefined)[]> {
  if (specs.length === 0) return [];
  const r = await runGit(["cat-file", "--batch"], { cwd: repo.top, input: specs.map((s) => `${s}\n`).join("") });
  const buf = r.raw;
  const out: (BatchObject | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < specs.length; i++) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const header = buf.subarray(at, nl).toString("utf8");
    at = nl + 1;
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.push(undefined); // "<spec> missing"
      continue;
    }
    const size = Number(m[3]);
    out.push({ oid: m[1]!, type: m[2]!, content: buf.subarray(at, at + size) });
    at += size + 1;
  }
  return out;
}

/** sha-per-path of HEAD's versions of `topPaths` as a checkout writes them (absent: not in HEAD). */
export async function headHashes(repo: RepoInfo, topPaths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const objects = await catBatch(
    repo,
    topPaths.map((p) => `HEAD:${p}`),
  );
  const blobs = new Map<string, string>();
  topPaths.forEach((p, i) => {
    const o = objects[i];
    if (o?.type === "blob") {
      out.set(p, contentHash(o.content));
      blobs.set(p, o.oid);
    }
  });
  for (const [p, hash] of await checkoutHashes(repo, blobs)) out.set(p, hash);
  return out;
}

/** Attributes by which a file's bytes differ from its blob's (beyond CRLF, which contentHash reads as LF). */
const CONVERTING = ["filter", "ident", "working-tree-encoding"];

/**
 * For the blobs (top path -> blob id) whose path has a converting attribute (a clean/smudge
 * filter such as git-crypt's or LFS's, ident, working-tree-encoding), the hash of the bytes a
 * checkout writes; the others are left out (their blob's bytes are the file's). Without this
 * every page of a filtered bank reads as "changed by the user" after its first commit.
 */
export async function checkoutHashes(repo: RepoInfo, blobs: Map<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (blobs.size === 0) return out;
  const attrs = nulSplit(
    (
      await runGit(["check-attr", "-z", "--stdin", ...CONVERTING], {
        cwd: repo.top,
        input: nulList([...blobs.keys()]),
      })
    ).stdout,
  );
  const converted = new Set<string>();
  // `-z` output: path, attribute, value, ...
  for (let i = 0; i + 2 < attrs.length; i += 3) {
    if (attrs[i + 2] !== "unspecified" && attrs[i + 2] !== "unset") converted.add(attrs[i]!);
  }
  // One git call per converted page: `cat-file --batch --filters` misstates the converted size.
  await Promise.all(
    [...converted].map(async (p) => {
      const r = await runGit(["cat-file", "--filters", `--path=${p}`, blobs.get(p)!], { cwd: repo.top });
      out.set(p, contentHash(r.raw));
    }),
  );
  return out;
}

/**
 * `staged`: paths whose index entry differs from HEAD (every entry when HEAD is unborn);
 * `user`: those of them whose staged version is the user's (not what the work tree holds);
 * `removed`: those whose removal the user staged (`git rm --cached`), counted in `user` too.
 */
export async function stagedByUser(
  repo: RepoInfo,
  state: GitState,
): Promise<{ staged: Set<string>; user: Set<string>; removed: Set<string> }> {
  const removed = new Set<string>();
  let staged: string[];
  if (state.kind === "normal") {
    // `-z --name-status`: status, path, status, path, ...
    const fields = nulSplit(
      (await runGit(["diff-index", "--cached", "--name-status", "-z", "HEAD"], { cwd: repo.top })).stdout,
    );
    staged = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      staged.push(fields[i + 1]!);
      if (fields[i] === "D") removed.add(fields[i + 1]!);
    }
  } else staged = nulSplit((await runGit(["ls-files", "-z"], { cwd: repo.top })).stdout);
  if (staged.length === 0) return { staged: new Set(), user: new Set(), removed };
  const unlike = new Set(nulSplit((await runGit(["diff-files", "--name-only", "-z"], { cwd: repo.top })).stdout));
  return { staged: new Set(staged), user: new Set(staged.filter((p) => unlike.has(p) || removed.has(p))), removed };
}

/** Untracked paths git ignores (.gitignore, .git/info/exclude): the user keeps them out of git. */
async function ignoredPaths(repo: RepoInfo, topPaths: string[]): Promise<Set<string>> {
  const r = await runGit(["check-ignore", "-z", "--stdin"], { cwd: repo.top, input: nulList(topPaths), okCodes: [1] });
  return new Set(nulSplit(r.stdout));
}

/**
 * The top-most folder between the repository's top and each path that holds a `.git` of its
 * own (a nested repository, or a checked-out submodule): git never adds a file inside one
 * (`git add bank/x.md` does nothing), so membank does not either.
 */
async function nestedRepos(repo: RepoInfo, topPaths: string[]): Promise<Map<string, string>> {
  const known = new Map<string, boolean>();
  const isRepo = async (dir: string) => {
    let hit = known.get(dir);
    if (hit === undefined) {
      hit = await lstat(path.join(repo.top, dir, ".git")).then(
        () => true,
        () => false,
      );
      known.set(dir, hit);
    }
    return hit;
  };
  const out = new Map<string, string>();
  for (const p of topPaths) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (await isRepo(dir)) {
        out.set(p, dir);
        break;
      }
    }
  }
  return out;
}

/**
 * Index entries the user marked with `git update-index --skip-worktree` or `--assume-unchanged`
 * (value: the mark): git is told not to look at those files, so membank does not commit them,
 * and leaves the marks alone (writing the entry would clear them). One call: a long path list
 * is asked as its top folders (bank, memory), not on the command line.
 */
async function markedPaths(repo: RepoInfo, topPaths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (topPaths.length === 0) return out;
  const wanted = new Set(topPaths);
  const depth = repo.prefix.split("/").length; // "a/b/" -> 3: the workspace's folders are one deeper
  const specs =
    topPaths.length <= 100 ? topPaths : [...new Set(topPaths.map((p) => p.split("/").slice(0, depth).join("/")))];
  const r = await runGit(["--literal-pathspecs", "ls-files", "-v", "-z", "--", ...specs], { cwd: repo.top });
  for (const entry of nulSplit(r.stdout)) {
    const tag = entry.slice(0, 1);
    const p = entry.slice(2);
    if (!wanted.has(p) || tag === "H") continue;
    // ls-files -v: "S" skip-worktree; a lower-case tag is assume-unchanged.
    if (tag === "S" || tag === "s") out.set(p, "skip-worktree");
    else if (tag !== tag.toUpperCase()) out.set(p, "assume-unchanged");
  }
  return out;
}

/**
 * Paths this repository cannot commit: those git ignores, those inside another repository
 * (value: its folder): a nested one, or a submodule (e.g. `bank/` kept as one), and those the
 * user marked skip-worktree or assume-unchanged (value: the mark). For a submodule that is not
 * checked out git says "is in submodule", and only then are the submodules looked up.
 */
export async function refusedPaths(
  repo: RepoInfo,
  topPaths: string[],
): Promise<{ ignored: Set<string>; submodule: Map<string, string>; marked: Map<string, string> }> {
  const markedRead = markedPaths(repo, topPaths);
  // Not left unhandled while check-ignore runs: awaited below on every path.
  markedRead.catch(() => {});
  const submodule = await nestedRepos(repo, topPaths);
  const rest = () => topPaths.filter((p) => !submodule.has(p));
  try {
    return { ignored: await ignoredPaths(repo, rest()), submodule, marked: await markedRead };
  } catch (error) {
    if (!/is in submodule/.test((error as Error).message)) throw error;
  }
  const links = nulSplit((await runGit(["ls-files", "--stage", "-z"], { cwd: repo.top })).stdout)
    .filter((e) => e.startsWith("160000 "))
    .map((e) => e.slice(e.indexOf("\t") + 1));
  for (const p of topPaths) {
    const link = links.find((l) => p.startsWith(`${l}/`));
    if (link !== undefined && !submodule.has(p)) submodule.set(p, link);
  }
  return { ignored: await ignoredPaths(repo, rest()), submodule, marked: await markedRead };
}

/**
 * Bring the user's index in line with a commit membank made (its paths' entries := HEAD),
 * only where the work tree already holds HEAD's version and the index is behind.
 */
export async function syncUserIndex(repo: RepoInfo, topPaths: string[]): Promise<void> {
  if (topPaths.length === 0) return;
  const wanted = new Set(topPaths);
  const indexBehind = nulSplit(
    (await runGit(["diff-index", "--cached", "--name-only", "-z", "HEAD"], { cwd: repo.top })).stdout,
  ).filter((p) => wanted.has(p));
  if (indexBehind.length === 0) return;
  const heads = await headHashes(repo, indexBehind);
  const fix: string[] = [];
  for (const p of indexBehind) {
    const h = heads.get(p);
    if (h !== undefined && (await workTreeHash(repo, p)) === h) fix.push(p);
  }
  if (fix.length === 0) return;
  await runGit(["--literal-pathspecs", "reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    cwd: repo.top,
    input: nulList(fix),
    detached: true,
  });
}

/**
 * Set the user's index entries of `behind` (top path -> hash of what membank committed) to
 * the new commit's blobs (mode + id from the private index `entries`), where the work tree
 * still holds those bytes: what `git reset -- <paths>` does, without its refresh of every
 * entry (a stat of each file of the repository). A file that changed meanwhile goes the
 * general way (syncUserIndex).
 */
export async function syncCommitted(
  repo: RepoInfo,
  behind: Map<string, string>,
  entries: Map<string, string>,
): Promise<void> {
  const info: string[] = [];
  const refreshed: string[] = [];
  const other: string[] = [];
  for (const [p, sha] of behind) {
    const entry = entries.get(p);
    if (entry !== undefined && (await workTreeHash(repo, p)) === sha) {
      info.push(`${entry}\t${p}\0`);
      refreshed.push(p);
    } else other.push(p);
  }
  if (info.length > 0) {
    await runGit(["update-index", "-z", "--index-info"], { cwd: repo.top, input: info.join(""), detached: true });
    // --index-info leaves those entries without stat data, so plumbing (`git diff-index HEAD`,
    // `diff-files`) would call them modified until something refreshes. `add --refresh` on
    // exactly those paths hashes each once and takes its stat data when the bytes still match
    // (an edit since stays unstaged); a whole-index refresh would stat every file of the repository.
    await runGit(["--literal-pathspecs", "add", "--refresh", "--pathspec-from-file=-", "--pathspec-file-nul"], {
      cwd: repo.top,
      input: nulList(refreshed),
      detached: true,
    });
  }
  await syncUserIndex(repo, other);
}

/** `mode oid` per path of the stage-0 entries of an index file, limited to `wanted`. */
export async function indexEntries(
  run: (args: string[]) => Promise<{ stdout: string }>,
  wanted: Map<string, unknown>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rec of nulSplit((await run(["ls-files", "-s", "-z"])).stdout)) {
    const tab = rec.indexOf("\t");
    const p = rec.slice(tab + 1);
    if (!wanted.has(p)) continue;
    const [mode, oid, stage] = rec.slice(0, tab).split(" ");
    if (stage === "0") out.set(p, `${mode} ${oid}`);
  }
  return out;
}
