// Offline query expansion (issue 14 item 2): a question in other words than the notes finds
// the line through WordNet synonyms, below the lines that use the question's own words.
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
  dir = await mkdtemp(path.join(tmpdir(), "membank-synonyms-"));
  await mkdir(path.join(dir, "memory"));
  await writeFile(
    path.join(dir, "memory/2026-05-04.md"),
    "# Mon 4 May\n\nbooked the cottage in Dalarna for our holiday, 3 weeks in July!!\nkids' dentist moved to thursday\n",
  );
  await writeFile(
    path.join(dir, "memory/2026-05-11.md"),
    "# 11/5\n\n- Standup: nothing new. Coffee machine broken again\n- Invoice from the plumber came in, 4 200 SEK, due end of month\n",
  );
  await writeFile(
    path.join(dir, "memory/2026-05-18.md"),
    "## Notes\nVacation days left this year: 6 (HR portal says so)\nAsked Sam about the offsite agenda\n",
  );
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

const top = async (q: string, synonyms?: "always" | "paraphrase" | "off") =>
  (await recall(ws, q, { asOf, k: 3, ...(synonyms ? { synonyms } : {}) })).results.map((r) => r.source);

describe("recall with WordNet synonyms", () => {
  it("finds a line that says it in other words", async () => {
    expect(await top("how much was the plumbing bill?", "off")).not.toContainEqual(
      expect.stringMatching(/^memory\/2026-05-11\.md#L\d+-L\d+$/),
    );
    const found = await top("what was the plumbing bill?");
    expect(found[0]).toMatch(/^memory\/2026-05-11\.md#L[2-4]-L[4-5]$/);
  });

  it("keeps the lines with the question's own words first", async () => {
    const r = await top("vacation plans", "always");
    expect(r[0]).toMatch(/^memory\/2026-05-18\.md/);
    expect(r).toContainEqual(expect.stringMatching(/^memory\/2026-05-04\.md/));
  });

  it("by default, expands only when the question's own words find little", async () => {
    const own = await recall(ws, "vacation days left", { asOf, k: 3, explain: true });
    expect(own.explain!.arms.map((a) => a.arm)).not.toContain("synonyms");
    const other = await recall(ws, "what was the plumbing bill?", { asOf, k: 3, explain: true });
    expect(other.explain!.arms.map((a) => a.arm)).toContain("synonyms");
  });
});
