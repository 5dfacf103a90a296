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
 *
 * A year's prose names are a file of their own (`facts-<year>-prose-<hash>.json`), listed in
 * the head with their extent: an incremental run whose prose memo already has a year's digest
 * (prose-memo.ts) does not read that year's prose at all (a third of the bytes, 8 MB of heap on
 * ten years), see readSnapshot's `skipProse` and loadOldProse in load.ts.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import type { Diagnostic, Fact } from "../retain/types.js";
import { writeFileAtomic, writeFilesAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { derivingCode } from "./code-fingerprint.js";
import { cmp } from "./format.js";
import type { ProseLog } from "./prose.js";

// 2: prose names per log, the run's date and MEMORY.md's text (the entity pages show them).
// 3: opinion facts say when their c= is the default (Fact.defaultConfidence).
// 4: one file per year of logs, listed by a head.
// 5: a part's prose is a list of logs with their dates (what load.ts uses, as JSON.parse gives it: no pass over
//    3,650 paths to re-derive their dates). JSON.parse is native; a JS decoder of a leaner layout is slower on the
//    nightly's one cold pass.
// 6: a part's prose in a file of its own, with its extent in the head (ProseFile).
const SNAPSHOT_VERSION = 6;
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
  /** The prose names' decisions the pages were rendered with (name-decisions.ts): a change re-renders the pages it moves. */
  names?: string;
}

/** A part's prose file and what it holds: its logs' count and first and last path (path order). */
export interface ProseFile {
  file: string;
  logs: number;
  first: string;
  last: string;
}

/** A part as the head lists it: its facts and diagnostics file, its prose file when it has prose. */
export interface SnapshotPart {
  key: string;
  file: string;
  prose?: ProseFile;
}

interface Head {
  version: number;
  /**
   * The code that parsed the facts and scanned the prose (code-fingerprint.ts): a membank whose
   * parsing rules changed (an upgrade) reads every log once, so old and new facts never mix and
   * the pages show what the new rules read.
   */
  code?: string;
  aliases?: string;
  asOf?: string;
  core?: string;
  names?: string;
  /** Part files in order: the facts, diagnostics and prose are these parts' lists concatenated. */
  parts: SnapshotPart[];
}

/** What an incremental run's load (load.ts) tells the save: the files the head named, and the run's window. */
export interface SnapshotRead extends Snapshot {
  parts: SnapshotPart[];
  /** Parts whose prose was not read (`skipProse`): `prose` lacks their logs. */
  unread: SnapshotPart[];
}

/**
 * The part a fact, diagnostic or log belongs to: its log's year (the date load.ts
 * compares with `since`), "other" for a path without a date.
 */
const partKey = (p: string, date?: string): string => {
  const d = date ?? logDate(p);
  return d !== undefined && /^\d{4}-/.test(d) ? d.slice(0, 4) : "other";
};

/**
 * The snapshot, or undefined when there is none, it is of another version, or a file is missing or corrupt.
 * `skipProse`: parts whose prose the caller does not need (their file is only checked to exist).
 */
export async function readSnapshot(
  ws: Workspace,
  skipProse?: (part: SnapshotPart) => boolean,
): Promise<SnapshotRead | undefined> {
  const dir = path.dirname(snapshotPath(ws));
  try {
    const head = JSON.parse(await readText(snapshotPath(ws))) as Head;
    if (head.version !== SNAPSHOT_VERSION || !Array.isArray(head.parts) || !head.parts.every(validPart))
      return undefined;
    if (head.code !== (await derivingCode())) return undefined;
    const out: SnapshotRead = {
      facts: [],
      diagnostics: [],
      prose: [],
      parts: head.parts,
      unread: [],
      ...(head.aliases === undefined ? {} : { aliases: head.aliases }),
      ...(head.asOf === undefined ? {} : { asOf: head.asOf }),
      ...(head.core === undefined ? {} : { core: head.core }),
      ...(head.names === undefined ? {} : { names: head.names }),
    };
    for (const part of head.parts) {
      const data = JSON.parse(await readText(path.join(dir, part.file))) as Snapshot;
      if (!Array.isArray(data.facts) || !Array.isArray(data.diagnostics)) return undefined;
      for (const f of data.facts) out.facts.push(f);
      for (const d of data.diagnostics) out.diagnostics.push(d);
      if (part.prose === undefined) continue;
      if (skipProse?.(part)) {
        await stat(path.join(dir, part.prose.file)); // (a missing file: not trusted, as any other)
        out.unread.push(part);
        continue;
      }
      const prose = await readProseFile(dir, part.prose);
      if (prose === undefined) return undefined;
      for (const p of prose) out.prose.push(p);
    }
    return out;
  } catch {
    return undefined; // missing or corrupt derived data: rebuilt from the logs
  }
}

const validPart = (p: SnapshotPart | null): boolean =>
  typeof p?.key === "string" &&
  typeof p.file === "string" &&
  (p.prose === undefined ||
    (typeof p.prose.file === "string" &&
      typeof p.prose.logs === "number" &&
      typeof p.prose.first === "string" &&
      typeof p.prose.last === "string"));

/** A part's prose file, or undefined when it is missing, corrupt or not the extent the head says. */
export async function readProseFile(dir: string, file: ProseFile): Promise<ProseLog[] | undefined> {
  try {
    const prose = JSON.parse(await readText(path.join(dir, file.file))) as ProseLog[];
    if (!Array.isArray(prose) || prose.length !== file.logs) return undefined;
    if (!prose.every((p) => typeof p?.path === "string" && typeof p.date === "string" && Array.isArray(p.lines)))
      return undefined;
    return prose;
  } catch {
    return undefined;
  }
}

const readText = (file: string) => readFile(file, "utf8");

/**
 * Save the snapshot. `kept`: the parts read at the start of an incremental run and its
 * `since`; a year wholly before `since` holds exactly the facts read from its part, so that
 * file is named again, not rewritten, and so is its prose file (whose logs `snap.prose` may
 * lack: readSnapshot's `unread`). The lists must be grouped by year (the logs are read in path
 * order); when they are not, everything goes in one part, as correct and as slow as before
 * (the caller then passes every log's prose). Returns the parts the head names.
 */
export async function writeSnapshot(
  ws: Workspace,
  snap: Snapshot,
  kept?: { since: string; parts: readonly SnapshotPart[] },
  unread?: () => Promise<ProseLog[]>,
): Promise<SnapshotPart[]> {
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
  if (!grouped) parts.set("all", { ...snap, prose: [...((await unread?.()) ?? []), ...snap.prose] });

  const sinceYear = kept?.since.slice(0, 4);
  const keptOld = (key: string) => sinceYear !== undefined && /^\d{4}$/.test(key) && key < sinceYear;
  const before = new Map((kept?.parts ?? []).map((p) => [p.key, p]));
  if (grouped) {
    // An old year with prose only (no fact, no diagnostic) whose prose was not read: in its place.
    const rank = new Map((kept?.parts ?? []).map((p, i) => [p.key, i]));
    for (const p of kept?.parts ?? []) {
      if (!keptOld(p.key) || list.includes(p.key)) continue;
      const at = list.findIndex((k) => (rank.get(k) ?? Number.POSITIVE_INFINITY) > rank.get(p.key)!);
      list.splice(at === -1 ? list.length : at, 0, p.key);
    }
  }
  const named: SnapshotPart[] = [];
  const writes: { file: string; content: string }[] = [];
  const write = (name: string, text: string, old: string | undefined) => {
    if (name !== old) writes.push({ file: path.join(dir, name), content: text });
  };
  for (const key of list) {
    const old = before.get(key);
    if (old !== undefined && keptOld(key)) {
      named.push(old);
      continue;
    }
    const { facts, diagnostics, prose } = parts.get(key)!;
    const text = JSON.stringify({ facts, diagnostics });
    const name = `facts-${key}-${hash(text)}.json`;
    write(name, text, old?.file);
    const part: SnapshotPart = { key, file: name };
    if (prose.length > 0) {
      const proseText = JSON.stringify(prose);
      const proseName = `facts-${key}-prose-${hash(proseText)}.json`;
      write(proseName, proseText, old?.prose?.file);
      const paths = prose.map((p) => p.path).sort(cmp);
      part.prose = { file: proseName, logs: prose.length, first: paths[0]!, last: paths[paths.length - 1]! };
    }
    named.push(part);
  }
  await writeFilesAtomic(writes);
  const head: Head = {
    version: SNAPSHOT_VERSION,
    code: await derivingCode(),
    ...(snap.aliases === undefined ? {} : { aliases: snap.aliases }),
    ...(snap.asOf === undefined ? {} : { asOf: snap.asOf }),
    ...(snap.core === undefined ? {} : { core: snap.core }),
    ...(snap.names === undefined ? {} : { names: snap.names }),
    parts: named,
  };
  await writeFileAtomic(file, JSON.stringify(head));
  // Parts no head names any more (an earlier version's single file is the head itself, rewritten above).
  const live = new Set(named.flatMap((p) => (p.prose ? [p.file, p.prose.file] : [p.file])));
  for (const name of await readdir(dir).catch(() => [] as string[]))
    if (/^facts-.+\.json$/.test(name) && !live.has(name)) await rm(path.join(dir, name), { force: true });
  return named;
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

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
