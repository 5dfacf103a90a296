// A question with a misspelt word ("cluch", "ceasarean") finds the memory's word one edit
// away; a real word the memory never holds ("repair") is not taken for a misspelling of one
// it does ("repaid").
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let dir: string;
let ws: Workspace;
const asOf = new Date("2026-05-20T12:00:00Z");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-spelling-"));
  await mkdir(path.join(dir, "memory"));
  await writeFile(
    path.join(dir, "memory/2026-05-04.md"),
    "van in at the garage, Kev says the clutch is shot, £640 all in\nrained all day, walked the dog anyway\n",
  );
  await writeFile(
    path.join(dir, "memory/2026-05-11.md"),
    "emergency caesarean on a ewe at 6am, both alive\nSam repaid the £20 he owed me\n",
  );
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

const top = async (q: string) => (await recall(ws, q, { asOf, k: 3 })).results.map((r) => r.source);

describe("recall reads a misspelt word as the memory's word one edit away", () => {
  it("finds the line of a word with a letter missing or two letters swapped", async () => {
    expect((await top("how much was the cluch?"))[0]).toMatch(/^memory\/2026-05-04\.md#L1-/u);
    expect((await top("when was the ceasarean?"))[0]).toMatch(/^memory\/2026-05-11\.md#L1-/u);
  });

  it("leaves a dictionary word alone even when the memory has a word one edit from it", async () => {
    expect(await top("who did the repair?")).not.toContainEqual(expect.stringMatching(/^memory\/2026-05-11\.md/u));
  });
});
