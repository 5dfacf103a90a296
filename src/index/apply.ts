import { createHash } from "node:crypto";
import { logDate } from "../markdown/log-path.js";
import { entitySlugFromPagePath, OPINIONS_PAGE } from "../markdown/pages.js";
import { userProfileForIndex } from "../markdown/user-profile.js";
import type { RetainResult } from "../retain/types.js";
import { type MemoryFile, USER_PROFILE_FILE } from "../workspace/files.js";
import {
  fileWaits,
  MAX_MEMORY_FILE_BYTES,
  type MemoryText,
  memoryTextProblems,
  readMemoryText,
  readMemoryTextSync,
  SETTLE_MS,
} from "../workspace/text-file.js";
import { type ChunkOptions, chunkMarkdown } from "./chunk.js";
import { syncFileChunks, textOfChunks } from "./chunk-rows.js";
import type { IndexDb } from "./db.js";
import { parseEntityPage } from "./entity-page.js";
import { beginFtsBatch, type FtsBatch } from "./fts-batch.js";
import { syncFileLines } from "./line-sync.js";
import { dropFileLines, type LineTally, refreshLineStats } from "./lines.js";
import { removeOpinions, storeOpinions } from "./opinions.js";
import { deleteVectors } from "./vectors.js";

/** The Retain parser (src/retain parseRetain), passed in so it is loaded only when a daily log changed. */
export type RetainParser = (
  path: string,
  text: string,
  opts: { defaultConfidence?: number; invalidLines?: readonly number[] },
) => RetainResult;

export interface ApplyOptions {
  chunk: ChunkOptions;
  /** Required when any daily log may have changed (see dailyLogsMayHaveChanged). */
  parseRetain?: RetainParser;
  defaultConfidence: number;
  onProgress?: (done: number, total: number) => void;
  /** knownFiles(idx), if the caller already read it; applyFiles consumes (empties) it. */
  known?: KnownFiles;
  /** The index is a fresh, empty build (beginBulkLoad): no file has rows to look up or replace. */
  fresh?: boolean;
  /** Files the caller read already (readRecentFiles), by path: used instead of a read in the transaction. */
  readAhead?: ReadonlyMap<string, MemoryText>;
  /** Paths not listed but not deleted (evicted to the cloud): their rows stay as last read. */
  keep?: ReadonlySet<string>;
}

export interface ApplyResult {
  scanned: number;
  changed: number;
  removed: number;
  /** Retain lines that did not parse, in changed files (the retain module reports them in full). */
  diagnostics: number;
  /** Files left out of the index, `path: reason` (over the size limit). */
  skipped: string[];
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export type KnownFiles = Map<string, { hash: string; mtime_ms: number; size: number }>;

/** What the index knows of each file (read once per sync: it is most of a no-change sync's SQL). */
export function knownFiles(idx: IndexDb): KnownFiles {
  // Rows as arrays: 3,700 objects with their keys cost about twice the time to read.
  const rows = idx.db.prepare("SELECT path, hash, mtime_ms, size FROM files").raw(true).all() as [
    string,
    string,
    number,
    number,
  ][];
  const known: KnownFiles = new Map();
  for (const [path, hash, mtime_ms, size] of rows) known.set(path, { hash, mtime_ms, size });
  return known;
}

/** Must the file be read again? (New to the index, or its size or mtime changed; then its hash decides.) */
export function needsReading(known: { size: number; mtime_ms: number } | undefined, f: MemoryFile): boolean {
  return !known || known.size !== f.size || known.mtime_ms !== f.mtimeMs;
}

/**
 * The files to read that were written less than SETTLE_MS ago, read as retain reads them
 * (readMemoryText: a last line still being written is waited for), before applyFiles' transaction,
 * which cannot wait: else a half-written line sat in the index until the file's next change.
 * Older files are read in the transaction (no wait would apply to them). A file gone is left to it.
 */
export async function readRecentFiles(
  known: KnownFiles,
  files: readonly MemoryFile[],
): Promise<Map<string, MemoryText>> {
  const now = fileWaits.now();
  const recent = files.filter(
    (f) => now - f.mtimeMs < SETTLE_MS && f.size <= MAX_MEMORY_FILE_BYTES && needsReading(known.get(f.path), f),
  );
  const out = new Map<string, MemoryText>();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(16, recent.length) }, async () => {
      while (next < recent.length) {
        const f = recent[next++]!;
        const read = await readMemoryText(f.absPath).catch(() => undefined);
        if (read !== undefined) out.set(f.path, read);
      }
    }),
  );
  return out;
}

/** Could applyFiles need the Retain parser? (A daily log needs reading.) */
export function dailyLogsMayHaveChanged(known: KnownFiles, files: MemoryFile[]): boolean {
  // The map lookup first: the date rule is a regular expression and a Date per path.
  return files.some((f) => needsReading(known.get(f.path), f) && logDate(f.path) !== undefined);
}

/**
 * Bring the index's file-derived tables in line with `files`, in one transaction (a
 * reader sees the old or the new state, never a mix). Unchanged files cost a comparison
 * of size and mtime; when those differ the file is hashed, and re-indexed only if the
 * hash changed. Files no longer listed are removed with everything derived from them.
 */
export function applyFiles(idx: IndexDb, files: MemoryFile[], opts: ApplyOptions): ApplyResult {
  const db = idx.db;
  const known = opts.known ?? knownFiles(idx);

  const touchFile = db.prepare("UPDATE files SET mtime_ms = ?, size = ? WHERE path = ?");
  const insertFile = db.prepare(
    "INSERT OR REPLACE INTO files(path, hash, mtime_ms, size, date) VALUES (?, ?, ?, ?, ?)",
  );
  const insertFact = db.prepare(
    "INSERT INTO facts(id, kind, content, date, valid_from, valid_to, confidence, path, line, extracted) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertFactEntity = db.prepare("INSERT OR IGNORE INTO fact_entities(fact, entity, pos) VALUES (?, ?, ?)");
  const upsertPage = db.prepare(
    "INSERT INTO entities(slug, name, aliases, page, facts) VALUES (?, ?, ?, ?, 0) " +
      "ON CONFLICT(slug) DO UPDATE SET name = excluded.name, aliases = excluded.aliases, page = excluded.page",
  );

  // Started at the first file that changes (a no-change sync writes nothing); see fts-batch.ts.
  let batch: FtsBatch | undefined;
  const fts = () => {
    batch ??= beginFtsBatch(db);
    return batch;
  };
  const idsOf = (sql: string, rel: string) => db.prepare(sql).pluck().all(rel) as number[];
  /** Lines and words the sync adds and removes (the store's totals move by it: lines.ts). */
  const tally: LineTally = { lines: 0, ntok: 0 };
  /** Entities that gained or lost a fact link: only their counts can move (refreshEntities). */
  const touched = new Set<string>();

  /**
   * Everything derived from `rel`; its chunks and lines too unless the caller re-syncs them
   * (a changed file: rows whose text is unchanged are kept, see chunk-rows.ts and lines.ts).
   */
  function removePath(rel: string, changed = false): void {
    if (!changed) {
      const ids = idsOf("SELECT id FROM chunks WHERE path = ?", rel);
      deleteVectors(idx, ids);
      fts().deleting("chunks", ids);
      db.prepare("DELETE FROM chunks WHERE path = ?").run(rel);
    }
    const links = "FROM fact_entities WHERE fact IN (SELECT rid FROM facts WHERE path = ?)";
    for (const e of db.prepare(`SELECT DISTINCT entity ${links}`).pluck().all(rel) as string[]) touched.add(e);
    db.prepare(`DELETE ${links}`).run(rel);
    fts().deleting("facts", idsOf("SELECT rid FROM facts WHERE path = ?", rel));
    db.prepare("DELETE FROM facts WHERE path = ?").run(rel);
    if (!changed) {
      for (const ntok of dropFileLines(db, rel, fts())) {
        tally.lines--;
        tally.ntok -= ntok;
      }
    }
    db.prepare("UPDATE entities SET page = NULL, aliases = '[]', name = slug WHERE page = ?").run(rel);
    // A changed opinions page keeps the rows of its unchanged opinions (storeOpinions).
    if (rel === OPINIONS_PAGE && !changed) removeOpinions(db, rel);
    db.prepare("DELETE FROM files WHERE path = ?").run(rel);
  }

  let diagnostics = 0;
  /** `isNew`: the index holds no rows of this file (nothing to keep or look up); `oldHash`: its stored hash. */
  function addFile(
    f: MemoryFile,
    text: string,
    hash: string,
    invalidLines: readonly number[],
    isNew: boolean,
    oldHash?: string,
  ): void {
    const date = logDate(f.path) ?? null;
    insertFile.run(f.path, hash, f.mtimeMs, f.size, date);
    // The profile's template text, placeholders and superseded entries are not the user's: blank for the index.
    const indexed = f.path === USER_PROFILE_FILE ? userProfileForIndex(text) : text;
    const oldChunks = syncFileChunks(idx, f.path, date, chunkMarkdown(indexed, opts.chunk), fts(), { fresh: isNew });
    // The file's text at its last sync, when its chunks give it back exactly (the line store then reads few rows).
    let oldText = isNew || oldHash === undefined ? undefined : textOfChunks(oldChunks, date);
    if (oldText !== undefined && sha256(oldText) !== oldHash) oldText = undefined;
    // Recall's line store: every non-blank line, numbered as in the file.
    syncFileLines(db, f.path, date, indexed, fts(), {
      fresh: opts.fresh ?? false,
      tally,
      ...(oldText === undefined ? {} : { oldText }),
    });
    if (date !== null) {
      if (!opts.parseRetain) throw new Error("applyFiles: a daily log changed but no Retain parser was given");
      const retained = opts.parseRetain(f.path, text, { defaultConfidence: opts.defaultConfidence, invalidLines });
      diagnostics += retained.diagnostics.length;
      for (const fact of retained.facts) {
        const { lastInsertRowid } = insertFact.run(
          fact.id,
          fact.kind,
          fact.content,
          fact.date,
          fact.validFrom ?? null,
          fact.validTo ?? null,
          fact.confidence ?? null,
          fact.source.path,
          fact.source.line,
          fact.extracted ? 1 : 0,
        );
        fts().inserted("facts", lastInsertRowid);
        for (const [pos, e] of fact.entities.entries()) {
          insertFactEntity.run(lastInsertRowid, e, pos);
          touched.add(e);
        }
      }
    }
    // The old text: only the opinions whose regions changed are read and written again.
    if (f.path === OPINIONS_PAGE) storeOpinions(db, f.path, text, oldText);
    const slug = entitySlugFromPagePath(f.path);
    if (slug !== undefined) {
      const page = parseEntityPage(slug, text);
      upsertPage.run(page.slug, page.name, JSON.stringify(page.aliases), f.path);
    }
  }

  let changed = 0;
  let removed = 0;
  const skipped: string[] = [];
  db.transaction(() => {
    files.forEach((f, i) => {
      opts.onProgress?.(i, files.length);
      const prev = known.get(f.path);
      known.delete(f.path);
      if (!needsReading(prev, f)) return;
      let read: MemoryText | undefined;
      try {
        // Over the limit by the listing's size: not opened, so a search never re-reads it.
        read =
          f.size > MAX_MEMORY_FILE_BYTES
            ? { text: "", tooLarge: f.size }
            : (opts.readAhead?.get(f.path) ?? readMemoryTextSync(f.absPath));
      } catch {
        read = undefined; // vanished between listing and reading
      }
      if (read?.tooLarge !== undefined) skipped.push(`${f.path}: ${memoryTextProblems(read)[0]!.reason}`);
      if (read === undefined || read.tooLarge !== undefined) {
        // Not readable (or no longer): treat as deleted.
        if (prev) {
          removePath(f.path);
          removed++;
        }
        return;
      }
      const text = read.text;
      const hash = sha256(text);
      if (prev && prev.hash === hash) {
        touchFile.run(f.mtimeMs, f.size, f.path);
        return;
      }
      if (prev) removePath(f.path, true);
      addFile(f, text, hash, read.invalid?.lines ?? [], opts.fresh === true || prev === undefined, prev?.hash);
      changed++;
    });
    for (const rel of known.keys()) {
      if (opts.keep?.has(rel)) continue;
      removePath(rel);
      removed++;
    }
    batch?.finish();
    if (changed > 0 || removed > 0) {
      refreshEntities(idx, touched);
      refreshLineStats(idx, tally);
    }
  }).immediate();
  opts.onProgress?.(files.length, files.length);
  return { scanned: files.length, changed, removed, diagnostics, skipped };
}

/**
 * Recount the facts of the entities in `touched`; drop entities with neither facts nor a page.
 * Only links of the synced files were added or removed, so every other entity's count is still
 * right: a full recount (a GROUP BY over every link, ~25k on 10 years, and a write of every
 * entity row) was ~12-60 ms of a nightly that touched a handful of entities.
 */
function refreshEntities(idx: IndexDb, touched: ReadonlySet<string>): void {
  const db = idx.db;
  if (touched.size > 0) {
    const slugs = JSON.stringify([...touched]);
    db.prepare("UPDATE entities SET facts = 0 WHERE slug IN (SELECT value FROM json_each(?))").run(slugs);
    db.prepare(
      "INSERT INTO entities(slug, name, aliases, page, facts) " +
        "SELECT entity, entity, '[]', NULL, count(*) FROM fact_entities " +
        "WHERE entity IN (SELECT value FROM json_each(?)) GROUP BY entity " +
        "ON CONFLICT(slug) DO UPDATE SET facts = excluded.facts",
    ).run(slugs);
  }
  db.exec("DELETE FROM entities WHERE facts = 0 AND page IS NULL");
}
