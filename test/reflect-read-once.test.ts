// A reflect run reads the bank pages once, at its start (restored.ts checkPutBack), and renders
// from those texts: opinions.md and the typed pages are ~3 MB on ten years, and reading them a
// second time cost a +1-day nightly 16-20 ms CPU. What a run renders from is what it read then
// (absent = no such page), the same bytes as reading the disk when nothing changed meanwhile.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { loadOpinions } from "../src/reflect/load.js";
import { renderBank } from "../src/reflect/render.js";
import { parseRetain } from "../src/retain/parse.js";
import { openWorkspace } from "../src/workspace/workspace.js";

const LOGS: Record<string, string> = {
  "memory/2026-03-02.md": `# Mon

coffee w/ Priya, talked about the standup again

## Retain
- W @Priya: Moved the standup to 9:30 because of the school run.
- O(c=0.7) @Priya: Prefers async updates over meetings.
- B: Fixed the flaky upload test (retry on 503).
`,
  "memory/2026-03-03.md": `## Retain
- O(c=0.4) @Priya: not sure async updates work for the billing team anymore
- S: quiet day, mostly reviews
- W @Jonas: pairing on the billing export this week
`,
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function workspace() {
  const dir = mkdtempSync(path.join(tmpdir(), "membank-read-once-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  for (const [rel, text] of Object.entries(LOGS)) writeFileSync(path.join(dir, rel), text);
  writeFileSync(path.join(dir, "MEMORY.md"), "# MEMORY\n\n- Priya runs the standup.\n");
  const ws = await openWorkspace(dir);
  await reflect(ws, { commit: false, now: new Date("2026-03-04T06:00:00Z") });
  return { dir, ws };
}

describe("reflect renders from the bank pages as the run read them", () => {
  it("the texts handed in stand for the disk: same pages, and a page absent from them is written whole", async () => {
    const { dir, ws } = await workspace();
    const facts = Object.entries(LOGS).flatMap(([p, text]) => parseRetain(p, text).facts);
    const read = (rel: string) => readFileSync(path.join(dir, rel), "utf8");
    const base = { ws, facts, opinions: [], adopted: new Set<string>(), entityTexts: new Map(), today: "2026-03-04" };
    const fromDisk = await renderBank(base);
    const texts = new Map(
      ["bank/world.md", "bank/experience.md", "bank/observations.md", "bank/proposals.md"].map(
        (rel) => [rel, read(rel)] as const,
      ),
    );
    const fromTexts = await renderBank({ ...base, pageTexts: texts, core: read("MEMORY.md") });
    expect(fromTexts.pages.map((p) => [p.path, p.before, p.after])).toEqual(
      fromDisk.pages.map((p) => [p.path, p.before, p.after]),
    );
    // world.md was not there when the run read the bank: it is written whole, not merged with what came since.
    texts.delete("bank/world.md");
    const world = (await renderBank({ ...base, pageTexts: texts })).pages.find((p) => p.path === "bank/world.md");
    expect(world?.before).toBeUndefined();
    expect(world?.after).toContain("Moved the standup to 9:30");
  });

  it("opinions come from the page text the run read", async () => {
    const { dir, ws } = await workspace();
    const text = readFileSync(path.join(dir, "bank/opinions.md"), "utf8");
    const fromDisk = await loadOpinions(ws, "bank/opinions.md");
    expect(fromDisk.opinions.length).toBeGreaterThan(0);
    const fromText = await loadOpinions(ws, "bank/opinions.md", new Map([["bank/opinions.md", text]]));
    expect(fromText).toEqual(fromDisk);
    // Absent when read: no opinions yet, whatever the disk has now.
    expect((await loadOpinions(ws, "bank/opinions.md", new Map())).opinions).toEqual([]);
  });
});
