/**
 * Reflect's snapshot of the facts (derived data in .memory/reflect/, see load.ts): what the
 * previous run read from every log, so an incremental run parses only the window's logs.
 *
 * Stored in one file per year of logs (`facts-<year>-<hash>.json`, named by a hash of its
 * bytes) and a head (`facts.json`) that lists them. A +1-day run changes only the current
 * year: the other years' files are kept as they are, not serialised and fsynced again
 * (ten years are ~7 MB). A file is never overwritten (new bytes, new name); the head is
 * written atomically after the files it names, and only then are files it no longer names
 * removed, so a crash at any point leaves a head whose files all exist.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import type { Diagnostic, Fact } from "../retain/types.js";
import { writeFileAtomic, writeFilesAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import type { ProseLog } from "./prose.js";

// 2: prose names per log, the run's date and MEMORY.md's text (the entity pages show them).
// 3: opinion facts say when their c= is the default (Fact.defaultConfidence).
// 4: one file per year of logs, listed by a head.
// 5: a part's prose is a list of logs with their dates (what load.ts uses, as JSON.parse gives it: no pass over
//    3,650 paths to re-derive their dates). JSON.parse is native; a JS decoder of a leaner layout is slower on the
//    nightly's one cold pass.
const SNAPSHOT_VERSION = 5;
export const snapshotPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "facts.json");

export interface Snapshot {
  /** The alias table the pages were rendered with (a change means every page must be redone). */
  aliases?: string;
  facts: Fact[];
  diagnostics: Diagnostic[];
  /** Names in the prose of each log (prose.ts), logs with no names left out. */
  prose: ProseLog[];
  /** The previous run's date: what was upcoming then may be past now. */
  asOf?: string;
  /** MEMORY.md as the pages were rendered with it (its lines are on the pages). */
  core?: string;
}

interface Head {
  version: number;
  aliases?: string;
  asOf?: string;
  core?: string;
  /** Part files in order: the facts, diagnostics and prose are these parts' lists concatenated. */
  parts: { key: string; file: string }[];
}

/** What an incremental run's load (load.ts) tells the save: the files the head named, and the run's window. */
export interface SnapshotRead extends Snapshot {
  parts: { key: string; file: string }[];
}

/**
 * The part a fact, diagnostic or log belongs to: its log's year (the date load.ts
 * compares with `since`), "other" for a path without a date.
 */
const partKey = (p: string, date?: string): string => {
  const d = date ?? logDate(p);
  return d !== undefined && /^\d{4}-/.test(d) ? d.slice(0, 4) : "other";
};

/** The snapshot, or undefined when there is none, it is of another version, or a file is missing or corrupt. */
export async function readSnapshot(ws: Workspace): Promise<SnapshotRead | undefined> {
  const dir = path.dirname(snapshotPath(ws));
  try {
    const head = JSON.parse(await readText(snapshotPath(ws))) as Head;
    if (head.version !== SNAPSHOT_VERSION || !Array.isArray(head.parts)) return undefined;
    const out: SnapshotRead = {
      facts: [],
      diagnostics: [],
      prose: [],
      parts: head.parts,
      ...(head.aliases === undefined ? {} : { aliases: head.aliases }),
      ...(head.asOf === undefined ? {} : { asOf: head.asOf }),
      ...(head.core === undefined ? {} : { core: head.core }),
    };
    for (const { file } of head.parts) {
      const part = JSON.parse(await readText(path.join(dir, file))) as Snapshot;
      if (!Array.isArray(part.facts) || !Array.isArray(part.diagnostics) || !Array.isArray(part.prose))
        return undefined;
      for (const f of part.facts) out.facts.push(f);
      for (const d of part.diagnostics) out.diagnostics.push(d);
      for (const p of part.prose) out.prose.push(p);
    }
    return out;
  } catch {
    return undefined; // missing or corrupt derived data: rebuilt from the logs
  }
}

const readText = (file: string) => readFile(file, "utf8");

/**
 * Save the snapshot. `kept`: the parts read at the start of an incremental run and its
 * `since`; a year wholly before `since` holds exactly the facts read from its part, so that
 * file is named again, not rewritten. The lists must be grouped by year (the logs are read
 * in path order); when they are not, everything goes in one part, as correct and as slow as before.
 */
export async function writeSnapshot(
  ws: Workspace,
  snap: Snapshot,
  kept?: { since: string; parts: readonly { key: string; file: string }[] },
): Promise<void> {
  const file = snapshotPath(ws);
  const dir = path.dirname(file);
  const order: string[] = [];
  const parts = new Map<string, Snapshot>();
  const partOf = (key: string) => {
    let part = parts.get(key);
    if (part === undefined) {
      part = { facts: [], diagnostics: [], prose: [] };
      parts.set(key, part);
      order.push(key);
    }
    return part;
  };
  const factKeys = snap.facts.map((f) => partKey(f.source.path, f.date));
  const diagnosticKeys = snap.diagnostics.map((d) => partKey(d.path));
  const proseKeys = snap.prose.map((p) => partKey(p.path, p.date));
  for (const [i, f] of snap.facts.entries()) partOf(factKeys[i]!).facts.push(f);
  for (const [i, d] of snap.diagnostics.entries()) partOf(diagnosticKeys[i]!).diagnostics.push(d);
  for (const [i, p] of snap.prose.entries()) partOf(proseKeys[i]!).prose.push(p);
  const grouped = inOrder(factKeys, order) && inOrder(diagnosticKeys, order) && inOrder(proseKeys, order);
  const list = grouped ? order : ["all"];
  if (!grouped) parts.set("all", snap);

  const sinceYear = kept?.since.slice(0, 4);
  const before = new Map((kept?.parts ?? []).map((p) => [p.key, p.file]));
  const named: { key: string; file: string }[] = [];
  const writes: { file: string; content: string }[] = [];
  for (const key of list) {
    const old = before.get(key);
    if (old !== undefined && sinceYear !== undefined && /^\d{4}$/.test(key) && key < sinceYear) {
      named.push({ key, file: old });
      continue;
    }
    const { facts, diagnostics, prose } = parts.get(key)!;
    const text = JSON.stringify({ facts, diagnostics, prose });
    const name = `facts-${key}-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`;
    named.push({ key, file: name });
    if (name !== old) writes.push({ file: path.join(dir, name), content: text });
  }
  await writeFilesAtomic(writes);
  const head: Head = {
    version: SNAPSHOT_VERSION,
    ...(snap.aliases === undefined ? {} : { aliases: snap.aliases }),
    ...(snap.asOf === undefined ? {} : { asOf: snap.asOf }),
    ...(snap.core === undefined ? {} : { core: snap.core }),
    parts: named,
  };
  await writeFileAtomic(file, JSON.stringify(head));
  // Parts no head names any more (an earlier version's single file is the head itself, rewritten above).
  const live = new Set(named.map((p) => p.file));
  for (const name of await readdir(dir).catch(() => [] as string[]))
    if (/^facts-.+\.json$/.test(name) && !live.has(name)) await rm(path.join(dir, name), { force: true });
}

/** Keys appear in `order`'s order, each in one run (so splitting and concatenating keeps the list as it was). */
function inOrder(keys: readonly string[], order: readonly string[]): boolean {
  const rank = new Map(order.map((k, i) => [k, i]));
  let at = 0;
  for (const k of keys) {
    const r = rank.get(k)!;
    if (r < at) return false;
    at = r;
  }
  return true;
}
