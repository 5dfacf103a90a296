import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, openIndex, syncIndex } from "../src/index/index.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// An incremental sync fills the FTS tables per statement, not through the per-row triggers
// (src/index/fts-batch.ts). What a user sees must not change: the same hits as a rebuilt
// index, nothing stale, FTS5's own integrity check passing, and the triggers back for the
// next write.

const DAY1 = `# 2025-03-02

Spent the morning with Mara on the ledger-sync backlog; Tomasz joined at noon.
- **Mara** (10:02): the batch size is the culprit, try LEDGER_SYNC_BATCH=500
- **Tomasz** (10:05): ok, deploying to staging

## Retain
- W @Mara: Owns ledger-sync since February.
- O(c=0.7) @Tomasz: prefers deploys on Tuesdays
`;

const DAY2 = `# 2025-03-03

quiet day. read about sqlite fts5 segment merges

## Retain
- S: Nothing shipped.
`;

const PAGE = `# Mara

<!-- membank:begin facts -->
- Owns ledger-sync since February. ([memory/2025-03-02.md#L8](../../memory/2025-03-02.md#L8))
<!-- membank:end facts -->
`;

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

const WORDS = ["mara", "ledger", "staging", "tuesdays", "quiet", "segment", "kyoto", "札幌", "deploying", "rollback"];

/** What each FTS table answers for a few words: (path, line) of lines, (path, start) of chunks, fact ids. */
function hits(w: Workspace) {
  const db = openIndex(w).db;
  const out: Record<string, unknown> = {};
  for (const word of WORDS) {
    const q = `"${word}"`;
    out[`lines:${word}`] = db
      .prepare(
        "SELECT l.path || ':' || (CASE WHEN b.base IS NULL THEN l.pos ELSE b.base - l.pos END) FROM lines_fts JOIN lines l ON l.id = lines_fts.rowid LEFT JOIN line_bases b ON b.path = l.path WHERE lines_fts MATCH ? ORDER BY 1",
      )
      .pluck()
      .all(q);
    out[`chunks:${word}`] = db
      .prepare(
        "SELECT c.path || ':' || c.start_line FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY 1",
      )
      .pluck()
      .all(q);
    out[`facts:${word}`] = db
      .prepare("SELECT f.id FROM facts_fts JOIN facts f ON f.rid = facts_fts.rowid WHERE facts_fts MATCH ? ORDER BY 1")
      .pluck()
      .all(q);
    if (word.length >= 3)
      out[`tri:${word}`] = db
        .prepare(
          "SELECT c.path || ':' || c.start_line FROM chunks_tri JOIN chunks c ON c.id = chunks_tri.rowid WHERE chunks_tri MATCH ? ORDER BY 1",
        )
        .pluck()
        .all(q);
  }
  return out;
}

function integrity(w: Workspace): void {
  const db = openIndex(w).db;
  for (const t of ["lines_fts", "chunks_fts", "chunks_tri", "facts_fts"])
    db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run();
}

function triggers(w: Workspace): string[] {
  return openIndex(w)
    .db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    .pluck()
    .all() as string[];
}

describe("incremental sync fills the FTS tables in bulk", () => {
  it("answers like a rebuilt index after edits, additions and deletions, and keeps its triggers", async () => {
    const w = await makeWorkspace({
      "memory/2025-03-02.md": DAY1,
      "memory/2025-03-03.md": DAY2,
      "bank/entities/Mara.md": PAGE,
    });
    workspaces.push(w);
    await syncIndex(w);
    const before = triggers(w);
    expect(before).toContain("lines_ai");

    // An edited log (a line changed, one dropped, lines moved, CJK added), a new log, a deleted page.
    writeFileSync(
      path.join(w.root, "memory/2025-03-02.md"),
      DAY1.replace("ok, deploying to staging", "rollback first, then staging")
        .replace("Spent the morning", "\nSpent the whole morning")
        .replace("- O(c=0.7) @Tomasz: prefers deploys on Tuesdays\n", ""),
    );
    writeFileSync(
      path.join(w.root, "memory/2025-03-04.md"),
      "# 2025-03-04\n\n札幌 trip planning with Mara.\nKyoto next?\n\n## Retain\n- W @Mara: Flies to Kyoto in May.\n",
    );
    unlinkSync(path.join(w.root, "bank/entities/Mara.md"));
    const report = await syncIndex(w);
    expect(report.changed).toBe(2);
    expect(report.removed).toBe(1);

    const incremental = hits(w);
    integrity(w);
    expect(triggers(w)).toEqual(before);
    expect(incremental["lines:tuesdays"]).toEqual([]);
    expect(incremental["facts:tuesdays"]).toEqual([]);
    expect(incremental["lines:rollback"]).toEqual(["memory/2025-03-02.md:6"]);
    expect(incremental["lines:kyoto"]).toEqual(["memory/2025-03-04.md:4", "memory/2025-03-04.md:7"]);

    // The same workspace indexed from scratch gives the same answers.
    closeIndexes();
    await syncIndex(w, { full: true });
    expect(hits(w)).toEqual(incremental);

    // The restored triggers keep working for the next (per-row) change.
    writeFileSync(path.join(w.root, "memory/2025-03-03.md"), DAY2.replace("quiet day", "hectic day"));
    await syncIndex(w);
    integrity(w);
    expect(hits(w)["lines:quiet"]).toEqual([]);
  });
});
