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
import { ENTITY_DIR, OPINIONS_PAGE, PROPOSALS_PAGE } from "../markdown/pages.js";
import { isEdited, readRegions } from "../markdown/regions.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { cmp } from "./format.js";
import { readWorkspaceFile } from "./load.js";
import { TYPED_PAGES } from "./pages.js";

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

/** The pages as this run found them, the last run's markers, and the pages put back since. */
export interface PutBackCheck {
  pagesNow: Map<string, string>;
  before: Map<string, string> | undefined;
  putBack: string[];
}

/** Reads the bank pages besides the entity pages (slug -> text) and compares their markers with the last run's. */
export async function checkPutBack(ws: Workspace, entityTexts: ReadonlyMap<string, string>): Promise<PutBackCheck> {
  const pagesNow = new Map<string, string>();
  for (const [slug, text] of entityTexts) pagesNow.set(`${ENTITY_DIR}/${slug}.md`, text);
  for (const rel of [OPINIONS_PAGE, PROPOSALS_PAGE, ...Object.values(TYPED_PAGES)]) {
    const text = await readWorkspaceFile(ws, rel);
    if (text !== undefined) pagesNow.set(rel, text);
  }
  const before = await loadMarkers(ws);
  return { pagesNow, before, putBack: before === undefined ? [] : restoredPages(before, pagesNow) };
}

export function putBackNote(putBack: readonly string[]): string {
  return (
    `${putBack.join(", ")}: changed back or deleted outside membank since its last run (a git revert, reset, ` +
    "checkout or pull of yours); the logs still say what membank wrote there, so this run re-read every log and " +
    "wrote the pages as they say: to drop something for good, edit or delete its line in the log"
  );
}

/** Saves the markers of the pages as this run leaves them, when they differ from what was saved. */
export async function saveMarkersAfter(
  ws: Workspace,
  check: PutBackCheck,
  written: readonly { path: string; after: string }[],
): Promise<void> {
  const after = new Map(check.pagesNow);
  for (const page of written) after.set(page.path, page.after);
  const before = check.before;
  if (
    before !== undefined &&
    before.size === after.size &&
    [...after].every(([rel, t]) => before.get(rel) === markersOf(t))
  )
    return;
  await saveMarkers(ws, after);
}
