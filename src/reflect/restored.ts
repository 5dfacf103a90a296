/**
 * Bank pages git put back (the user's `git revert` of a membank commit, a reset, a checkout of
 * an old page): their regions are membank's own old text, unedited, so nothing else notices,
 * and an incremental run would build on a state the logs no longer give (an opinion back at
 * last week's confidence, a page missing facts the logs still hold). Each run keeps the
 * markers of every page as it leaves them (`.memory/bank-regions.json`); a page whose markers
 * changed since, none of its regions edited by hand, was put back: the run is then a full one,
 * and says so. The logs are the truth: what they still say is written again.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isEdited, readRegions } from "../markdown/regions.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { cmp } from "./format.js";

const VERSION = 1;
const END = /^[ \t]*<!--[ \t]*membank:end[ \t]+([A-Za-z0-9_.:-]+)(?:[ \t]+sha=([0-9a-f]+))?[ \t]*-->/gm;

const fileOf = (ws: Workspace) => path.join(stateDir(ws), "bank-regions.json");

/** A page's regions as its end markers name them: "name sha" a line. Pure. */
export function markersOf(text: string): string {
  return [...text.matchAll(END)].map((m) => `${m[1]} ${m[2] ?? ""}`).join("\n");
}

/** Markers of the pages as the last run left them; undefined when unknown (never saved, corrupt). */
export async function loadMarkers(ws: Workspace): Promise<Map<string, string> | undefined> {
  try {
    const data = JSON.parse(await readFile(fileOf(ws), "utf8")) as { version?: number; pages?: unknown };
    if (data.version !== VERSION || typeof data.pages !== "object" || data.pages === null) return undefined;
    return new Map(Object.entries(data.pages as Record<string, string>).filter(([, v]) => typeof v === "string"));
  } catch {
    return undefined;
  }
}

export async function saveMarkers(ws: Workspace, pages: ReadonlyMap<string, string>): Promise<void> {
  const sorted = Object.fromEntries([...pages].sort((a, b) => cmp(a[0], b[0])).map(([p, t]) => [p, markersOf(t)]));
  await writeFileAtomic(fileOf(ws), `${JSON.stringify({ version: VERSION, pages: sorted })}\n`);
}

/**
 * Pages (path -> text now) whose markers differ from the last run's, with no region edited by
 * hand (an edit has its own rule: kept, reported as a conflict). A page the last run did not
 * know is new, not put back. Sorted. Pure.
 */
export function restoredPages(before: ReadonlyMap<string, string>, now: ReadonlyMap<string, string>): string[] {
  // A page the last run left that is gone now (a revert of the commit that made it) counts too.
  const out: string[] = [...before.keys()].filter((rel) => !now.has(rel));
  for (const [rel, text] of now) {
    const was = before.get(rel);
    if (was === undefined || was === markersOf(text)) continue;
    let regions: ReturnType<typeof readRegions>;
    try {
      regions = readRegions(text, rel);
    } catch {
      continue; // unbalanced markers: the render reports them
    }
    if (regions.length > 0 && !regions.some((r) => isEdited(r))) out.push(rel);
  }
  return out.sort(cmp);
}
