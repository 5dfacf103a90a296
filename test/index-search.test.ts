import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { EmbedderChoice } from "../src/embed/types.js";
import {
  acquireIndex,
  bm25Chunks,
  buildMatchQuery,
  closeIndexes,
  indexFile,
  search,
  syncIndex,
  vectorKnn,
} from "../src/index/index.js";
import { vectorKnnScan } from "../src/index/vectors.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { bagOfWords, hashEmbedder, makeWorkspace } from "./index-support.js";

const FILES: Record<string, string> = {
  "MEMORY.md": "# Core\n\nPeter prefers concise replies.\nThe home server is called atlas.\n",
  "memory/2026-03-10.md": [
    "# 2026-03-10",
    "",
    "## Notes",
    "",
    "- Deployed commit a91f3c2 to staging after the review.",
    "- Ticket FJD-482 tracks the flaky checkout test.",
    "- Set LEDGER_SYNC_BATCH=500 in the ledger-sync service; the backlog cleared.",
    '- Error seen: "ECONNRESET: socket hang up" from the payments proxy.',
    "",
  ].join("\n"),
  "memory/2026-03-12.md": [
    "# 2026-03-12",
    "",
    "- Wei confirmed: 数据库迁移已经完成，新的只读副本运行正常。",
    "- The Postgres database migration to the read replica is done.",
    "- Lunch was pasta with the team.",
    "",
  ].join("\n"),
  "bank/world.md": "# World\n\n- Vienna is the capital of Austria.\n- Café Central serves good coffee.\n",
};

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

async function ws(cfg?: Parameters<typeof makeWorkspace>[1], files = FILES): Promise<Workspace> {
  const w = await makeWorkspace(files, cfg);
  workspaces.push(w);
  return w;
}

function choice(dims = 64): EmbedderChoice {
  const e = hashEmbedder(dims);
  return { embedder: e, provider: e.id, model: e.model };
}

describe("search (BM25 only)", () => {
  it.each([
    ["a91f3c2", "memory/2026-03-10.md"],
    ["FJD-482", "memory/2026-03-10.md"],
    ["LEDGER_SYNC_BATCH=500", "memory/2026-03-10.md"],
    ['"ECONNRESET: socket hang up"', "memory/2026-03-10.md"],
    ["数据库", "memory/2026-03-12.md"],
    ["只读副本", "memory/2026-03-12.md"],
    ["cafe", "bank/world.md"],
    ["what is the home server called?", "MEMORY.md"],
  ])("finds %s", async (query, expected) => {
    const w = await ws();
    const res = await search(w, query);
    expect(res.provider).toBe("none");
    expect(res.results[0]).toMatchObject({ path: expected, source: "memory", score: 1 });
    expect(res.results[0]!.startLine).toBeGreaterThanOrEqual(1);
  });

  it("returns the OpenClaw result shape with line ranges and snippets", async () => {
    const w = await ws();
    const res = await search(w, "FJD-482 flaky checkout");
    expect(res.results).toEqual([
      {
        path: "memory/2026-03-10.md",
        startLine: 1,
        endLine: 8,
        score: 1,
        snippet: FILES["memory/2026-03-10.md"]!.trimEnd(),
        source: "memory",
      },
    ]);
  });

  it("an exact id does not match a different id that shares a prefix", async () => {
    const w = await ws();
    const res = await search(w, "FJD-483");
    expect(res.results.map((r) => r.path)).not.toContain("memory/2026-03-10.md");
  });

  it("never throws on FTS syntax characters and never passes them to MATCH raw", async () => {
    const w = await ws();
    for (const q of ['"', '""', "a -b", "col:val", "NEAR(a b)", "x*", "(", ")", "^a", "AND", "OR NOT", "'", "+", "-"]) {
      await expect(search(w, q)).resolves.toHaveProperty("results");
    }
    const idx = acquireIndex(indexFile(w));
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: "grapheme" }), (q) => {
        bm25Chunks(idx, buildMatchQuery(q), 5);
      }),
      { numRuns: 300 },
    );
  });

  it("sees a file written after the last sync (freshness) and respects maxResults/minScore", async () => {
    const w = await ws();
    await search(w, "pasta");
    await writeFile(path.join(w.root, "memory/2026-03-13.md"), "# 2026-03-13\n\n- More pasta, again.\n");
    const res = await search(w, "pasta", { maxResults: 1 });
    expect(res.results).toHaveLength(1);
    const none = await search(w, "pasta", { minScore: 1.01 });
    expect(none.results).toEqual([]);
  });

  it("cuts snippets at the configured size", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `- note ${i} zebra stripes are unique`).join("\n");
    const w = await ws(
      (c) => {
        c.search.snippetChars = 200;
      },
      { "memory/2026-01-01.md": long },
    );
    const res = await search(w, "zebra");
    expect(res.results[0]!.snippet.length).toBeLessThanOrEqual(200);
    expect(res.results[0]!.snippet.endsWith("…")).toBe(true);
  });

  it("answers from a rebuilt index when the file was damaged on disk", async () => {
    const w = await ws();
    await syncIndex(w);
    closeIndexes();
    const { openSync, writeSync, closeSync, statSync } = await import("node:fs");
    const file = indexFile(w);
    const size = statSync(file).size;
    const fd = openSync(file, "r+");
    // Garbage over everything after the first page: same size, so only reading finds it.
    writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096);
    closeSync(fd);
    const res = await search(w, "a91f3c2", { sync: false });
    expect(res.results[0]?.path).toBe("memory/2026-03-10.md");
    expect(res.fallback).toMatch(/rebuilt/);
  });

  it("rejects an empty query with a clear error", async () => {
    const w = await ws();
    await expect(search(w, "   ")).rejects.toThrow(/query is empty/);
  });
});

describe("search with vectors", () => {
  it("sqlite-vec and the JS cosine fallback give the same ranking", async () => {
    const w = await ws();
    const c = choice(64);
    await syncIndex(w, { embedder: c });
    const idx = acquireIndex(indexFile(w));
    expect(idx.vec.loaded).toBe(true);
    const queries = ["database migration replica", "concise replies", "ledger backlog", "coffee Vienna", "pasta"];
    for (const q of queries) {
      const qv = bagOfWords(q, 64);
      const viaVec = vectorKnn(idx, qv, 10);
      const viaScan = vectorKnnScan(idx, qv, 10);
      expect(viaVec.map((h) => h.id)).toEqual(viaScan.map((h) => h.id));
      viaVec.forEach((h, i) => {
        expect(h.score).toBeCloseTo(viaScan[i]!.score, 5);
      });
    }
    // The whole search path agrees too, with the extension disabled in a second connection.
    for (const q of queries) {
      const a = await search(w, q, { embedder: c, sync: false });
      closeIndexes();
      const b = await search(w, q, { embedder: c, sync: false, vec: false });
      closeIndexes();
      expect(b.results).toEqual(a.results);
      expect(a.provider).toBe("hash-test");
    }
  });

  it("a log edited or deleted takes its old vectors out of sqlite-vec's table too, in a new connection", async () => {
    const w = await ws();
    const c = choice(64);
    await syncIndex(w, { embedder: c });
    // A new connection, as the next nightly opens: sqlite-vec is loaded only when needed.
    closeIndexes();
    await writeFile(path.join(w.root, "memory/2026-03-12.md"), "# 2026-03-12\n\n- Lunch was ramen this time.\n");
    rmSync(path.join(w.root, "memory/2026-03-10.md"));
    await syncIndex(w, { embedder: c });
    const idx = acquireIndex(indexFile(w));
    expect(idx.vec.loaded).toBe(true);
    const ids = (sql: string) => (idx.db.prepare(sql).pluck().all() as (number | bigint)[]).map(Number).sort();
    const chunks = ids("SELECT id FROM chunks WHERE path NOT LIKE 'bank/%'");
    expect(ids("SELECT rowid FROM chunk_vec")).toEqual(chunks);
    expect(ids("SELECT id FROM chunk_vectors")).toEqual(chunks);
  });

  it("mixes vector and text scores with the configured weights", async () => {
    const w = await ws();
    const c = choice(64);
    await syncIndex(w, { embedder: c });
    const hybrid = await search(w, "Postgres database migration", { embedder: c, minScore: 0 });
    const top = hybrid.results[0]!;
    expect(top.path).toBe("memory/2026-03-12.md");
    const idx = acquireIndex(indexFile(w));
    const { id } = idx.db.prepare("SELECT id FROM chunks WHERE path = ?").get(top.path) as { id: number };
    const cos = vectorKnn(idx, bagOfWords("Postgres database migration", 64), 50).find((h) => h.id === id)?.score;
    expect(cos).toBeDefined();
    // That chunk is also the best BM25 hit (text score 1); weights 0.7/0.3 sum to 1.
    expect(top.score).toBeCloseTo((0.7 * cos! + 0.3 * 1) / 1.0, 3);
    expect(hybrid).toMatchObject({ provider: "hash-test", model: "bow-64" });
  });

  it("works with no FTS5 (vector only)", async () => {
    const w = await ws();
    const c = choice(64);
    await syncIndex(w, { embedder: c, fts: false });
    const res = await search(w, "Postgres read replica migration", { embedder: c, fts: false, minScore: 0 });
    expect(res.results[0]?.path).toBe("memory/2026-03-12.md");
    const bm25Only = await search(w, "Vienna", { fts: false });
    expect(bm25Only.results).toEqual([]);
    expect(bm25Only.fallback).toMatch(/no FTS5 and no embedder/);
  });

  it("falls back to BM25 when the query cannot be embedded", async () => {
    const w = await ws();
    const c = choice(16);
    await syncIndex(w, { embedder: c });
    const failing: EmbederLike = {
      id: c.embedder!.id,
      model: c.embedder!.model,
      dims: 16,
      embed: async () => {
        throw new Error("provider down");
      },
    };
    const res = await search(w, "deployed to staging", {
      embedder: { embedder: failing, provider: "hash-test" },
      sync: false,
    });
    expect(res.provider).toBe("none");
    expect(res.fallback).toMatch(/provider down/);
    expect(res.results[0]?.path).toBe("memory/2026-03-10.md");
  });

  it("skips the vector arm when an exact-token query is answered by BM25", async () => {
    const w = await ws();
    const c = choice(16);
    await syncIndex(w, { embedder: c });
    const e = c.embedder as ReturnType<typeof hashEmbedder>;
    const calls = e.calls;
    for (const q of ["a91f3c2", "FJD-482", "LEDGER_SYNC_BATCH=500", "数据库"]) {
      const res = await search(w, q, { embedder: c });
      expect(res.results[0]).toMatchObject({ score: 1 });
      expect(res.fallback).toMatch(/vector arm skipped/);
    }
    expect(e.calls).toBe(calls);
    await search(w, "database replica", { embedder: c });
    expect(e.calls).toBe(calls + 1);
  });
});

describe("queries never embed the corpus", () => {
  it("search over an index without vectors skips the vector arm and says so, embedding nothing", async () => {
    const w = await ws();
    await syncIndex(w);
    const c = choice(64);
    const e = c.embedder as ReturnType<typeof hashEmbedder>;
    const res = await search(w, "Postgres database migration", { embedder: c });
    expect(e.calls).toBe(0);
    expect(res.provider).toBe("none");
    expect(res.fallback).toMatch(/no hash-test vectors in the index yet .*membank index.*vector arm skipped/);
    expect(res.results[0]?.path).toBe("memory/2026-03-12.md");
  });

  it("a new log after the last embedding pass is found by BM25; only the question is embedded", async () => {
    const w = await ws();
    const c = choice(64);
    await syncIndex(w, { embedder: c });
    const e = c.embedder as ReturnType<typeof hashEmbedder>;
    const before = e.texts;
    await writeFile(
      path.join(w.root, "memory/2026-03-14.md"),
      "# 2026-03-14\n\nMoved the nightly backup of atlas to 02:30 UTC.\n",
    );
    const res = await search(w, "nightly backup schedule", { embedder: c, minScore: 0 });
    expect(e.texts - before).toBe(1);
    expect(res.provider).toBe("hash-test");
    expect(res.fallback).toMatch(
      /^1 chunk has no hash-test vector yet \(`membank index` embeds it\); vector arm over the 3 that do$/,
    );
    expect(res.results[0]?.path).toBe("memory/2026-03-14.md");
  });

  it("bank pages are indexed for BM25 but get no vectors; logs and MEMORY.md do", async () => {
    const w = await ws();
    await syncIndex(w, { embedder: choice(64) });
    const idx = acquireIndex(indexFile(w));
    const rows = idx.db
      .prepare(
        "SELECT c.path, EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id) AS vec FROM chunks c ORDER BY c.path",
      )
      .all() as { path: string; vec: number }[];
    expect(rows.filter((r) => r.path.startsWith("bank/")).map((r) => r.vec)).toEqual([0]);
    expect(rows.filter((r) => !r.path.startsWith("bank/")).every((r) => r.vec === 1)).toBe(true);
    expect((await search(w, "Vienna")).results[0]?.path).toBe("bank/world.md");
  });
});

type EmbederLike = NonNullable<EmbedderChoice["embedder"]>;
