// Same input, same bytes (DESIGN.md 1.2), whatever order the input arrives in: reflect's
// pages from facts in any order, and recall's answers from an index whose rows were
// inserted in any order (ties at equal scores are broken by place, never by row order).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { syncIndex } from "../src/index/sync.js";
import { recall } from "../src/recall/recall.js";
import { evolveOpinions } from "../src/reflect/evolve.js";
import { renderBank } from "../src/reflect/render.js";
import { KnownNames } from "../src/reflect/topic.js";
import { parseRetain } from "../src/retain/parse.js";
import type { Fact } from "../src/retain/types.js";
import { openWorkspace } from "../src/workspace/workspace.js";

// Logs written the way people write them: repeats across days, two facts about the same
// people on one day, an opinion restated and then doubted, lines that tie on every score.
const LOGS: Record<string, string> = {
  "memory/2026-02-02.md": `# Mon

Slow start, coffee with Priya.

## Retain
- W @Priya: Moved the standup to 9:30 because of the school run.
- O(c=0.7) @Priya: Prefers async updates over meetings.
- B: Fixed the flaky upload test (retry on 503).
- W @Jonas @Priya: Pairing on the billing export this week.
`,
  "memory/2026-02-03.md": `# Tue

## Retain
- W @Jonas: Pairing on the billing export this week.
- O @Priya: Prefers async updates over meetings.
- S: Quiet day, mostly reviews.
- W @Mara: Back from Lisbon, jet-lagged.
`,
  "memory/2026-02-04.md": `Notes

- talked billing export again, Jonas wants CSV and JSON
- billing export: CSV first

## Retain
- O(c=0.4) @Priya: Not sure async updates work for the billing team anymore.
- W @Mara: Back from Lisbon, jet-lagged.
- B @Jonas: I reviewed Jonas's CSV exporter; two small fixes.
`,
  "memory/2026-02-05-sessions.md": `# Sessions of 2026-02-05

- billing export: CSV first
- talked billing export again, Jonas wants CSV and JSON
`,
};

const dirs: string[] = [];
afterEach(() => closeIndexes());
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspaceDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "membank-order-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  return dir;
}

describe("output order does not follow input order", () => {
  it("reflect: the same pages from the facts in any order", async () => {
    const dir = workspaceDir();
    const ws = await openWorkspace(dir);
    const facts = Object.entries(LOGS).flatMap(([p, text]) => parseRetain(p, text).facts);
    expect(facts.length).toBeGreaterThan(8);
    const pages = async (list: Fact[]) => {
      // Each run gets its own copies: reflect's stages may annotate what they are given.
      const own = structuredClone(list);
      const evolved = await evolveOpinions({
        opinions: [],
        facts: own,
        constants: ws.config.reflect.confidence,
        matching: ws.config.reflect.matching,
        defaultConfidence: ws.config.retain.defaultConfidence,
        knownNames: KnownNames.fromFacts(own),
      });
      const out = await renderBank({
        ws,
        facts: own,
        opinions: evolved.opinions,
        adopted: new Set(),
        entityTexts: new Map(),
        today: "2026-02-06",
      });
      return JSON.stringify(out.pages.map((p) => [p.path, p.after]));
    };
    const want = await pages(facts);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(facts, { minLength: facts.length }), async (shuffled) => {
        expect(await pages(shuffled)).toBe(want);
      }),
      { numRuns: 15 },
    );
  });

  it("recall: the same answers from an index filled in any order", async () => {
    const names = Object.keys(LOGS);
    const questions = [
      "billing export CSV",
      "Pairing on the billing export this week",
      "What does Priya prefer?",
      "Back from Lisbon",
      "what happened on February 3rd",
      "Mara",
    ];
    const answers = async (order: readonly string[]) => {
      const dir = workspaceDir();
      const ws = await openWorkspace(dir);
      // One file per sync: the index's row ids follow this order.
      for (const name of order) {
        writeFileSync(path.join(dir, name), LOGS[name]!);
        await syncIndex(ws);
      }
      const out: string[] = [];
      for (const q of questions) {
        const r = await recall(ws, q, { asOf: new Date("2026-02-06T12:00:00Z"), sync: false, k: 8 });
        out.push(JSON.stringify(r.results));
      }
      closeIndexes();
      return out;
    };
    const want = await answers(names);
    expect(want.every((a) => a !== "[]")).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(names, { minLength: names.length }), async (order) => {
        expect(await answers(order)).toEqual(want);
      }),
      { numRuns: 4 },
    );
  }, 60_000);
});
