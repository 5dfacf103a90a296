/**
 * Bank pages their user made read-only (chmod a-w): hands-off. A rename replaces a file
 * whatever its mode, so without this membank would rewrite and commit a page its user froze.
 * Such a page is left as it is (not rendered, so not written nor committed), said every run
 * with how to hand it back; the run after it is handed back reads every log, so the page
 * catches up with what it missed. The opinions page is not skippable (opinions evolve from
 * it): read-only, it stops the run before anything is written. A page of zero bytes only (a
 * crash while it was saved) is left as it is too, said with how to restore it.
 */
import { open, rm } from "node:fs/promises";
import path from "node:path";
import { OPINIONS_PAGE } from "../markdown/pages.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { MembankError } from "../workspace/errors.js";
import { listMemoryFiles } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { readIfExists } from "./load.js";

const listFile = (ws: Workspace) => path.join(stateDir(ws), "read-only-pages.json");

/** More read-only pages than this are said in one line. */
const MANY = 5;

/** How to hand a page back, said with every mention of it. */
const handBack = (rel: string) => `to hand it back to membank: chmod u+w ${rel}`;

export interface ReadOnlyPages {
  /** A page left out last run is back (writable, restored, or gone): this run must read every log. */
  full: boolean;
  /** Remember this run's read-only pages (after the run wrote its pages; never on a dry run). */
  save(): Promise<void>;
}

/**
 * Add the bank's read-only pages to `skip` and a note for each to `notes`; throws when the
 * opinions page is one of them.
 */
export async function leaveReadOnly(ws: Workspace, skip: Set<string>, notes: string[]): Promise<ReadOnlyPages> {
  const listed = await listMemoryFiles(ws, { under: "bank" });
  const pages = listed.filter((f) => f.readOnly).map((f) => f.path);
  if (pages.includes(OPINIONS_PAGE)) {
    throw new MembankError(
      `${OPINIONS_PAGE} is read-only; opinions evolve from it, so membank changed nothing: ${handBack(OPINIONS_PAGE)}, and run again`,
      { code: "EREADONLY" },
    );
  }
  const left = [...pages];
  // A page of zero bytes only (a crash while an editor saved it) is no text of the user's to
  // keep, nor a page to build on: left as it is, with how to get it back from git.
  for (const f of listed) {
    if (f.readOnly || f.size === 0 || !(await allZero(f.absPath))) continue;
    const why = `${f.path} holds only zero bytes (what a crash or power loss leaves of a file being written)`;
    const restore = `restore it from git (git checkout -- ${f.path}) or delete it`;
    if (f.path === OPINIONS_PAGE)
      throw new MembankError(`${why}; membank changed nothing: ${restore}, and run again`, { code: "EZEROED" });
    skip.add(f.path);
    notes.push(`${why}: left as it is and not committed; ${restore}`);
    left.push(f.path);
  }
  for (const rel of pages) skip.add(rel);
  // A bank copied from a read-only place (a CD, a Nix store) has every page read-only: one line.
  if (pages.length > MANY) {
    notes.push(
      `${pages.length} bank pages are read-only (${pages.slice(0, 3).join(", ")}, ...): left as they are and not committed; to hand them back to membank: chmod -R u+w bank`,
    );
  } else for (const rel of pages) notes.push(`${rel} is read-only: left as it is and not committed; ${handBack(rel)}`);
  const before = await readList(ws);
  left.sort();
  const back = before.filter((rel) => !left.includes(rel));
  if (back.length > 0)
    notes.push(`${back.join(", ")} handed back (writable or restored): read every log, brought up to date`);
  return {
    full: back.length > 0,
    save: async () => {
      if (left.join("\n") === before.join("\n")) return;
      if (left.length === 0) await rm(listFile(ws), { force: true });
      else await writeFileAtomic(listFile(ws), `${JSON.stringify(left, null, 2)}\n`);
    },
  };
}

/** Is the file nothing but zero bytes? (Its first byte answers for nearly every page.) */
async function allZero(file: string): Promise<boolean> {
  const fh = await open(file, "r").catch(() => undefined);
  if (fh === undefined) return false;
  try {
    const first = Buffer.alloc(1);
    await fh.read(first, 0, 1, 0);
    return first[0] === 0 && (await fh.readFile()).every((b) => b === 0);
  } finally {
    await fh.close();
  }
}

async function readList(ws: Workspace): Promise<string[]> {
  const raw = await readIfExists(listFile(ws));
  if (raw === undefined) return [];
  try {
    const list: unknown = JSON.parse(raw);
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return []; // derived state: at worst a handed-back page waits for its next fact
  }
}
