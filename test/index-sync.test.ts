import { appendFileSync, existsSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { rename, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeIndexes,
  factById,
  factsByEntity,
  factsInWindow,
  indexFile,
  listEntities,
  openIndex,
  readLines,
  SCHEMA_VERSION,
  syncIndex,
} from "../src/index/index.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { hashEmbedder, makeWorkspace } from "./index-support.js";

const DAY1 = `# 2025-11-27

## Notes

Went to Marrakech. The LEDGER_SYNC_BATCH=500 setting fixed the backlog.

## Retain

- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.
- O(c=0.9) @Peter: Prefers concise replies on WhatsApp.
- S: Busy travel week.
`;

const DAY2 = `# 2025-11-28

## Retain

- B @warelay: I fixed the Baileys WS crash by wrapping handlers in try/catch.
- W @Peter @Andy: Andy turned 40.
`;

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const ws of workspaces) rmSync(ws.root, { recursive: true, force: true });
  workspaces = [];
});

let clockTick = 0;

async function ws(files: Record<string, string>, cfg?: Parameters<typeof makeWorkspace>[1]): Promise<Workspace> {
  const w = await makeWorkspace(files, cfg);
  workspaces.push(w);
  return w;
}

function paths(w: Workspace): string[] {
  const idx = openIndex(w);
  try {
    return (idx.db.prepare("SELECT DISTINCT path FROM chunks ORDER BY path").all() as { path: string }[]).map(
      (r) => r.path,
    );
  } finally {
    idx.close();
  }
}

describe("syncIndex", () => {
  it("indexes files, chunks, facts and entities; a second sync changes nothing", async () => {
    const w = await ws({
      "MEMORY.md": "# Core\n\nPeter lives in Vienna.\n",
      "memory/2025-11-27.md": DAY1,
      "memory/2025-11-28.md": DAY2,
      "bank/entities/Peter.md": "---\nname: Peter Steinberger\naliases: [Pete, steipete]\n---\n# Peter\n",
      "notes.md": "not a memory file\n",
    });
    const first = await syncIndex(w);
    expect(first).toMatchObject({ rebuilt: true, reason: "new index", scanned: 4, changed: 4, removed: 0, facts: 5 });
    expect(first.chunks).toBeGreaterThanOrEqual(4);
    expect(paths(w)).toEqual(["MEMORY.md", "bank/entities/Peter.md", "memory/2025-11-27.md", "memory/2025-11-28.md"]);

    const idx = openIndex(w);
    try {
      const peter = factsByEntity(idx, ["peter"]);
      expect(peter.map((f) => f.content)).toEqual([
        "Andy turned 40.",
        "Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
        "Prefers concise replies on WhatsApp.",
      ]);
      expect(peter[0]!.entities).toEqual(["Peter", "Andy"]);
      const opinion = peter.find((f) => f.kind === "opinion")!;
      expect(opinion).toMatchObject({ confidence: 0.9, path: "memory/2025-11-27.md", line: 10, date: "2025-11-27" });
      expect(factById(idx, opinion.id)?.content).toBe("Prefers concise replies on WhatsApp.");
      // The Marrakech fact's validity (Nov 27 – Dec 1) overlaps a window that starts after its log date.
      const window = factsInWindow(idx, "2025-11-30", "2025-12-05");
      expect(window.map((f) => f.content)).toEqual([
        "Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
      ]);
      const entities = listEntities(idx);
      expect(entities.find((e) => e.slug === "Peter")).toEqual({
        slug: "Peter",
        name: "Peter Steinberger",
        aliases: ["Pete", "steipete"],
        page: "bank/entities/Peter.md",
        facts: 3,
      });
      expect(entities.map((e) => e.slug)).toEqual(["Andy", "Peter", "warelay"]);
    } finally {
      idx.close();
    }

    closeIndexes();
    const bytes = readFileSync(indexFile(w));
    const second = await syncIndex(w);
    expect(second).toMatchObject({ rebuilt: false, scanned: 4, changed: 0, removed: 0, embedded: 0 });
    closeIndexes();
    expect(readFileSync(indexFile(w)).equals(bytes)).toBe(true);
  });

  it("re-indexes an edited file, drops a deleted one, follows a rename", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1, "memory/2025-11-28.md": DAY2 });
    await syncIndex(w);

    appendFileSync(path.join(w.root, "memory/2025-11-28.md"), "- W @Mara: Mara joined the platform team.\n");
    const edited = await syncIndex(w);
    expect(edited).toMatchObject({ changed: 1, removed: 0, facts: 6 });
    const idx = openIndex(w);
    expect(factsByEntity(idx, ["Mara"]).map((f) => f.line)).toEqual([7]);
    idx.close();

    await rm(path.join(w.root, "memory/2025-11-27.md"));
    const deleted = await syncIndex(w);
    expect(deleted).toMatchObject({ changed: 0, removed: 1, facts: 3 });
    expect(paths(w)).toEqual(["memory/2025-11-28.md"]);

    await rename(path.join(w.root, "memory/2025-11-28.md"), path.join(w.root, "memory/2025-11-29.md"));
    const renamed = await syncIndex(w);
    expect(renamed).toMatchObject({ changed: 1, removed: 1, facts: 3 });
    expect(paths(w)).toEqual(["memory/2025-11-29.md"]);
    const after = openIndex(w);
    // The date comes from the new name.
    expect(factsByEntity(after, ["warelay"])[0]?.date).toBe("2025-11-29");
    expect(listEntities(after).map((e) => e.slug)).toEqual(["Andy", "Mara", "Peter", "warelay"]);
    after.close();
  });

  it("hashes only files whose size or mtime changed, and skips those whose content did not", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1 });
    await syncIndex(w);
    const file = path.join(w.root, "memory/2025-11-27.md");
    const later = new Date(statSync(file).mtimeMs + 10_000);
    await utimes(file, later, later);
    const touched = await syncIndex(w);
    expect(touched).toMatchObject({ changed: 0, removed: 0 });
    const again = await syncIndex(w);
    expect(again).toMatchObject({ changed: 0 });
  });

  it("rebuilds into a new file and swaps it in when the chunk size changes", async () => {
    const long = Array.from({ length: 120 }, (_, i) => `- line ${i} about the ledger sync backlog and retries`).join(
      "\n",
    );
    const w = await ws({ "memory/2025-11-27.md": `# Day\n\n${long}\n` });
    const first = await syncIndex(w);
    // Another process reading the index all along (it keeps its connection open).
    const reader = new Database(indexFile(w));
    const count = () => reader.prepare("SELECT count(*) FROM chunks").pluck().get();
    expect(count()).toBe(first.chunks);
    w.config.index.chunkTokens = 100;
    w.config.index.chunkOverlap = 10;
    const second = await syncIndex(w);
    expect(second).toMatchObject({ rebuilt: true, reason: "schema or chunk parameters changed" });
    expect(second.chunks).toBeGreaterThan(first.chunks);
    // The build was copied into the live file in one transaction: the open connection
    // sees the new index (not a file renamed away under it), no temp file left behind.
    expect(count()).toBe(second.chunks);
    reader.close();
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(path.dirname(indexFile(w))).filter((n) => n.includes(".build-"))).toEqual([]);
    const third = await syncIndex(w);
    expect(third).toMatchObject({ rebuilt: false, changed: 0 });
    // A temp build of a process that died is cleaned up by the next rebuild.
    const dead = `${indexFile(w)}.build-99999999`;
    writeFileSync(dead, "half a build");
    await syncIndex(w, { full: true });
    expect(readdirSync(path.dirname(indexFile(w))).filter((n) => n.includes(".build-"))).toEqual([]);
  });

  it("rebuilds a truncated index file instead of crashing", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1, "memory/2025-11-28.md": DAY2 });
    const first = await syncIndex(w);
    closeIndexes();
    const file = indexFile(w);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const report = await syncIndex(w);
    expect(report.rebuilt).toBe(true);
    expect(report.warnings.join(" ")).toMatch(/unusable|damaged/);
    expect(report).toMatchObject({ chunks: first.chunks, facts: first.facts });
  });

  it("finds damage inside the file with quick_check (membank index) and rebuilds", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `- entry ${i} about the ledger and its retries`).join("\n");
    const w = await ws({ "memory/2025-11-27.md": DAY1, "memory/2025-11-28.md": `${DAY2}\n${long}\n` });
    const first = await syncIndex(w);
    closeIndexes();
    const { openSync, writeSync, closeSync } = await import("node:fs");
    const file = indexFile(w);
    const pages = Math.floor(statSync(file).size / 4096);
    const fd = openSync(file, "r+");
    // Scribble over the middle of every page but the first: same size, valid header.
    for (let p = 1; p < pages; p++) writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, p * 4096 + 1000);
    closeSync(fd);
    const report = await syncIndex(w, { check: true });
    expect(report.rebuilt).toBe(true);
    expect(report.warnings.join(" ")).toMatch(/unusable|damaged/);
    expect(report).toMatchObject({ chunks: first.chunks, facts: first.facts });
  });

  it("a re-rendered page keeps the rows of its unchanged lines; the store holds exactly the file's lines", async () => {
    const page = (extra: string[]) =>
      [
        "# World",
        "",
        "- 2025-11-27 — Ledger export moved to nightly.",
        ...extra,
        "- 2025-11-20 — Kafka ruled out.",
      ].join("\n");
    const w = await ws({ "bank/world.md": page(["- 2025-11-25 — Old line about a retired cron job."]) });
    await syncIndex(w);
    const rows = () => {
      const db = new Database(indexFile(w), { readonly: true });
      try {
        return db
          .prepare(
            "SELECT l.id, CASE WHEN b.base IS NULL THEN l.pos ELSE b.base - l.pos END AS line, l.text FROM lines l LEFT JOIN line_bases b ON b.path = l.path WHERE l.path = 'bank/world.md' ORDER BY line",
          )
          .all() as {
          id: number;
          line: number;
          text: string;
        }[];
      } finally {
        db.close();
      }
    };
    const before = rows();
    // A fact added near the top shifts the rest down; one line went away.
    await writeFile(
      path.join(w.root, "bank/world.md"),
      page(["- 2025-11-28 — Billing freeze announced."]).replace("# World\n", "# World\n\n"),
    );
    await utimes(path.join(w.root, "bank/world.md"), new Date(), new Date(Date.now() + 5000));
    await syncIndex(w);
    const after = rows();
    const text = readFileSync(path.join(w.root, "bank/world.md"), "utf8").split("\n");
    expect(after.map((r) => [r.line, r.text])).toEqual(text.flatMap((t, i) => (t.trim() ? [[i + 1, t]] : [])));
    const kafka = (list: typeof before) => list.find((r) => r.text.includes("Kafka"))!;
    expect(kafka(after).id).toBe(kafka(before).id);
    expect(kafka(after).line).toBe(kafka(before).line + 1);
    const db = new Database(indexFile(w), { readonly: true });
    try {
      const hit = (q: string) => db.prepare("SELECT count(*) FROM lines_fts WHERE lines_fts MATCH ?").pluck().get(q);
      expect(hit("freeze")).toBe(1);
      expect(hit("retired")).toBe(0);
      expect(hit("kafka")).toBe(1);
    } finally {
      db.close();
    }
  });

  it("a page that keeps gaining facts at its top leaves its older lines' rows untouched, and reads back line for line", async () => {
    const older = Array.from(
      { length: 300 },
      (_, i) =>
        `- 2024-${String((i % 12) + 1).padStart(2, "0")}-0${(i % 9) + 1} — vendor call #${i}: invoices reconciled`,
    );
    const page = (newest: string[]) => ["# World", "", "Newest first.", "", ...newest, ...older, ""].join("\n");
    const w = await ws({ "bank/world.md": page([]) });
    await syncIndex(w);
    const stored = () => {
      const db = new Database(indexFile(w), { readonly: true });
      try {
        return new Map(
          (
            db.prepare("SELECT id, pos FROM lines WHERE path = 'bank/world.md'").raw(true).all() as [number, number][]
          ).map(([id, pos]) => [id, pos]),
        );
      } finally {
        db.close();
      }
    };
    let newest: string[] = [];
    const night = async (fact: string) => {
      newest = [fact, ...newest];
      await writeFile(path.join(w.root, "bank/world.md"), page(newest));
      clockTick += 5000;
      await utimes(path.join(w.root, "bank/world.md"), new Date(), new Date(Date.now() + clockTick));
      await syncIndex(w);
    };
    await night("- 2025-12-01 — Office moves to the 4th floor (from Monday).");
    const before = stored();
    await night("- 2025-12-02 — VAT number changed after the merger; invoices use the new one.");
    await night("- 2025-12-03 — Printer on floor 4 needs the new driver.");
    const after = stored();
    const moved = [...before].filter(([id, pos]) => after.has(id) && after.get(id) !== pos);
    // The title lines above the new facts move; the 300 older ones and the earlier facts keep their rows as they are.
    expect(moved.length).toBeLessThanOrEqual(4);
    const idx = openIndex(w);
    const text = readFileSync(path.join(w.root, "bank/world.md"), "utf8").split("\n");
    expect(readLines(idx, "bank/world.md", 1, text.length)).toEqual(
      text.flatMap((t, i) => (t.trim() ? [{ line: i + 1, text: t }] : [])),
    );
    expect(readLines(idx, "bank/world.md", 5, 7).map((r) => r.line)).toEqual([5, 6, 7]);
  });

  it("brings a v8 index (lines numbered from the top only) up to date: migrated, then rebuilt", async () => {
    const w = await ws({
      "memory/2025-11-28.md": DAY2,
      "bank/world.md": "# World\n\n- 2025-11-28 — Kafka ruled out.\n",
    });
    await syncIndex(w);
    closeIndexes();
    const old = new Database(indexFile(w));
    // As membank 8 left it: `lines.line`, no line_bases.
    old.exec("ALTER TABLE lines RENAME COLUMN pos TO line; DROP TABLE line_bases");
    old.exec("UPDATE meta SET value = '8' WHERE key = 'schema_version'");
    old.exec(
      `UPDATE meta SET value = replace(value, '"schema":${SCHEMA_VERSION}', '"schema":8') WHERE key = 'fingerprint'`,
    );
    old.close();
    const report = await syncIndex(w);
    expect(report).toMatchObject({ rebuilt: true, reason: "schema or chunk parameters changed" });
    const idx = openIndex(w);
    expect(readLines(idx, "bank/world.md", 1, 9)).toEqual([
      { line: 1, text: "# World" },
      { line: 3, text: "- 2025-11-28 — Kafka ruled out." },
    ]);
    idx.close();
  });

  it("runs quick_check without being asked after a sync that died midway (its marker is left)", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `- note ${i}: retried the ledger export`).join("\n");
    const w = await ws({ "memory/2025-11-27.md": DAY1, "memory/2025-11-28.md": `${DAY2}\n${long}\n` });
    const first = await syncIndex(w);
    const file = indexFile(w);
    // A sync that writes leaves no marker behind when it ends.
    await writeFile(path.join(w.root, "memory/2025-11-29.md"), "# 2025-11-29\n\nQuiet day.\n");
    await syncIndex(w);
    expect(existsSync(`${file}.syncing`)).toBe(false);
    // No marker: a no-change sync does not pay for quick_check.
    const quiet = await syncIndex(w);
    expect(quiet.rebuilt).toBe(false);
    expect(quiet.warnings.join(" ")).not.toMatch(/quick_check/);
    closeIndexes();
    const { openSync, writeSync, closeSync } = await import("node:fs");
    const { default: Database } = await import("better-sqlite3");
    // Only the pages of the chunk text (never the schema): the file still opens, and only
    // quick_check (or reading those rows) notices.
    const probe = new Database(file, { readonly: true });
    const chunkPages = (
      probe.prepare("SELECT pageno FROM dbstat WHERE name = 'chunks' AND pagetype = 'leaf'").all() as {
        pageno: number;
      }[]
    ).map((r) => r.pageno);
    probe.close();
    expect(chunkPages.length).toBeGreaterThan(0);
    const fd = openSync(file, "r+");
    for (const p of chunkPages) writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, (p - 1) * 4096);
    closeSync(fd);
    // The marker of a process that no longer exists: that sync was killed.
    const { spawnSync } = await import("node:child_process");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    writeFileSync(`${file}.syncing`, String(dead));
    const report = await syncIndex(w);
    expect(report.rebuilt).toBe(true);
    expect(report.warnings.join(" ")).toMatch(/quick_check/);
    expect(report.facts).toBe(first.facts);
    // Checked once: the next no-change sync does not check again.
    expect(existsSync(`${file}.syncing`)).toBe(false);
  });

  it("migrates an older index in place and then rebuilds it (the fingerprint includes the schema version)", async () => {
    const w = await ws({ "memory/2025-11-28.md": DAY2 });
    await syncIndex(w);
    closeIndexes();
    const { default: Database } = await import("better-sqlite3");
    const old = new Database(indexFile(w));
    // Make it a v2 file: no fact_entities.pos (v3), no opinion tables (v4).
    old.exec("ALTER TABLE fact_entities DROP COLUMN pos; UPDATE meta SET value = '2' WHERE key = 'schema_version'");
    old.exec("DROP TABLE opinions_fts; DROP TABLE opinions; DROP TABLE opinion_entities; DROP TABLE opinion_evidence");
    old.exec(
      `UPDATE meta SET value = replace(value, '"schema":${SCHEMA_VERSION}', '"schema":2') WHERE key = 'fingerprint'`,
    );
    old.close();
    const report = await syncIndex(w);
    expect(report).toMatchObject({ rebuilt: true, reason: "schema or chunk parameters changed", facts: 2 });
    expect(report.warnings).toEqual([]);
    const idx = openIndex(w);
    expect(factsByEntity(idx, ["Andy"])[0]!.entities).toEqual(["Peter", "Andy"]);
    expect(idx.db.prepare("SELECT count(*) FROM opinions").pluck().get()).toBe(0);
    idx.close();
  });

  it("refuses another program's SQLite file at the index path, and replaces junk inside .memory/", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1 });
    const file = indexFile(w);
    const { default: Database } = await import("better-sqlite3");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.dirname(file), { recursive: true });
    const foreign = new Database(file);
    foreign.exec("CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('x')");
    foreign.close();
    const before = readFileSync(file);
    await expect(syncIndex(w)).rejects.toThrow(
      /another program's SQLite database \(tables: people\).*will not overwrite/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    closeIndexes();
    // Not a database at all, in membank's own folder: a broken index, rebuilt.
    writeFileSync(file, "this is not a database, just text ".repeat(200));
    const b = await syncIndex(w);
    expect(b.warnings.join(" ")).toMatch(/unusable/);
    expect(b.facts).toBe(3);
  });

  it("embeds chunks once (cache) and rebuilds when the embedder changes", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1, "memory/2025-11-28.md": DAY2 });
    const e1 = hashEmbedder(32);
    const a = await syncIndex(w, { embedder: { embedder: e1, provider: e1.id, model: e1.model } });
    expect(a.embedded).toBe(a.chunks);
    const b = await syncIndex(w, { embedder: { embedder: e1, provider: e1.id, model: e1.model } });
    expect(b).toMatchObject({ rebuilt: false, embedded: 0 });
    // BM25-only syncs keep the vectors; a new chunk added meanwhile is embedded by the next embedder sync.
    await writeFile(path.join(w.root, "memory/2025-11-29.md"), "# 2025-11-29\n\nQuiet day.\n");
    const c = await syncIndex(w);
    expect(c).toMatchObject({ rebuilt: false, changed: 1, embedded: 0 });
    const d = await syncIndex(w, { embedder: { embedder: e1, provider: e1.id, model: e1.model } });
    expect(d).toMatchObject({ rebuilt: false, embedded: 1 });
    const e2 = hashEmbedder(48);
    const e = await syncIndex(w, { embedder: { embedder: e2, provider: e2.id, model: e2.model } });
    expect(e).toMatchObject({ rebuilt: true, reason: "embedding provider, model or dims changed" });
    expect(e.embedded).toBe(e.chunks);
  });

  it("keeps going without vectors when the provider fails (fallback none), and fails with fallback error", async () => {
    const w = await ws({ "memory/2025-11-27.md": DAY1 });
    const broken = {
      id: "broken",
      model: "m",
      dims: 8,
      embed: async () => {
        throw new Error("connection refused");
      },
    };
    const report = await syncIndex(w, { embedder: { embedder: broken, provider: "broken" } });
    expect(report.fallback).toMatch(/connection refused/);
    expect(report.chunks).toBeGreaterThan(0);
    w.config.embedding.fallback = "error";
    await writeFile(path.join(w.root, "memory/2025-11-28.md"), DAY2);
    await expect(syncIndex(w, { embedder: { embedder: broken, provider: "broken" } })).rejects.toThrow(
      /embedding with broken failed/,
    );
  });
});

describe("scanMemoryFiles", () => {
  it("lists the memory files: symlinks inside the workspace once, nothing outside, no hidden or non-Markdown files", async () => {
    const { symlinkSync, mkdirSync, mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { listMemoryFiles, scanMemoryFiles } = await import("../src/workspace/files.js");
    const w = await ws({
      "MEMORY.md": "m\n",
      "memory/2025-11-27.md": DAY1,
      "memory/sub/b.md": "b\n",
      "memory/.hidden/x.md": "h\n",
      "memory/notes.txt": "t\n",
      "bank/entities/Peter.md": "# Peter\n",
      "README.md": "r\n",
    });
    const outside = mkdtempSync(path.join(tmpdir(), "membank-out-"));
    writeFileSync(path.join(outside, "o.md"), "o\n");
    symlinkSync(path.join(outside, "o.md"), path.join(w.root, "memory", "out.md"));
    symlinkSync(path.join(w.root, "bank"), path.join(w.root, "memory", "bank-link"));
    symlinkSync(path.join(w.root, "memory", "missing.md"), path.join(w.root, "memory", "dangling.md"));
    mkdirSync(path.join(w.root, "memory", "empty"));
    const listed = scanMemoryFiles(w);
    expect(listed.map((f) => f.path)).toEqual([
      "MEMORY.md",
      "memory/2025-11-27.md",
      // bank/ is reached first through the link (memory/ is walked before bank/), and listed once.
      "memory/bank-link/entities/Peter.md",
      "memory/sub/b.md",
    ]);
    expect(await listMemoryFiles(w)).toEqual(listed);
    rmSync(outside, { recursive: true, force: true });
  });
});
