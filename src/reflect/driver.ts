/**
 * `membank merge-driver %O %A %B %P`: what git calls to merge a bank page (merge.ts has
 * the rules). The result goes to %A; exit 0 when clean, 1 with conflict markers left in
 * people's text. Regions taken from one side are listed as stale so the next reflect
 * reads every log and renders them again.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { RegionError } from "../markdown/regions.js";
import type { Workspace } from "../workspace/workspace.js";
import { mergeFile, mergePage } from "./merge.js";
import { describeMerge, markStale } from "./recover.js";

export interface DriverFiles {
  base: string;
  ours: string;
  theirs: string;
  /** The page's path in the repository (%P); git runs the driver at the repository's top. */
  page: string;
  /** The repository's top folder (the driver's working directory). */
  cwd: string;
}

export interface DriverResult {
  clean: boolean;
  stale: string[];
  notes: string[];
}

export async function runMergeDriver(ws: Workspace, files: DriverFiles): Promise<DriverResult> {
  const rel = path.relative(ws.root, path.resolve(files.cwd, files.page)).split(path.sep).join("/");
  const [base, ours, theirs] = await Promise.all(
    [files.base, files.ours, files.theirs].map((f) => readFile(f, "utf8")),
  );
  const labels: [string, string, string] = [`${rel} (ours)`, `${rel} (base)`, `${rel} (theirs)`];
  try {
    const merged = await mergePage({ base: base!, ours: ours!, theirs: theirs!, path: rel, labels });
    await writeFile(files.ours, merged.text);
    // Regions filled from the base need no rebuild of their state, only the full run.
    if (merged.stale.length > 0)
      await markStale(
        ws,
        rel,
        merged.stale.filter((r) => !merged.fromBase.includes(r)),
      );
    const notes: string[] = [];
    describeMerge(rel, merged, notes);
    return { clean: merged.clean, stale: merged.stale, notes };
  } catch (error) {
    if (!(error instanceof RegionError)) throw error;
    // Markers a person broke on one side: merge the whole page as git would, nothing lost.
    const merged = await mergeFile(ours!, base!, theirs!, labels);
    await writeFile(files.ours, merged.text);
    await markStale(ws, rel, []);
    return { clean: merged.conflicts === 0, stale: [], notes: [error.message] };
  }
}

/**
 * When membank cannot run its own merge (no workspace, a broken config...): git's own
 * three-way text merge into %A, so the user gets a normal conflict and nothing is lost.
 */
export async function plainMerge(files: Omit<DriverFiles, "page" | "cwd">): Promise<boolean> {
  const [base, ours, theirs] = await Promise.all(
    [files.base, files.ours, files.theirs].map((f) => readFile(f, "utf8")),
  );
  const merged = await mergeFile(ours!, base!, theirs!, ["ours", "base", "theirs"]);
  await writeFile(files.ours, merged.text);
  return merged.conflicts === 0;
}
