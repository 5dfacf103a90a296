import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { logDate } from "../markdown/log-path.js";
import { type Opinion, parseOpinion } from "../markdown/opinions.js";
import { ENTITY_DIR } from "../markdown/pages.js";
import { hasManagedRegion, isEdited, readRegions, toLf } from "../markdown/regions.js";
import { entityFileStem } from "../retain/entities.js";
import { type LogInput, readFacts } from "../retain/index.js";
import type { Diagnostic, Fact, LogsRead } from "../retain/types.js";
import { withPath } from "../workspace/errors.js";
import { listMemoryFiles, outsideWorkspace } from "../workspace/files.js";
import { decodeText } from "../workspace/text-file.js";
import type { Workspace } from "../workspace/workspace.js";
import { aliasTable, renamedPages } from "./aliases.js";
import { cmp } from "./format.js";
import { type GarbledLog, garbledNow, type LostLog, lostNow } from "./log-damage.js";
import type { ProseLog } from "./prose.js";
import { scanLogs } from "./prose-logs.js";
import {
  readProseFile,
  readSnapshot,
  type SnapshotPart,
  type SnapshotRead,
  snapshotPath,
  writeSnapshot,
} from "./snapshot.js";

export { type GarbledLog, garbledNow, type LostLog, lostNow } from "./log-damage.js";
export { snapshotPath } from "./snapshot.js";

import type { KeptRegion } from "./opinion-memo.js";
import { readWindowFacts } from "./window.js";

/**
 * The text of a file's bytes: UTF-8 as it is, else as the one decoding home reads it (a
 * MEMORY.md re-saved as UTF-16 or Windows-1252 is its own text, not U+FFFD; text-file.ts).
 */
const fileText = (bytes: Buffer): string => (isUtf8(bytes) ? bytes.toString("utf8") : decodeText(bytes));

/** Read a file, or undefined when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return fileText(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw withPath(error, file);
  }
}

/** readIfExists without the wait: for many small reads in a row (a thread-pool round trip each costs more than the read). */
export function readIfExistsSync(file: string): string | undefined {
  try {
    return fileText(readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw withPath(error, file);
  }
}

/**
 * A workspace file (bank page, MEMORY.md) by its relative path, or undefined when it does
 * not exist or a symlink takes it outside the workspace: the index's rule, so reflect
 * never reads what the index ignores (and writing such a page is refused, see index.ts).
 */
export async function readWorkspaceFile(ws: Workspace, rel: string): Promise<string | undefined> {
  if (outsideWorkspace(ws, rel) !== undefined) return undefined;
  return readIfExists(path.join(ws.root, rel));
}

/** The core memory file, MEMORY.md else memory.md, and its text ("" when there is neither). */
export async function readCoreMemory(ws: Workspace): Promise<{ path: string; text: string }> {
  const text = await readWorkspaceFile(ws, "MEMORY.md");
  if (text !== undefined) return { path: "MEMORY.md", text };
  return { path: "memory.md", text: (await readWorkspaceFile(ws, "memory.md")) ?? "" };
}

/** readWorkspaceFile, synchronously (the same rule for files outside the workspace). */
export function readWorkspaceFileSync(ws: Workspace, rel: string): string | undefined {
  if (outsideWorkspace(ws, rel) !== undefined) return undefined;
  return readIfExistsSync(path.join(ws.root, rel));
}

export interface LoadedFacts {
  facts: Fact[];
  diagnostics: Diagnostic[];
  /** Facts parsed from the logs in this run (all of them in a full run). */
  read: number;
  files: number;
  /** Logs read in this run that have no Retain section. */
  noRetain: string[];
  /** True when an incremental run had no snapshot and read everything. */
  fellBackToFull: boolean;
  /** Incremental only: the previous run's facts dated `since` or later (lines may have gone since). */
  windowBefore: Fact[];
  /** Every page must be rendered (full run, no snapshot, or the aliases changed). */
  renderAll: boolean;
  /** Names in the prose of every log. */
  prose: ProseLog[];
  /** Incremental only: the previous run's scan of the logs dated `since` or later. */
  proseBefore: ProseLog[];
  /** The previous run's date and MEMORY.md text, when a snapshot had them. */
  asOf?: string;
  core?: string;
  /** The previous run's prose-name decisions (name-decisions.ts), when a snapshot had them. */
  names?: string;
  /** Incremental only: the snapshot's files and the window, so its save rewrites only the window's years. */
  kept?: { since: string; parts: SnapshotRead["parts"] };
  /** Old years whose prose was not read (the prose memo has their digests): `prose` lacks them, loadOldProse reads them. */
  unread: SnapshotPart[];
  /** Logs read this run that could not be read as themselves (unreadable, zeroed, an LFS pointer), with why. */
  lostNow: LostLog[];
  /** Logs read this run with lines whose words are not read (bad bytes, zeros: facts there skipped), with the first such line and why. */
  garbledNow: GarbledLog[];
}

/**
 * All facts, for rendering the pages. A full run parses every log. An incremental run
 * (`since`) parses only logs dated `since` or later and takes the older facts from the
 * snapshot the previous run left in .memory/reflect/ (snapshot.ts; derived data: without
 * it, the run reads everything). This is what keeps the nightly run fast on years of
 * logs while giving the same pages as a full run, as long as older logs did not change.
 */
/** Logs a caller already read (the nightly's retain step): readFacts(ws, { since }) as it returned. */
export interface RetainedLogs {
  since?: string;
  read: LogsRead & { logs: LogInput[] };
}

export async function loadFacts(
  ws: Workspace,
  since: string | undefined,
  aliasKey: string,
  retained?: RetainedLogs,
  /** Old years' prose the caller has digests of (prose-memo.ts): not read unless asked for (loadOldProse). */
  proseKnown?: (part: SnapshotPart) => boolean,
): Promise<LoadedFacts> {
  // Only a read of exactly this window stands in for reading the logs again.
  const given = retained !== undefined && retained.since === since ? retained.read : undefined;
  const sinceYear = since?.slice(0, 4);
  const snapshot =
    since === undefined
      ? undefined
      : await readSnapshot(
          ws,
          proseKnown && ((part) => /^\d{4}$/.test(part.key) && part.key < sinceYear! && proseKnown(part)),
        );
  if (since === undefined || snapshot === undefined) {
    const res = since === undefined && given ? given : await readFacts(ws);
    return {
      facts: res.facts,
      diagnostics: res.diagnostics,
      read: res.facts.length,
      files: res.files,
      noRetain: res.noRetain,
      fellBackToFull: since !== undefined,
      windowBefore: [],
      renderAll: true,
      prose: await scanLogs(ws, res.logs),
      proseBefore: [],
      unread: [],
      lostNow: lostNow(res.logs),
      garbledNow: garbledNow(res.logs),
    };
  }
  const fresh = given ?? (await readWindowFacts(ws, since)) ?? (await readFacts(ws, { since }));
  const isOld = (p: string, date?: string) => (date ?? logDate(p) ?? "9999") < since;
  return {
    // readFacts reports duplicate ids, and ids include the date, so old and fresh never overlap.
    facts: [...snapshot.facts.filter((f) => isOld(f.source.path, f.date)), ...fresh.facts],
    diagnostics: [...snapshot.diagnostics.filter((d) => isOld(d.path)), ...fresh.diagnostics],
    read: fresh.facts.length,
    files: fresh.files,
    noRetain: fresh.noRetain,
    fellBackToFull: false,
    windowBefore: snapshot.facts.filter((f) => !isOld(f.source.path, f.date)),
    renderAll: snapshot.aliases !== aliasKey,
    prose: [
      ...snapshot.prose.filter((log) => isOld(log.path, log.date || undefined)),
      ...(await scanLogs(ws, fresh.logs)),
    ],
    proseBefore: snapshot.prose.filter((log) => !isOld(log.path, log.date || undefined)),
    ...(snapshot.asOf === undefined ? {} : { asOf: snapshot.asOf }),
    ...(snapshot.core === undefined ? {} : { core: snapshot.core }),
    ...(snapshot.names === undefined ? {} : { names: snapshot.names }),
    kept: { since, parts: snapshot.parts },
    unread: snapshot.unread,
    lostNow: lostNow(fresh.logs),
    garbledNow: garbledNow(fresh.logs),
  };
}

/** The daily logs the last run read (those with facts or names in their prose), from its snapshot; empty without one. */
export async function snapshotLogs(ws: Workspace): Promise<Set<string>> {
  const snapshot = await readSnapshot(ws);
  return logPaths(snapshot?.facts ?? [], snapshot?.prose ?? []);
}

/** The log paths of facts and prose scans. */
export function logPaths(facts: readonly Fact[], prose: readonly ProseLog[]): Set<string> {
  const out = new Set<string>();
  for (const f of facts) out.add(f.source.path);
  for (const log of prose) out.add(log.path);
  return out;
}

/**
 * The prose of the old years loadFacts did not read (`unread`), as the snapshot holds it: from
 * their files, or, when one is gone or corrupt, scanned again from those years' logs (which an
 * incremental run takes to be unchanged, as it does their facts).
 */
export async function loadOldProse(ws: Workspace, unread: readonly SnapshotPart[]): Promise<ProseLog[]> {
  const dir = path.dirname(snapshotPath(ws));
  const out: ProseLog[] = [];
  for (const part of unread) {
    const prose = part.prose && (await readProseFile(dir, part.prose));
    if (prose === undefined) return scanYears(ws, new Set(unread.map((p) => p.key)));
    for (const p of prose) out.push(p);
  }
  return out;
}

async function scanYears(ws: Workspace, years: ReadonlySet<string>): Promise<ProseLog[]> {
  const logs = (await readFacts(ws)).logs.filter((l) => years.has((logDate(l.path) ?? "").slice(0, 4)));
  // As saveSnapshot keeps them: one entry per log, logs with no names left out.
  const byPath = new Map<string, ProseLog>();
  for (const log of await scanLogs(ws, logs)) if (log.lines.length) byPath.set(log.path, log);
  return [...byPath.values()];
}

export async function saveSnapshot(
  ws: Workspace,
  loaded: Pick<LoadedFacts, "facts" | "diagnostics" | "kept" | "unread">,
  aliasKey: string,
  extra: { prose: readonly ProseLog[]; asOf: string; core: string; names: string },
): Promise<SnapshotPart[]> {
  // One entry per log, the last scan of it in the first one's place (as a record of paths keeps them).
  const byPath = new Map<string, ProseLog>();
  for (const log of extra.prose) if (log.lines.length) byPath.set(log.path, log);
  const prose = [...byPath.values()];
  return writeSnapshot(
    ws,
    {
      aliases: aliasKey,
      facts: loaded.facts,
      diagnostics: loaded.diagnostics,
      prose,
      asOf: extra.asOf,
      core: extra.core,
      names: extra.names,
    },
    loaded.kept,
    () => loadOldProse(ws, loaded.unread),
  );
}

export interface EntityPages {
  /** Existing page texts by slug. */
  texts: Map<string, string>;
  /** Lower-cased alias (or slug) -> page slug. */
  aliases: Map<string, string>;
  /** Alias declarations that were ignored (cycles), `path:line: reason`. */
  diagnostics: Diagnostic[];
  /**
   * Slugs of the pages membank wrote (they hold its regions), aliases excluded: such a page
   * stays an entity when the logs no longer name it often enough (a log was deleted), so it
   * is re-rendered without what is gone, never left citing a deleted line.
   */
  managed: string[];
  /** Pages renamed by hand that this run follows for the first time (README "bank"). */
  notes: string[];
  /**
   * Pages whose file name is decomposed on disk (NFD: `Zoe\u0308.md`, as an old Mac's sync
   * leaves it), by the path membank spells (NFC) -> the path on disk: written where they are.
   */
  onDisk: Map<string, string>;
}

/** Pages at the path their file has on disk (EntityPages.onDisk), not a twin that looks the same. */
export function pagesOnDisk<P extends { path: string }>(pages: P[], onDisk: ReadonlyMap<string, string>): P[] {
  if (onDisk.size === 0) return pages;
  return pages.map((p) => {
    const real = onDisk.get(p.path);
    return real === undefined ? p : { ...p, path: real };
  });
}

/**
 * Existing entity pages and the aliases their front matter declares: the pages of the one
 * listing (scanMemoryFiles), so a link out of the workspace is never read.
 */
export async function loadEntityPages(ws: Workspace): Promise<EntityPages> {
  const files = (await listMemoryFiles(ws, { under: ENTITY_DIR }))
    .filter((f) => f.path.endsWith(".md") && !f.path.slice(ENTITY_DIR.length + 1).includes("/"))
    .sort((a, b) => cmp(a.path, b.path));
  const texts = new Map<string, string>();
  const pages: { slug: string; path: string; text: string }[] = [];
  const onDisk = new Map<string, string>();
  const names = new Set(files.map((f) => f.path));
  // Read 32 at a time (hundreds of pages on a busy disk; not thousands of open files at once), kept in path order.
  const read: string[] = [];
  for (let i = 0; i < files.length; i += 32)
    read.push(...(await Promise.all(files.slice(i, i + 32).map((file) => readFile(file.absPath, "utf8")))));
  files.forEach((file, i) => {
    let slug = path.posix.basename(file.path, ".md");
    // Names are compared in NFC: a decomposed name is the page of its entity (unless a page spelled in NFC is there too).
    const nfc = `${ENTITY_DIR}/${slug.normalize("NFC")}.md`;
    if (nfc !== file.path && !names.has(nfc)) {
      slug = slug.normalize("NFC");
      onDisk.set(nfc, file.path);
    }
    texts.set(slug, read[i]!);
    pages.push({ slug, path: file.path, text: read[i]! });
  });
  const table = aliasTable(pages);
  const managed = pages
    .filter((p) => hasManagedRegion(p.text) && !table.aliases.has(p.slug.toLowerCase()))
    .map((p) => p.slug);
  // A page renamed by hand keeps its entity: the old name is an alias of it (aliases.ts).
  const notes: string[] = [];
  for (const r of renamedPages(pages, table.aliases)) {
    table.aliases.set(r.from.toLowerCase(), r.slug);
    if (r.fresh)
      notes.push(
        `${r.path}: renamed from ${ENTITY_DIR}/${entityFileStem(r.from)}.md (its title is "# ${r.from}"): @${r.from} is filed under it from now on; to undo, rename it back`,
      );
  }
  return { texts, ...table, managed, notes, onDisk };
}

/** A stable key of an alias table, to notice when it changed. */
export function aliasKey(aliases: Map<string, string>): string {
  return JSON.stringify([...aliases].sort((a, b) => cmp(a[0], b[0])));
}

/** Map every fact's entities through the alias table (deduplicated, order kept). */
export function applyAliases(facts: Fact[], aliases: Map<string, string>): Fact[] {
  if (aliases.size === 0) return facts;
  return facts.map((f) => {
    const mapped = [...new Set(f.entities.map((e) => aliases.get(e.toLowerCase()) ?? e))];
    return mapped.length === f.entities.length && mapped.every((e, i) => e === f.entities[i])
      ? f
      : { ...f, entities: mapped };
  });
}

export interface LoadedOpinions {
  text?: string;
  opinions: Opinion[];
  /** Regions a person edited that parse: their values are taken as the new state. */
  adopted: string[];
  /** Regions that do not parse: kept as they are, never re-created. */
  broken: { region: string; reason: string }[];
  /** Opinion regions as membank wrote them (unedited, with a hash), by id: the opinion memo reuses them. */
  kept: Map<string, KeptRegion>;
}

/** `read`: the bank pages as this run already read them (restored.ts checkPutBack), absent = no such page. */
export async function loadOpinions(
  ws: Workspace,
  rel: string,
  read?: ReadonlyMap<string, string>,
): Promise<LoadedOpinions> {
  const text = read ? read.get(rel) : await readWorkspaceFile(ws, rel);
  const out: LoadedOpinions = { opinions: [], adopted: [], broken: [], kept: new Map() };
  if (text === undefined) return out;
  out.text = text;
  for (const region of readRegions(text, rel)) {
    if (!region.name.startsWith("op-")) continue;
    const body = toLf(region.body);
    const parsed = parseOpinion(region.name, body);
    if (typeof parsed === "string") {
      out.broken.push({ region: region.name, reason: parsed });
      continue;
    }
    parsed.id = region.name; // the region name is the identity; an edited id line cannot fork it
    out.opinions.push(parsed);
    if (isEdited(region)) out.adopted.push(region.name);
    else if (region.sha !== undefined) out.kept.set(region.name, { body, sha: region.sha });
  }
  return out;
}
