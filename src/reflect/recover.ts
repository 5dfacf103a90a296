/**
 * After a merge of two machines' banks (issue 15): which pages the next reflect must
 * rebuild, and with what. Two sources:
 *  - git conflict markers in a bank page (a clone without membank's merge driver): the
 *    page is merged again region-aware (merge.ts) from the sides the markers hold; a
 *    conflict in people's text outside the regions is left as it is and reported;
 *  - the stale list membank's merge driver leaves in .memory/merge-stale.json.
 * Either means the logs now hold both machines' facts: the run reads every log. An
 * opinion the two sides moved differently restarts from the merge base's version (the
 * state both started from), so this run applies both machines' evidence oldest day first,
 * as one machine would: the evidence history is the truth, not either side's last number.
 * Without a base (markers without diff3 and no merge commit) it is rebuilt from all facts.
 * One side's confidence set by hand and not yet run through reflect is kept.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { splitConflicts } from "../markdown/conflicts.js";
import { RegionError, toLf } from "../markdown/regions.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { nulSplit, repoInfo, runGit } from "../workspace/git.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { readIfExists, readWorkspaceFile } from "./load.js";
import { mergePage, type PageMerge } from "./merge.js";

export const BANK_DIR = "bank";
export const staleFile = (ws: Workspace) => path.join(stateDir(ws), "merge-stale.json");

interface StaleList {
  /** Page path -> regions to render again (opinion ids among them are rebuilt from the logs). */
  pages: Record<string, string[]>;
}

export interface MergeRecovery {
  /** Pages whose conflict markers were all inside regions: their merged text. */
  rewritten: Map<string, string>;
  /** Pages with conflict markers in people's text: left as they are. */
  skip: Map<string, number[]>;
  /** Opinion ids to rebuild from all facts. */
  recompute: Set<string>;
  notes: string[];
  /** The logs changed under a merge: read them all. */
  full: boolean;
}

async function readStale(ws: Workspace): Promise<StaleList> {
  const raw = await readIfExists(staleFile(ws));
  if (raw === undefined) return { pages: {} };
  try {
    const parsed = JSON.parse(raw) as StaleList;
    return parsed && typeof parsed.pages === "object" ? parsed : { pages: {} };
  } catch {
    return { pages: {} }; // derived state: a broken file still means "a merge happened"
  }
}

/** Record regions of a page the next reflect must render again (the merge driver's side). */
export async function markStale(ws: Workspace, page: string, regions: readonly string[]): Promise<void> {
  const list = await readStale(ws);
  list.pages[page] = [...new Set([...(list.pages[page] ?? []), ...regions])].sort();
  await writeFileAtomic(staleFile(ws), `${JSON.stringify(list, null, 2)}\n`);
}

/** Forget the stale list once a run rebuilt the pages. */
export async function clearStale(ws: Workspace): Promise<void> {
  await rm(staleFile(ws), { force: true });
}

/**
 * The two sides (and base) of the merge commit that left the markers in a page, from git:
 * the true sides. Split from the markers instead, a region git merged line by line
 * (changes on both sides that did not touch) would look edited by hand on both.
 */
async function gitSides(
  ws: Workspace,
  rel: string,
  text: string,
): Promise<{ ours: string; theirs: string; base?: string } | undefined> {
  const repo = await repoInfo(ws.root);
  if (!repo) return undefined;
  const p = path.relative(repo.top, path.join(ws.root, rel)).split(path.sep).join("/");
  const log = await runGit(["log", "-1", "--merges", "--no-show-signature", "--no-color", "--format=%H %P", "--", p], {
    cwd: repo.top,
  });
  const [merge, ours, theirs] = log.stdout.trim().split(" ");
  if (merge === undefined || ours === undefined || theirs === undefined) return undefined;
  const show = async (rev: string) => {
    const r = await runGit(["cat-file", "blob", `${rev}:${p}`], { cwd: repo.top, okCodes: [128] });
    return r.code === 0 ? r.raw.toString("utf8") : undefined;
  };
  const merged = await show(merge);
  // Only while the page is still what that merge left: a later edit of yours (or an older merge) is never lost.
  if (merged === undefined || toLf(merged) !== toLf(text)) return undefined;
  const [o, t] = await Promise.all([show(ours), show(theirs)]);
  if (o === undefined || t === undefined) return undefined;
  const mb = await runGit(["merge-base", ours, theirs], { cwd: repo.top, okCodes: [1] });
  const base = mb.code === 0 ? await show(mb.stdout.trim()) : undefined;
  return base === undefined ? { ours: o, theirs: t } : { ours: o, theirs: t, base };
}

/**
 * Bank pages holding a line that starts like a conflict marker, found by `git grep` (a
 * read of every page took 2 s on 5,000 pages; git grep 50 ms). Outside a repository no
 * git merge can have left markers.
 */
async function pagesWithMarkers(ws: Workspace): Promise<string[]> {
  if (!(await repoInfo(ws.root))) return [];
  const r = await runGit(["grep", "--no-color", "-l", "-I", "-z", "-e", "^<<<<<<< ", "--", BANK_DIR], {
    cwd: ws.root,
    okCodes: [1],
  });
  return nulSplit(r.stdout)
    .filter((p) => p.endsWith(".md"))
    .map((p) => p.split(path.sep).join("/"))
    .sort();
}

function describe(rel: string, m: PageMerge, notes: string[]): void {
  for (const k of m.kept)
    notes.push(
      `${rel}: region "${k.region}" was edited by hand on ${k.side === "ours" ? "this machine" : "the other machine"}; that edit is kept`,
    );
  for (const r of m.bothEdited)
    notes.push(
      `${rel}: region "${r}" was edited by hand on both machines; this machine's edit is kept, the other is in git's history`,
    );
}

export async function recoverMerges(ws: Workspace): Promise<MergeRecovery> {
  const out: MergeRecovery = { rewritten: new Map(), skip: new Map(), recompute: new Set(), notes: [], full: false };
  const stale = await readStale(ws);
  if ((await readIfExists(staleFile(ws))) !== undefined) {
    out.full = true;
    out.notes.push(
      "bank pages were merged by git (membank's merge driver) since the last run: read every log, rendered every page",
    );
  }
  for (const [page, regions] of Object.entries(stale.pages))
    for (const r of regions) if (r.startsWith("op-") && page === `${BANK_DIR}/opinions.md`) out.recompute.add(r);

  for (const rel of await pagesWithMarkers(ws)) {
    const text = await readWorkspaceFile(ws, rel);
    if (text === undefined) continue;
    const split = splitConflicts(text);
    if (!split) continue;
    out.full = true;
    let merged: PageMerge | undefined;
    try {
      const sides = (await gitSides(ws, rel, text)) ?? split;
      merged = await mergePage({ ...sides, path: rel });
    } catch (error) {
      if (!(error instanceof RegionError)) throw error;
    }
    if (!merged?.clean) {
      out.skip.set(rel, split.lines);
      for (const line of split.lines)
        out.notes.push(
          `${rel}:${line}: git conflict markers in your text outside membank's regions; page left as it is: resolve the conflict, then run again`,
        );
      continue;
    }
    out.rewritten.set(rel, merged.text);
    for (const r of merged.stale) if (r.startsWith("op-") && !merged.fromBase.includes(r)) out.recompute.add(r);
    out.notes.push(
      `${rel}: git conflict markers inside membank's regions: rebuilt ${merged.stale.length ? merged.stale.join(", ") : "the page"} from the logs, kept the text outside the regions`,
    );
    describe(rel, merged, out.notes);
  }
  return out;
}

export { describe as describeMerge };
