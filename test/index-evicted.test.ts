// A log iCloud Drive evicted (only `.2026-03-04.md.icloud` is on the disk) is not a deleted
// one: reflect stops rather than drop its facts (test/log-cloud-stray.test.ts), and the index
// keeps what it read there, so recall still finds its lines until the file comes back.
// Before: the sync removed its lines and facts, and every recall missed them.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { indexIsCurrent } from "../src/index/freshness.js";
import { closeIndexes, indexStatus, syncIndex } from "../src/index/index.js";
import { recall } from "../src/recall/recall.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

const LOG = `# Wednesday 4 March

Rang the boiler man again. Gary says the heat exchanger is cracked and the part is £340.

## Retain

- W @Gary: The boiler's heat exchanger is cracked; a new one costs £340.
`;

let ws: Workspace | undefined;

afterEach(async () => {
  closeIndexes();
  if (ws) await rm(ws.root, { recursive: true, force: true });
  ws = undefined;
});

const sources = async (w: Workspace, q: string) => (await recall(w, q)).results.map((r) => r.source).join(" ");

describe("a log evicted to the cloud, in the index", () => {
  it("keeps its lines and facts, says so, and counts as current; a download or a real deletion is followed", async () => {
    ws = await makeWorkspace({ "memory/2026-03-04.md": LOG, "memory/2026-03-05.md": "# 5 March\n\nQuiet day.\n" });
    const first = await syncIndex(ws);
    expect(first.facts).toBe(1);
    const log = path.join(ws.root, "memory/2026-03-04.md");
    const stub = path.join(ws.root, "memory/.2026-03-04.md.icloud");
    renameSync(log, stub);
    writeFileSync(stub, Buffer.from("bplist00\xd3\x01\x02\x03", "latin1"));

    const evicted = await syncIndex(ws);
    expect(evicted.removed).toBe(0);
    expect(evicted.facts).toBe(1);
    expect(evicted.warnings.join("\n")).toMatch(
      /memory\/2026-03-04\.md is not on this disk.*brctl download.*the index keeps what it read there before/,
    );
    expect(await sources(ws, "how much is the heat exchanger?")).toContain("memory/2026-03-04.md#L3");
    // Current: a question does not re-sync (a write) every time because of it.
    expect(indexIsCurrent(ws)).toBe(true);
    expect((await indexStatus(ws)).index.stale).toBe(0);

    // Downloaded again, with an edit made on another Mac: read afresh.
    rmSync(stub);
    writeFileSync(log, LOG.replace("£340", "£365"));
    await syncIndex(ws);
    expect((await recall(ws, "heat exchanger cost")).results.map((r) => r.content).join("\n")).toContain("£365");

    // Deleted for real (no placeholder): its rows go.
    rmSync(log);
    const gone = await syncIndex(ws);
    expect(gone.removed).toBe(1);
    expect(gone.facts).toBe(0);
  });
});
