import { rmSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  bm25Opinions,
  buildMatchQuery,
  closeIndexes,
  hasOpinions,
  openIndex,
  opinionsAll,
  opinionsByEntity,
  opinionsByEvidence,
  SCHEMA_VERSION,
  syncIndex,
} from "../src/index/index.js";
import { type Opinion, renderOpinion } from "../src/markdown/opinions.js";
import { renderRegion } from "../src/markdown/regions.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

const LOG = `# 2026-03-02

## Retain

- O(c=0.8) @Mara: Prefers async written status updates over live standup meetings.
- O(c=0.7) @Mara: Standups are a waste of time.
`;

const TEA: Opinion = {
  id: "op-aaaaaaaaaaaa",
  statement: "Prefers async written status updates over live standup meetings.",
  entities: ["Mara"],
  confidence: 0.84,
  previous: 0.82,
  created: "2026-03-02",
  lastUpdated: "2026-03-15",
  evidence: [
    {
      factId: "aaaaaaaaaaaa",
      date: "2026-03-02",
      stance: "support",
      source: { path: "memory/2026-03-02.md", line: 5 },
    },
    {
      factId: "cccccccccccc",
      date: "2026-03-09",
      stance: "contradict",
      source: { path: "memory/2026-03-09.md", line: 7 },
      content: "Asked for a live standup again.",
    },
  ],
};
const SHIP: Opinion = {
  id: "op-bbbbbbbbbbbb",
  statement: "ledger-sync ships in March.",
  entities: ["Jonas", "ledger-sync"],
  confidence: 0.62,
  created: "2026-03-03",
  lastUpdated: "2026-03-13",
  evidence: [],
};

function page(ops: Opinion[]): string {
  return `# Opinions\n\nProse a person wrote.\n\n${ops.map((o) => renderRegion(o.id, renderOpinion(o))).join("\n\n")}\n`;
}

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

describe("opinions in the index", () => {
  it("fills the opinion tables from bank/opinions.md, follows edits, clears them on delete", async () => {
    const w = await makeWorkspace({ "memory/2026-03-02.md": LOG, "bank/opinions.md": page([TEA, SHIP]) });
    workspaces.push(w);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
    await syncIndex(w);
    const idx = openIndex(w);
    try {
      const all = opinionsAll(idx);
      expect(all.map((o) => o.id)).toEqual([TEA.id, SHIP.id]);
      const tea = all[0]!;
      expect(tea).toMatchObject({
        statement: TEA.statement,
        entities: ["Mara"],
        confidence: 0.84,
        previous: 0.82,
        firstStated: "2026-03-02",
        lastUpdated: "2026-03-15",
        path: "bank/opinions.md",
      });
      expect(tea.evidence).toEqual([
        { factId: "aaaaaaaaaaaa", source: "memory/2026-03-02.md#L5", stance: "support", date: "2026-03-02" },
        { factId: "cccccccccccc", source: "memory/2026-03-09.md#L7", stance: "contradict", date: "2026-03-09" },
      ]);
      const lines = page([TEA, SHIP]).split("\n");
      expect(lines[tea.startLine - 1]).toBe(`### ${TEA.statement}`);
      expect(lines[tea.endLine - 1]).toContain("memory/2026-03-09.md#L7");
      expect(all[1]!.previous).toBeNull();
      expect(all[1]!.entities).toEqual(["Jonas", "ledger-sync"]);

      expect(opinionsByEntity(idx, ["jonas"]).map((o) => o.id)).toEqual([SHIP.id]);
      expect(opinionsByEntity(idx, ["Nobody"])).toEqual([]);
      const hits = bm25Opinions(idx, buildMatchQuery("status updates"), 5);
      expect(hits.map((h) => h.row.id)).toEqual([TEA.id]);
      expect(hits[0]!.row.evidence).toHaveLength(2);
      expect(opinionsByEvidence(idx, ["cccccccccccc"])).toEqual([
        { factId: "cccccccccccc", stance: "contradict", opinion: tea },
      ]);
      expect(hasOpinions(idx)).toBe(true);
    } finally {
      idx.close();
    }

    // A person sets a confidence by hand and drops an opinion: the next sync follows the page.
    await writeFile(path.join(w.root, "bank/opinions.md"), page([{ ...TEA, confidence: 0.5 }]));
    const report = await syncIndex(w);
    expect(report.changed).toBe(1);
    const idx2 = openIndex(w);
    try {
      expect(opinionsAll(idx2).map((o) => [o.id, o.confidence])).toEqual([[TEA.id, 0.5]]);
      expect(bm25Opinions(idx2, buildMatchQuery("ledger"), 5)).toEqual([]);
      expect(idx2.db.prepare("SELECT count(*) FROM opinion_entities").pluck().get()).toBe(1);
    } finally {
      idx2.close();
    }

    await rm(path.join(w.root, "bank/opinions.md"));
    await syncIndex(w);
    const idx3 = openIndex(w);
    try {
      expect(hasOpinions(idx3)).toBe(false);
      for (const table of ["opinions", "opinion_entities", "opinion_evidence"]) {
        expect(idx3.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
      }
      // The facts of the logs are untouched.
      expect(idx3.db.prepare("SELECT count(*) FROM facts WHERE kind = 'opinion'").pluck().get()).toBe(2);
    } finally {
      idx3.close();
    }
  });

  it("a page that does not parse gives no opinions and does not stop the sync", async () => {
    const w = await makeWorkspace({
      "bank/opinions.md": "# Opinions\n\n<!-- membank:begin op-x -->\n### Unclosed region\n",
    });
    workspaces.push(w);
    const report = await syncIndex(w);
    expect(report.chunks).toBeGreaterThan(0);
    const idx = openIndex(w);
    try {
      expect(hasOpinions(idx)).toBe(false);
    } finally {
      idx.close();
    }
  });
});
