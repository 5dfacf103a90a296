// Vectors as a candidate source (issue 14 item 3): with the offline Universal Sentence
// Encoder, a question that shares no word with its answer still finds the line, even when
// other lines share a word with the question. Slow-ish: loads the model once.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveEmbedder } from "../src/embed/resolve.js";
import type { Embedder, EmbedderChoice } from "../src/embed/types.js";
import { closeIndexes } from "../src/index/handles.js";
import { syncIndex } from "../src/index/sync.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { hashEmbedder } from "./index-support.js";

let dir: string;
let ws: Workspace;
let use: EmbedderChoice;
const asOf = new Date("2026-04-30T12:00:00Z");

const LOGS: Record<string, string> = {
  "2026-04-06.md": `# 6 April

- pet insurance renewal came in the post, 14 quid a month more
- paid the electricity bill
- plumber came, finally
- the team adopted the new expense tool, hate it already
`,
  "2026-04-09.md": `pet shop on Kirk St closed down :(
`,
  "2026-04-14.md": `## notes
Sam's birthday drinks friday, bring cake?
brought the rescue puppy home, we named her Biscuit
dentist moved to the 22nd
`,
  "2026-04-18.md": `- knee still sore, back to the 5k plan for now
- Priya's group adopted Rust for the parser rewrite
`,
  "2026-04-22.md": `# Wed

dentist at 8:15. then groceries
new monitor arrived, the old one goes to Priya
the neighbours' pet rabbit got out again
`,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-semantic-"));
  await mkdir(path.join(dir, "memory"));
  for (const [name, text] of Object.entries(LOGS)) await writeFile(path.join(dir, "memory", name), text);
  ws = await openWorkspace(dir);
  use = await resolveEmbedder(ws, { provider: "use" });
  await syncIndex(ws, { embedder: use });
}, 120_000);

afterAll(async () => {
  closeIndexes();
  await use?.embedder?.close?.();
  await rm(dir, { recursive: true, force: true });
});

const PUPPY = /^memory\/2026-04-14\.md#L\d+-L\d+$/;
const QUESTION = "what pet did we adopt?";

describe("semantic candidates", () => {
  it("finds the line that says it in other words", async () => {
    expect(use.embedder).not.toBeNull();
    const ask = async (weights?: Record<string, number>) =>
      (await recall(ws, QUESTION, { asOf, k: 3, embedder: use, sync: false, ...(weights ? { weights } : {}) })).results;
    // The vector arm alone mostly re-ranks: the lines sharing "pet" or "adopt" keep the top.
    const without = await ask({ semantic: 0 });
    expect(without.map((r) => r.source)).not.toContainEqual(expect.stringMatching(PUPPY));
    const found = await ask();
    const hit = found.find((r) => PUPPY.test(r.source));
    expect(hit?.content).toContain("Biscuit");
  }, 60_000);

  it("changes nothing without vectors", async () => {
    const bm25 = await recall(ws, QUESTION, { asOf, k: 3, sync: false });
    const off = await recall(ws, QUESTION, { asOf, k: 3, sync: false, weights: { semantic: 0 } });
    expect(bm25.results).toEqual(off.results);
    expect(bm25.provider).toBe("none");
  });
});

describe("semantic candidates when the provider fails", () => {
  it("answers from BM25 with one note, like the vector arm", async () => {
    const d = await mkdtemp(path.join(tmpdir(), "membank-semantic-down-"));
    try {
      await mkdir(path.join(d, "memory"));
      for (const [name, text] of Object.entries(LOGS)) await writeFile(path.join(d, "memory", name), text);
      const w = await openWorkspace(d);
      const hash = hashEmbedder(16);
      await syncIndex(w, { embedder: { embedder: hash, provider: hash.id, model: hash.model } });
      const down: Embedder = {
        id: hash.id,
        model: hash.model,
        dims: 16,
        embed: async () => {
          throw new Error("provider down");
        },
      };
      const res = await recall(w, QUESTION, {
        asOf,
        k: 3,
        sync: false,
        embedder: { embedder: down, provider: hash.id },
      });
      const bm25 = await recall(w, QUESTION, { asOf, k: 3, sync: false });
      expect(res.provider).toBe("none");
      expect(res.fallback?.match(/provider down/g)).toHaveLength(1);
      expect(res.results).toEqual(bm25.results);
    } finally {
      closeIndexes();
      await rm(d, { recursive: true, force: true });
    }
  });
});
