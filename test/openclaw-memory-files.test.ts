import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes, getMemoryLines, search } from "../src/index/index.js";
import { recall } from "../src/recall/recall.js";
import { scanMemoryFiles } from "../src/workspace/files.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// An OpenClaw 2026.9 workspace: the bootstrap files beside the memory, as `openclaw setup` leaves them.
let w: Workspace;

beforeAll(async () => {
  w = await makeWorkspace({
    "AGENTS.md": "# AGENTS.md - Your Workspace\n\nRead SOUL.md first. Don't exfiltrate the zanzibar token.\n",
    "SOUL.md": "# SOUL.md\n\nBe genuinely helpful, not performatively helpful.\n",
    "USER.md":
      "# USER.md - About Your Human\n\n- **Name:** Dana Okafor\n- **What to call them:** Dana\n- **Timezone:** Europe/Lisbon\n" +
      "- **Notes:** allergic to hazelnuts; hates meetings before 10am; drives a 2014 Volvo V70\n",
    "MEMORY.md": "# MEMORY.md\n\n- Dana's sister is Ife.\n",
    "DREAMS.md": "# Dream Diary\n\nA recurring theme this week: the Volvo and long drives.\n",
    "memory/2026-09-14.md": "# 2026-09-14\n\nDana asked for a hazelnut-free cake recipe for Ife's birthday.\n",
  });
});

afterAll(() => {
  closeIndexes();
  rmSync(w.root, { recursive: true, force: true });
});

describe("OpenClaw's memory files", () => {
  it("lists USER.md with MEMORY.md and memory/, but not the other bootstrap files nor DREAMS.md", () => {
    expect(scanMemoryFiles(w).map((f) => f.path)).toEqual(["MEMORY.md", "USER.md", "memory/2026-09-14.md"]);
  });

  it("finds a fact that is only in USER.md, with search and recall", async () => {
    const found = await search(w, "Volvo V70");
    expect(found.results.map((r) => r.path)).toContain("USER.md");
    const recalled = await recall(w, "which car does Dana drive, the Volvo?");
    expect(recalled.results.some((r) => r.source.startsWith("USER.md#"))).toBe(true);
  });

  it("does not find text that only AGENTS.md holds", async () => {
    const found = await search(w, "zanzibar");
    expect(found.results).toEqual([]);
  });

  it("get reads USER.md and DREAMS.md (as OpenClaw's memory_get), and refuses AGENTS.md", async () => {
    expect((await getMemoryLines(w, "USER.md", { from: 3, lines: 1 })).text).toBe("- **Name:** Dana Okafor");
    expect((await getMemoryLines(w, "DREAMS.md", { from: 1, lines: 1 })).text).toBe("# Dream Diary");
    await expect(getMemoryLines(w, "AGENTS.md")).rejects.toThrow(/not a memory file \(MEMORY\.md, USER\.md/);
    await expect(getMemoryLines(w, "SOUL.md")).rejects.toThrow(/not a memory file/);
  });
});
