// Answer at once, embed later: the VectorFiller behind `membank mcp`, on a real workspace,
// real SQLite and the real workspace lock, with a deterministic embedder whose calls the
// test holds back (as a slow local model would).
import { existsSync, statSync } from "node:fs";
import { appendFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Embedder, EmbedderChoice } from "../src/embed/types.js";
import { VectorFiller, yieldingEmbedder } from "../src/index/background.js";
import { indexFile } from "../src/index/db.js";
import { closeIndexes, search } from "../src/index/index.js";
import { pendingVectors } from "../src/index/sync.js";
import { recall } from "../src/recall/recall.js";
import { acquireWorkspaceLock, isWorkspaceLocked } from "../src/workspace/lock.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { hashEmbedder, makeWorkspace } from "./index-support.js";

const roots: string[] = [];

afterEach(async () => {
  closeIndexes();
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

/** An embedder whose every call waits until the test opens the gate. */
function heldEmbedder(): { embedder: Embedder; open: () => void; calls: () => number } {
  const inner = hashEmbedder(32);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let calls = 0;
  const embedder: Embedder = {
    id: inner.id,
    model: inner.model,
    dims: inner.dims,
    async embed(texts) {
      calls++;
      await gate;
      return inner.embed(texts);
    },
  };
  return { embedder, open, calls: () => calls };
}

async function workspace(): Promise<Workspace> {
  const days: Record<string, string> = {};
  for (let d = 1; d <= 28; d++) {
    const day = `2026-02-${String(d).padStart(2, "0")}`;
    days[`memory/${day}.md`] =
      `# ${day}\n\nStandup notes, coffee with Ravi about the billing migration (ticket BIL-${100 + d}).\n\n` +
      `## Retain\n- W @Ravi: billing migration step ${d} done, BIL-${100 + d} closed.\n`;
  }
  days["memory/2026-02-14.md"] += "- O(c=0.8) @Ravi: prefers Postgres advisory locks over Redis for the cutover.\n";
  const ws = await makeWorkspace(days, (c) => {
    c.embedding.batchSize = 8;
  });
  roots.push(ws.root);
  return ws;
}

describe("VectorFiller", () => {
  it("answers from BM25 at once while the vectors are built in the background, then uses them", async () => {
    const ws = await workspace();
    const held = heldEmbedder();
    const choice: EmbedderChoice = { embedder: held.embedder, provider: "hash", model: held.embedder.model };
    const ends: string[] = [];
    const filler = new VectorFiller(ws, async () => choice, { onPassEnd: (s) => ends.push(s.state) });

    const plan = await filler.prepare();
    expect(plan.embedder.embedder).toBeNull();
    expect(plan.embedder.fallback).toMatch(/embedding the index in the background \(0\/\d+ chunks\)/);
    // The query does not wait for the embedder: it is held, and the answer comes anyway.
    const answer = await recall(ws, "what does Ravi prefer for the cutover?", {
      embedder: plan.embedder,
      sync: false,
    });
    expect(answer.results[0]?.content).toContain("advisory locks");
    expect(answer.provider).toBe("none");
    expect(answer.fallback).toMatch(/embedding the index in the background/);
    expect(filler.current().state).toBe("running");
    // The pass holds the workspace lock (taken asynchronously, so poll briefly).
    await vi.waitFor(async () => expect(await isWorkspaceLocked(ws)).toBe(true), { timeout: 5000 });

    // A second query while the pass runs reads the index as it is, without syncing under it.
    const during = await filler.prepare();
    expect((await search(ws, "BIL-107", { embedder: during.embedder, sync: false })).results[0]?.path).toBe(
      "memory/2026-02-07.md",
    );

    held.open();
    await filler.idle();
    expect(ends).toEqual(["complete"]);
    expect(pendingVectors(ws, held.embedder)).toBe(0);
    expect(await isWorkspaceLocked(ws)).toBe(false);

    const after = await filler.prepare();
    expect(after).toEqual({ embedder: choice });
    const hybrid = await recall(ws, "coffee chats with Ravi", { embedder: after.embedder, sync: false });
    expect(hybrid.provider).toBe("hash");
    expect(hybrid.fallback).toBeUndefined();
  });

  it("picks up new lines after the pass: BM25 first, their vectors in a second short pass", async () => {
    const ws = await workspace();
    const held = heldEmbedder();
    held.open();
    const choice: EmbedderChoice = { embedder: held.embedder, provider: "hash" };
    const filler = new VectorFiller(ws, async () => choice);
    await filler.prepare();
    await filler.idle();
    const callsBefore = held.calls();

    await appendFile(path.join(ws.root, "memory/2026-02-28.md"), "\nRavi's new desk phone: ext. 4471.\n");
    const plan = await filler.prepare();
    expect(plan.embedder.embedder).toBeNull();
    expect((await search(ws, "4471", { embedder: plan.embedder, sync: false })).results[0]?.path).toBe(
      "memory/2026-02-28.md",
    );
    await filler.idle();
    expect(held.calls()).toBeGreaterThan(callsBefore);
    expect(pendingVectors(ws, held.embedder)).toBe(0);
  });

  it("does not embed while another process holds the workspace lock, says why, and keeps answering", async () => {
    const ws = await workspace();
    const held = heldEmbedder();
    held.open();
    const choice: EmbedderChoice = { embedder: held.embedder, provider: "hash" };
    const filler = new VectorFiller(ws, async () => choice);
    const nightly = await acquireWorkspaceLock(ws, { purpose: "run nightly" });
    try {
      const plan = await filler.prepare();
      expect(plan.embedder.embedder).toBeNull();
      await filler.idle();
      expect(filler.current().state).toBe("failed");
      expect(filler.current().error).toMatch(/busy.*run nightly/);
      expect(held.calls()).toBe(0);
      // Within the retry wait: BM25, with the reason.
      const again = await filler.prepare();
      expect(again.embedder.fallback).toMatch(/have no hash vectors yet.*busy/);
      const r = await recall(ws, "BIL-120", { embedder: again.embedder, sync: false });
      expect(r.results[0]?.source).toMatch(/^memory\/2026-02-20\.md#/);
    } finally {
      await nightly.release();
    }
  });

  it("keeps answering while a model that computes on the main thread embeds (USE-like)", async () => {
    const ws = await workspace();
    const inner = hashEmbedder(32);
    // Busy for 15 ms per text and resolved without ever yielding, as TensorFlow.js on the CPU.
    let calls = 0;
    const cpuBound: Embedder = {
      id: "cpu-bound",
      model: inner.model,
      dims: inner.dims,
      embed(texts) {
        calls++;
        const until = performance.now() + 15 * texts.length;
        while (performance.now() < until) {
          // the model computing
        }
        return inner.embed(texts);
      },
    };
    const filler = new VectorFiller(ws, async () => ({ embedder: cpuBound, provider: "cpu-bound" }));
    await filler.prepare();
    // Once the model computes, a timer (as a client's next request) still gets its turn.
    await vi.waitFor(() => expect(calls).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
    const during = await filler.prepare();
    const r = await recall(ws, "BIL-115", { embedder: during.embedder, sync: false });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-02-15\.md#/);
    // The answer came while the pass was still embedding, not after it.
    const now = filler.current();
    expect(now.state).toBe("running");
    expect(now.done).toBeLessThan(now.total);
    await filler.idle();
    expect(filler.current().state).toBe("complete");
  });

  it("with no embedding provider, queries sync and run as before", async () => {
    const ws = await workspace();
    const none: EmbedderChoice = { embedder: null, provider: "none" };
    const filler = new VectorFiller(ws, async () => none);
    expect(await filler.prepare()).toEqual({ embedder: none });
    expect(filler.current().state).toBe("idle");
  });

  it("a query on an index that holds every file as it is writes nothing to it; a changed log is read first", async () => {
    const ws = await workspace();
    const none: EmbedderChoice = { embedder: null, provider: "none" };
    const filler = new VectorFiller(ws, async () => none);
    await filler.prepare();
    const file = indexFile(ws);
    // The index and its write-ahead log, as a warm server's every question would otherwise touch them.
    const stamp = () =>
      [file, `${file}-wal`].map((f) => (existsSync(f) ? `${statSync(f).size}:${statSync(f).mtimeMs}` : "-"));
    const before = stamp();
    for (let i = 0; i < 3; i++) {
      const plan = await filler.prepare();
      await recall(ws, "what does Ravi prefer for the cutover?", { embedder: plan.embedder, sync: false });
    }
    expect(stamp()).toEqual(before);

    await appendFile(path.join(ws.root, "memory/2026-02-27.md"), "\nRavi moved the cutover window to Sunday 02:00.\n");
    const plan = await filler.prepare();
    expect((await search(ws, "cutover window Sunday", { embedder: plan.embedder, sync: false })).results[0]?.path).toBe(
      "memory/2026-02-27.md",
    );
  });
});

describe("yieldingEmbedder", () => {
  it("feeds a model that never yields small slices, and gives whole batches to one that does", async () => {
    const sizes = (e: { sizes: number[] }) => e.sizes;
    const make = (yields: boolean) => {
      const inner = hashEmbedder(8);
      const e = {
        id: "t",
        model: "m",
        dims: 8,
        sizes: [] as number[],
        async embed(texts: string[]) {
          e.sizes.push(texts.length);
          // A model that hands the loop back (like a remote call); setImmediate, not a timer: a
          // 1 ms timer may fire before the loop's check phase on a busy machine.
          if (yields) await new Promise((r) => setImmediate(r));
          return inner.embed(texts);
        },
      };
      return e;
    };
    const blocking = make(false);
    const texts = Array.from({ length: 32 }, (_, i) => `text ${i}`);
    const out = await yieldingEmbedder(blocking).embed(texts);
    expect(out).toHaveLength(32);
    expect(sizes(blocking)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    const remote = make(true);
    const wrapped = yieldingEmbedder(remote);
    await wrapped.embed(texts);
    await wrapped.embed(texts);
    expect(sizes(remote)).toEqual([4, 4, 24, 32]);
    expect(wrapped.dims).toBe(8);
    expect(wrapped.id).toBe("t");
  });
});
