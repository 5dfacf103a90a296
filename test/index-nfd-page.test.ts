/**
 * An entity page whose file name is decomposed (NFD: `Zoë.md` as e + U+0308), as a sync from an
 * old Mac (HFS+) leaves it, while the logs' facts name @Zoë composed (NFC), as people type it.
 * The index took the page's entity name from the file name as it is on disk: the page and the
 * facts were two entities that look the same, and a question about Zoë found one or the other.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, listEntities, openIndex, syncIndex } from "../src/index/index.js";
import { entityReport } from "../src/mcp/server.js";
import { recall } from "../src/recall/index.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

let ws: Workspace | undefined;
afterEach(() => {
  closeIndexes();
  if (ws) rmSync(ws.root, { recursive: true, force: true });
});

const NFC = "Zo\u00eb";
const NFD = "Zoe\u0308";
const FILES = {
  "memory/2026-06-01.md": `Dinner at ${NFC}'s.\n\n## Retain\n- W @${NFC}: keeps bees on the roof of her building\n`,
  "memory/2026-06-08.md": `## Retain\n- W @${NFC}: sold forty jars of honey at the Saturday market\n`,
};
/** No title of its own: its name is its file name. */
const PAGE = "Met her through the allotment society.\n";

describe("an entity page with a decomposed (NFD) file name", () => {
  it("is one entity with the facts about the composed name: listed, reported and recalled as Zoë", async () => {
    ws = await makeWorkspace({ ...FILES, [`bank/entities/${NFD}.md`]: PAGE });
    await syncIndex(ws);
    const zoes = listEntities(openIndex(ws)).filter((e) => e.slug.normalize("NFC") === NFC);
    expect(zoes).toEqual([{ slug: NFC, name: NFC, aliases: [], page: `bank/entities/${NFD}.md`, facts: 2 }]);

    const report = await entityReport(ws, NFC);
    expect(report.entity).toBe(NFC);
    expect(report.page?.path).toBe(`bank/entities/${NFD}.md`);
    expect(report.facts.map((f) => f.source)).toEqual(["memory/2026-06-08.md#L2-L2", "memory/2026-06-01.md#L4-L4"]);

    // Recall answers as it does with the page's name composed on disk (the facts, then the same page lines).
    const asked = async (w: Workspace) => {
      const r = await recall(w, `tell me about ${NFC}`);
      return { entities: r.intent.entities, sources: r.results.map((x) => x.source.normalize("NFC")) };
    };
    const got = await asked(ws);
    expect(got.entities).toEqual([NFC]);
    const composed = await makeWorkspace({ ...FILES, [`bank/entities/${NFC}.md`]: PAGE });
    try {
      expect(got).toEqual(await asked(composed));
    } finally {
      rmSync(composed.root, { recursive: true, force: true });
    }
  });
});
