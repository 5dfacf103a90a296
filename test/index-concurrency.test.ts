// Several readers and writers on one index (issue 17): one build at a time, readers that
// never wait on a writer, an index of an older membank read without a rebuild race.
// Real SQLite files, real processes for the pids a build lock names.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { acquireIndex, closeIndexes, indexFile, syncIndex } from "../src/index/index.js";
import { crashedBefore, markSyncing } from "../src/index/sync-marker.js";
import { recall } from "../src/recall/recall.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

const LOG = `# 2026-02-10

Standup ran long; we argued about the cache again.

## Retain

- W @Ines: Moved the nightly export to 02:00 UTC (it clashed with backups).
- O(c=0.8) @Ines: prefers Postgres over Mongo for the billing data
- B: I reviewed the export job with @Ines.
`;

let workspaces: Workspace[] = [];
const children: ReturnType<typeof spawn>[] = [];

afterEach(async () => {
  closeIndexes();
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const ws of workspaces) await rm(ws.root, { recursive: true, force: true });
  workspaces = [];
});

async function ws(): Promise<Workspace> {
  const w = await makeWorkspace({ "memory/2026-02-10.md": LOG, "MEMORY.md": "# Core\n\n- Ines runs billing.\n" });
  workspaces.push(w);
  return w;
}

/** A live process's pid (a build lock held by someone else). */
function livePid(): number {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

/** The pid of a process that has exited (a killed builder). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

describe("index under concurrent use", () => {
  it("a handle a call is reading through stays usable while another call of the process rebuilds or rechecks the index", async () => {
    const w = await ws();
    await syncIndex(w);
    // One MCP server answers several calls at once: one holds the handle across an await...
    const held = acquireIndex(indexFile(w));
    // ...while another rebuilds the index (the chunking changed) and another checks it after a crash.
    w.config.index.chunkTokens = 300;
    const report = await syncIndex(w);
    expect(report.rebuilt).toBe(true);
    acquireIndex(indexFile(w), { check: true });
    // Before: "The database connection is not open"; now it reads the rebuilt index.
    expect(held.db.open).toBe(true);
    expect(held.db.prepare("SELECT count(*) FROM facts").pluck().get()).toBe(3);
  });

  it("another process never reads a sync marker half-written (which it would take for a crash)", async () => {
    const w = await ws();
    await syncIndex(w);
    const file = indexFile(w);
    // A reader in another process polls the marker while this process marks and clears it.
    const reader = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs"); let bad = 0; const end = Date.now() + 1500;
         while (Date.now() < end) { try { const t = fs.readFileSync(process.argv[1], "utf8"); if (!/^\\d+$/.test(t)) bad++; } catch {} }
         process.stdout.write(String(bad));`,
        `${file}.syncing`,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    children.push(reader);
    let out = "";
    reader.stdout!.on("data", (d) => {
      out += d;
    });
    const exited = new Promise((r) => reader.once("exit", r));
    const end = Date.now() + 1500;
    while (Date.now() < end) {
      const done = markSyncing(file);
      done();
      await new Promise((r) => setImmediate(r));
    }
    await exited;
    expect(out).toBe("0");
    expect(crashedBefore(file)).toBe(false);
  });

  it("two syncs that find no index build it once; the second uses the first one's build", async () => {
    const w = await ws();
    const [a, b] = await Promise.all([syncIndex(w), syncIndex(w)]);
    expect([a.rebuilt, b.rebuilt].sort()).toEqual([false, true]);
    expect(a.facts).toBe(3);
    expect(b.facts).toBe(3);
  });

  it("a reader finding another process rebuilding answers from the previous index and says so", async () => {
    const w = await ws();
    await syncIndex(w);
    closeIndexes();
    // The chunking changed (a rebuild is due) while another live process holds the build lock.
    w.config.index.chunkTokens = 300;
    writeFileSync(`${indexFile(w)}.build-lock`, String(livePid()));
    const r = await recall(w, "when does the nightly export run?");
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results[0]!.source).toMatch(/^memory\/2026-02-10\.md#L7\b/);
    expect(r.fallback).toMatch(/being rebuilt by pid \d+.*answered from the previous index/);
  });

  it("a build lock left by a killed builder is taken over", async () => {
    const w = await ws();
    mkdirSync(path.dirname(indexFile(w)), { recursive: true });
    writeFileSync(`${indexFile(w)}.build-lock`, String(await deadPid()));
    const report = await syncIndex(w);
    expect(report.rebuilt).toBe(true);
    expect(report.facts).toBe(3);
  });

  it("an empty build lock (a builder killed before it wrote its pid) does not block builds", async () => {
    const w = await ws();
    mkdirSync(path.dirname(indexFile(w)), { recursive: true });
    writeFileSync(`${indexFile(w)}.build-lock`, "");
    // Before: "being built by pid -1" after waiting ten minutes.
    const report = await syncIndex(w);
    expect(report.rebuilt).toBe(true);
    expect(report.facts).toBe(3);
    expect(existsSync(`${indexFile(w)}.build-lock`)).toBe(false);
  });

  it("a reader does not wait for another writer's transaction: it answers from the last committed state", async () => {
    const w = await ws();
    await syncIndex(w);
    appendFileSync(path.join(w.root, "memory/2026-02-10.md"), "- W @Ines: The export now also writes a CSV.\n");
    // Another process (here: another connection) is in the middle of writing the index.
    const other = new Database(indexFile(w));
    other.pragma("busy_timeout = 5000");
    other.exec("BEGIN IMMEDIATE");
    try {
      // Before: the sync inside recall waited for the lock, then threw "database is locked".
      const r = await recall(w, "nightly export");
      expect(r.results.length).toBeGreaterThan(0);
      expect(r.fallback).toMatch(/another process is writing the index; answered from its last committed state/);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    // Once the writer is done, the next reader catches up.
    const r = await recall(w, "export CSV");
    expect(r.fallback).toBeUndefined();
    expect(r.results.map((x) => x.content).join("\n")).toContain("CSV");
  });

  it("an index of an older membank (no line store): recall without sync answers and says so; a sync rebuilds it", async () => {
    const w = await ws();
    await syncIndex(w);
    closeIndexes();
    // What schema 6 left: no line tables, an older fingerprint.
    const db = new Database(indexFile(w));
    db.exec("DROP TABLE lines_fts; DROP TABLE lines;");
    db.exec("ALTER TABLE opinions DROP COLUMN status; ALTER TABLE opinions DROP COLUMN trajectory");
    db.exec("DELETE FROM meta WHERE key IN ('lines_count', 'lines_avg_ntok')");
    db.prepare("UPDATE meta SET value = '6' WHERE key = 'schema_version'").run();
    const fp = JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").pluck().get() as string);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'fingerprint'").run(JSON.stringify({ ...fp, schema: 6 }));
    db.close();
    // ...and its separate line store file, which the rebuild removes.
    const oldStore = path.join(w.root, ".memory/recall-lines.sqlite");
    writeFileSync(oldStore, "old line store");

    const old = await recall(w, "Tell me about Ines", { sync: false });
    expect(old.results.length).toBeGreaterThan(0);
    expect(old.fallback).toMatch(/no line store yet.*membank index/);

    const fresh = await recall(w, "nightly export clashed with backups");
    expect(fresh.fallback).toBeUndefined();
    expect(fresh.results[0]!.source).toMatch(/^memory\/2026-02-10\.md#L7\b/);
    expect(existsSync(oldStore)).toBe(false);
  });
});
