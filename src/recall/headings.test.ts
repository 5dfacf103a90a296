import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexDb } from "../index/db.js";
import { acquireIndex, closeIndexes } from "../index/handles.js";
import { syncIndex } from "../index/sync.js";
import { openWorkspace } from "../workspace/workspace.js";
import { withHeadingContext } from "./headings.js";
import { lexicalTerms } from "./intent.js";
import { searchLines } from "./lines.js";

let dir: string | undefined;

afterEach(() => {
  closeIndexes();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function store(files: Record<string, string>): Promise<IndexDb> {
  dir = mkdtempSync(path.join(tmpdir(), "membank-headings-"));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
  await syncIndex(await openWorkspace(dir));
  return acquireIndex(path.join(dir, ".memory/index.sqlite"));
}

const ranked = (idx: IndexDb, q: string) =>
  withHeadingContext(idx, searchLines(idx, lexicalTerms(q)))
    .sort((a, b) => b.score - a.score)
    .map((h) => h.line);

describe("lines under what titles them", () => {
  it("a table's rows get a share of its header row's words", async () => {
    const idx = await store({
      "memory/2026-09-01.md":
        "Scale this morning.\n\n| Weight | kg |\n|---|---|\n| me | 71.4 |\n| Ravi | 80.2 |\n\nRavi wants a new scale.\n",
    });
    // "Ravi's weight": the row naming Ravi under the "Weight" header, before the line naming him alone.
    expect(ranked(idx, "what is Ravi's weight")[0]).toBe(6);
  });

  it("a label ending in ':' titles the block right after it, up to a blank line", async () => {
    const idx = await store({
      "memory/2026-09-02.md":
        "Packing list:\n- passport\n- adapter plug\n\nThe plug in the bathroom is loose.\nPacking tape ran out.\n",
    });
    const lines = ranked(idx, "what was on the packing list");
    expect(lines.slice(0, 3)).toEqual(expect.arrayContaining([2, 3]));
    // The line after the blank line is no part of the list.
    const hits = withHeadingContext(idx, searchLines(idx, lexicalTerms("packing list")));
    expect(hits.map((h) => h.line)).not.toContain(5);
  });
});
