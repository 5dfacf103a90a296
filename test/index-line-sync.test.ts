import { rmSync } from "node:fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { chunkMarkdown } from "../src/index/chunk.js";
import { syncFileChunks, textOfChunks } from "../src/index/chunk-rows.js";
import { closeIndexes, openIndex } from "../src/index/index.js";
import { syncFileLines } from "../src/index/line-sync.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// A changed file's line rows can be matched against its old text, rebuilt from its chunk rows,
// instead of reading every stored row (src/index/line-sync.ts). The store must end up exactly
// as the read of every row leaves it: same row ids, positions, bases, dates and word counts.

const workspaces: Workspace[] = [];
afterAll(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
});

// FTS is kept by the store's triggers here; the batch is the sync's optimisation only.
const noBatch = { inserted() {}, deleting() {}, finish() {} };

/** The line store of one file, as rows, and its base. */
function store(w: Workspace, path: string) {
  const db = openIndex(w).db;
  return {
    rows: db.prepare("SELECT id, pos, text, date, ntok FROM lines WHERE path = ? ORDER BY id").raw(true).all(path),
    base: db.prepare("SELECT base FROM line_bases WHERE path = ?").pluck().get(path),
  };
}

/** Sync `texts` one after the other into `w`'s store, as the index does (chunks, then lines). */
function syncAll(w: Workspace, path: string, date: string | null, texts: string[], viaText: boolean) {
  const idx = openIndex(w);
  // The words added and removed (the store's totals in meta move by them).
  const tally = { lines: 0, ntok: 0 };
  texts.forEach((text, i) => {
    idx.db.transaction(() => {
      const old = syncFileChunks(idx, path, date, chunkMarkdown(text), noBatch, { fresh: i === 0 });
      const oldText = i === 0 || !viaText ? undefined : textOfChunks(old, date);
      // The index checks the rebuilt text against the stored hash; here, against the text itself.
      const exact = oldText !== undefined && oldText === texts[i - 1];
      syncFileLines(idx.db, path, date, text, noBatch, { fresh: false, tally, ...(exact ? { oldText } : {}) });
    })();
  });
  return tally;
}

// Lines people and membank write: duplicates, headings, blank runs, a line of spaces, CRLF.
const line = fc.constantFrom(
  "# World",
  "## 2025-11",
  "- Mara moved to Lisbon in March",
  "- Mara moved to Lisbon in March",
  "- the NAS died again, Tomasz swapped the PSU",
  "<!-- membank:begin facts -->",
  "<!-- membank:end facts -->",
  "",
  "",
  "   ",
  "- O(c=0.7) @Jonas: deploys on tuesdays",
  "quick note: dentist 14:30",
  "- [2025-12-01] renewed the lease (memory/2025-12-01.md#L4)",
);
const page = fc
  .tuple(fc.array(line, { maxLength: 40 }), fc.boolean(), fc.boolean())
  .map(([ls, crlf, finalNewline]) => ls.join(crlf ? "\r\n" : "\n") + (finalNewline ? "\n" : ""));
/** A later version of a page: lines added at the top or bottom, some dropped, maybe rewritten. */
const edits = (text: string) =>
  fc
    .tuple(
      fc.array(line, { maxLength: 6 }),
      fc.array(line, { maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([top, bottom, drops, rewrite]) => {
      if (rewrite) return `${[...top, ...bottom].join("\n")}\n`;
      const ls = text.split("\n");
      for (const d of drops) if (ls.length > 0) ls.splice(d % ls.length, 1);
      return [...top, ...ls, ...bottom].join("\n");
    });

describe("the line store synced from a file's old text", () => {
  it("ends exactly as when every stored row is read (property)", async () => {
    const a = await makeWorkspace({});
    const b = await makeWorkspace({});
    workspaces.push(a, b);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        page.chain((p) => edits(p).chain((q) => edits(q).map((r) => [p, q, r]))),
        fc.constantFrom("bank/world.md", "memory/2025-11-27.md"),
        async (texts, base) => {
          const path = base.replace(".md", `-${n++}.md`);
          const date = path.startsWith("memory/") ? "2025-11-27" : null;
          const read = syncAll(a, path, date, texts, false);
          expect(syncAll(b, path, date, texts, true)).toEqual(read);
          expect(store(b, path)).toEqual(store(a, path));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("rebuilds a page's old text from its chunks, or says it cannot", async () => {
    const w = await makeWorkspace({});
    workspaces.push(w);
    const idx = openIndex(w);
    const text = "# Observations\n\n\n- slow week, mostly reviews\n\n- the office plants need water\n";
    const rows = () =>
      idx.db.prepare("SELECT id, start_line, end_line, text, date FROM chunks WHERE path = ?").all("p");
    syncFileChunks(idx, "p", null, chunkMarkdown(text, { tokens: 4, overlap: 1 }), noBatch, { fresh: true });
    expect(textOfChunks(rows() as never, null)).toBe(text);
    // Chunks of another date (a file whose date rule changed) tell nothing.
    expect(textOfChunks(rows() as never, "2025-01-01")).toBeUndefined();
  });
});
