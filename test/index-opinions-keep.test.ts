import { rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, openIndex, syncIndex } from "../src/index/index.js";
import { storeOpinions } from "../src/index/opinions.js";
import { type Evidence, type Opinion, renderOpinion } from "../src/markdown/opinions.js";
import { renderRegion } from "../src/markdown/regions.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// A night moves one opinion of bank/opinions.md and shifts the lines of every opinion below it.
// The index keeps the rows of the opinions that did not change; its tables must still be exactly
// what a fresh build of the same page gives (rids, FTS entries and all).

const PAGE = "bank/opinions.md";

function evidence(prefix: string, n: number, from = 0): Evidence[] {
  return Array.from({ length: n }, (_, i) => ({
    factId: `${prefix}${String(from + i).padStart(11, "0")}`,
    date: `2025-${String(1 + ((from + i) % 12)).padStart(2, "0")}-${String(1 + ((from + i) % 28)).padStart(2, "0")}`,
    stance: (from + i) % 5 === 0 ? ("contradict" as const) : ("support" as const),
    source: { path: `memory/2025-01-${String(1 + ((from + i) % 28)).padStart(2, "0")}.md`, line: 5 + ((from + i) % 9) },
  }));
}

const opinion = (id: string, statement: string, entities: string[], c: number, ev: Evidence[]): Opinion => ({
  id,
  statement,
  entities,
  confidence: c,
  created: "2025-01-01",
  lastUpdated: "2025-06-01",
  evidence: ev,
});

const BASE: Opinion[] = [
  opinion("op-aaaaaaaaaaaa", "Async status updates beat the daily standup.", ["Mara"], 0.72, evidence("a", 40)),
  opinion(
    "op-bbbbbbbbbbbb",
    "ledger-sync will ship before the audit.",
    ["Jonas", "ledger-sync"],
    0.55,
    evidence("b", 25),
  ),
  opinion(
    "op-cccccccccccc",
    "Postgres is not the bottleneck, the ORM is.",
    ["Priya", "Postgres"],
    0.81,
    evidence("c", 60),
  ),
  opinion("op-dddddddddddd", "The Berlin office is too cold in winter.", ["Wei"], 0.4, evidence("d", 12)),
];

function page(ops: Opinion[]): string {
  return `# Opinions\n\nWritten by membank.\n\n${ops.map((o) => renderRegion(o.id, renderOpinion(o))).join("\n\n")}\n`;
}

const TABLES = [
  "SELECT rid, id, statement, confidence, previous, first_stated, last_updated, path, start_line, end_line, status, trajectory FROM opinions ORDER BY rid",
  "SELECT opinion_id, entity, pos FROM opinion_entities ORDER BY opinion_id, pos",
  "SELECT opinion_id, pos, fact_id, source, stance, date FROM opinion_evidence ORDER BY opinion_id, pos",
];
const WORDS = ["standup", "ledger", "bottleneck", "cold", "winter", "ship", "orm", "audit"];

/** Every opinion row, and which rids each word finds in the FTS table (the index's answers). */
function dump(w: Workspace): unknown {
  const idx = openIndex(w);
  try {
    const fts = WORDS.map((word) =>
      idx.db.prepare("SELECT rowid FROM opinions_fts WHERE opinions_fts MATCH ? ORDER BY rowid").pluck().all(word),
    );
    idx.db.prepare("INSERT INTO opinions_fts(opinions_fts) VALUES ('integrity-check')").run();
    return { tables: TABLES.map((sql) => idx.db.prepare(sql).raw().all()), fts };
  } finally {
    idx.close();
  }
}

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

async function fresh(text: string): Promise<unknown> {
  const w = await makeWorkspace({ [PAGE]: text });
  workspaces.push(w);
  await syncIndex(w);
  return dump(w);
}

describe("a changed opinions page in the index", () => {
  it("holds the rows a fresh build gives, night after night, whatever changed", async () => {
    const w = await makeWorkspace({ [PAGE]: page(BASE) });
    workspaces.push(w);
    await syncIndex(w);
    const [a, b, c, d] = BASE as [Opinion, Opinion, Opinion, Opinion];
    const grown = { ...a, confidence: 0.75, previous: 0.72, lastUpdated: "2025-06-02", evidence: evidence("a", 43) };
    const gone = { ...c, evidence: c.evidence.map((e, i) => (i === 7 ? { ...e, gone: true as const } : e)) };
    const nights: [string, Opinion[]][] = [
      ["one opinion gains evidence, the rest shift down", [grown, b, c, d]],
      ["nothing changed but a line of prose", [grown, b, c, d]],
      ["an evidence line is gone from its log", [grown, b, gone, d]],
      [
        "an opinion gains an entity and a hand-set confidence",
        [grown, { ...b, entities: [...b.entities, "Audit"], confidence: 0.3 }, gone, d],
      ],
      ["an entity named twice", [grown, b, { ...gone, entities: ["Priya", "Postgres", "Priya"] }, d]],
      [
        "a statement edited by hand",
        [grown, b, { ...gone, statement: "The ORM, not Postgres, is the bottleneck." }, d],
      ],
      [
        "a new opinion at the top",
        [opinion("op-eeeeeeeeeeee", "Standups could be shorter.", ["Mara"], 0.6, evidence("e", 3)), grown, b, gone, d],
      ],
      ["an opinion dropped", [grown, gone, d]],
      ["two swap places", [grown, d, gone]],
      ["a half-finished edit of one region", [grown, d, gone]],
      ["the edit finished", [grown, d, gone]],
    ];
    for (const [what, ops] of nights) {
      let text = page(ops);
      if (what.includes("prose"))
        text = (await readFile(path.join(w.root, PAGE), "utf8")).replace("Written by membank.", "Written by me.");
      if (what.includes("half-finished")) text = text.replace(/- confidence: 0\.40\b/, "- confidence: about 0.4?");
      await writeFile(path.join(w.root, PAGE), text);
      await syncIndex(w);
      const want = (await fresh(text)) as { tables: unknown[][] };
      // The half-finished region gives no opinion (its lines stay searchable as text).
      if (what.includes("half-finished")) expect(want.tables[0]).toHaveLength(ops.length - 1);
      expect(dump(w), what).toEqual(want);
    }
  });

  it("a night that moves one opinion rewrites that opinion's rows, not the page's", async () => {
    const w = await makeWorkspace({ [PAGE]: page(BASE) });
    workspaces.push(w);
    await syncIndex(w);
    const [a, ...rest] = BASE as [Opinion, ...Opinion[]];
    const text = page([{ ...a, confidence: 0.75, previous: 0.72, evidence: evidence("a", 41) }, ...rest]);
    const idx = openIndex(w);
    try {
      const changes = idx.db.prepare("SELECT total_changes()").pluck();
      const before = changes.get() as number;
      idx.db.transaction(() => storeOpinions(idx.db, PAGE, text, page(BASE)))();
      // 137 evidence rows on the page (every one rewritten before): now the moved opinion's 40
      // out and 41 in, its row, its entity out and in, and the 3 rows below it shifted.
      expect((changes.get() as number) - before).toBe(40 + 41 + 1 + 2 + 3);
    } finally {
      idx.close();
    }
  });
});
