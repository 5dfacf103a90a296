import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes, openIndex, syncIndex } from "../src/index/index.js";
import { factsOfEntities } from "../src/index/recall-queries.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let tmp: string;
let ws: Workspace;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-candidates-"));
  await mkdir(path.join(tmp, "memory"));
  await writeFile(path.join(tmp, "MEMORY.md"), "# Core\n");
  // @Mara is on every day (dense), @Wei on a few: both query plans must give the same rows.
  for (let day = 1; day <= 28; day++) {
    const d = `2026-02-${String(day).padStart(2, "0")}`;
    const lines = [
      `# ${d}`,
      "",
      "## Retain",
      `- W @Mara: Worked on item ${day}.`,
      `- O(c=0.6) @Mara: Prefers plan ${day}.`,
    ];
    if (day % 7 === 0) lines.push(`- B @Wei @Mara: I paired with Wei on ${day}.`);
    await writeFile(path.join(tmp, "memory", `${d}.md`), `${lines.join("\n")}\n`);
  }
  await writeFile(path.join(tmp, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  ws = await openWorkspace(tmp);
  await syncIndex(ws);
});
afterAll(async () => {
  closeIndexes();
  await rm(tmp, { recursive: true, force: true });
});

describe("factsOfEntities", () => {
  it("returns the newest facts first, the same rows whether the entity is dense or rare", () => {
    const idx = openIndex(ws);
    const ids = (rows: { path: string; line: number }[]) => rows.map((r) => `${r.path}#${r.line}`);
    const all = factsOfEntities(idx, ["Mara"], 1000); // 60 facts < 4 x 1000: fetches every fact of Mara
    expect(all).toHaveLength(60);
    const few = factsOfEntities(idx, ["Mara"], 5); // 60 > 4 x 5: walks facts newest first
    expect(ids(few)).toEqual(ids(all.slice(0, 5)));
    expect(few[0]?.date).toBe("2026-02-28");
    const opinions = factsOfEntities(idx, ["Mara"], 3, "opinion");
    expect(opinions.map((f) => f.content)).toEqual(["Prefers plan 28.", "Prefers plan 27.", "Prefers plan 26."]);
    expect(factsOfEntities(idx, ["Wei"], 2).map((f) => f.date)).toEqual(["2026-02-28", "2026-02-21"]);
    expect(factsOfEntities(idx, ["Wei"], 2)[0]?.entities).toEqual(["Wei", "Mara"]);
    idx.close();
  });
});
