// A query's freshness check (src/index/freshness.ts): a recall or search on an unchanged
// workspace skips the sync; any added, removed or edited memory file (even one edited in
// place to the same size) is still seen by the next question. Real files, real SQLite.
import { appendFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { indexIsCurrent } from "../src/index/freshness.js";
import { closeIndexes, indexFile, syncIndex } from "../src/index/index.js";
import { search } from "../src/index/search.js";
import { indexStatus } from "../src/index/status.js";
import { recall } from "../src/recall/recall.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

const MON = `# 2026-04-06

Slow Monday. Coffee machine on floor 3 is broken again, filed a ticket with facilities.

## Retain
- W @Dana: dentist appointment moved to thursday 4pm
- B: I rotated the staging TLS cert, expires 2027-01-14
- O(c=0.7) @Dana: thinks the offsite in Porto is overkill
`;

const TUE = `# 2026-04-07

quick one. paired w/ Dana on the flaky upload test -> root cause: retry loop never reset its backoff

## Retain
- B @Dana: We fixed the upload retry backoff together.
`;

let workspaces: Workspace[] = [];
afterEach(async () => {
  closeIndexes();
  for (const w of workspaces) await rm(w.root, { recursive: true, force: true });
  workspaces = [];
});

async function indexed(): Promise<Workspace> {
  const w = await makeWorkspace({
    "memory/2026-04-06.md": MON,
    "memory/2026-04-07.md": TUE,
    "MEMORY.md": "# Core\n\n- Dana is on the platform team.\n",
  });
  workspaces.push(w);
  await syncIndex(w);
  return w;
}

const at = (w: Workspace, rel: string) => path.join(w.root, rel);
const asOf = new Date("2026-04-08T09:00:00Z");

describe("a query's freshness check", () => {
  it("finds an unchanged workspace current, and each kind of change not", async () => {
    const w = await indexed();
    expect(indexIsCurrent(w)).toBe(true);

    appendFileSync(at(w, "memory/2026-04-07.md"), "- S: long day\n");
    expect(indexIsCurrent(w)).toBe(false);
    await syncIndex(w);
    expect(indexIsCurrent(w)).toBe(true);

    writeFileSync(at(w, "memory/2026-04-08.md"), "# 2026-04-08\n\nnothing much\n");
    expect(indexIsCurrent(w)).toBe(false);
    await syncIndex(w);

    rmSync(at(w, "memory/2026-04-06.md"));
    expect(indexIsCurrent(w)).toBe(false);
    await syncIndex(w);
    expect(indexIsCurrent(w)).toBe(true);

    // New chunking: the sync must rebuild, so the index is not current for it.
    w.config.index.chunkTokens = 123;
    expect(indexIsCurrent(w)).toBe(false);
  });

  it("counts each added, edited and removed file once (doctor's stale count)", async () => {
    const w = await indexed();
    appendFileSync(at(w, "memory/2026-04-06.md"), "- B: ordered the new standing desk\n");
    mkdirSync(at(w, "bank"), { recursive: true });
    writeFileSync(at(w, "bank/world.md"), "# World\n\n- Porto is two hours from Lisbon by train.\n");
    rmSync(at(w, "memory/2026-04-07.md"));
    closeIndexes();
    const status = await indexStatus(w);
    expect(status.index).toMatchObject({ stale: 3, fresh: false });
  });

  it("a log edited in place to the same size is found by the next recall and search", async () => {
    const w = await indexed();
    expect((await recall(w, "who was on the flaky upload test?", { asOf })).results.length).toBeGreaterThan(0);
    const file = at(w, "memory/2026-04-07.md");
    const before = readFileSync(file, "utf8");
    // Same byte count, other words: only the file's own mtime shows the edit (not its folder's).
    const after = before.replace("flaky upload test", "flaky drawer test");
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
    writeFileSync(file, after);
    // A clock tick between the sync and the edit, as on any real edit.
    const t = Date.now() / 1000 + 5;
    utimesSync(file, t, t);
    expect(indexIsCurrent(w)).toBe(false);
    const r = await recall(w, "which test was about the drawer?", { asOf, k: 3 });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-04-07\.md#L3\b/);
    expect(r.results[0]?.content).toContain("flaky drawer test");
    const s = await search(w, "drawer");
    expect(s.results.map((x) => x.path)).toEqual(["memory/2026-04-07.md"]);
  });

  it("a removed log is gone from the next recall", async () => {
    const w = await indexed();
    expect((await recall(w, "staging TLS cert", { asOf })).results[0]?.source).toMatch(/^memory\/2026-04-06\.md/);
    rmSync(at(w, "memory/2026-04-06.md"));
    const r = await recall(w, "staging TLS cert", { asOf });
    expect(r.results.filter((x) => x.source.startsWith("memory/2026-04-06.md"))).toEqual([]);
  });

  it("a dead sync's marker sends the next query through the checking sync", async () => {
    const w = await indexed();
    writeFileSync(`${indexFile(w)}.syncing`, "not a pid");
    expect(indexIsCurrent(w)).toBe(false);
    await recall(w, "dentist", { asOf });
    expect(indexIsCurrent(w)).toBe(true);
  });

  it("on an unchanged workspace a question does not wait for another writer's transaction", async () => {
    const w = await indexed();
    const other = new Database(indexFile(w));
    other.exec("BEGIN IMMEDIATE");
    try {
      const t = performance.now();
      const r = await recall(w, "when is the dentist?", { asOf });
      // Before: a no-change sync took the write lock too, waited 200 ms and noted "another process is writing".
      expect(r.fallback).toBeUndefined();
      expect(r.results[0]?.source).toMatch(/^memory\/2026-04-06\.md#L6\b/);
      expect(performance.now() - t).toBeLessThan(2000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
  });
});
