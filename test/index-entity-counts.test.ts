import { rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, listEntities, openIndex, syncIndex } from "../src/index/index.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// An incremental sync recounts only the entities whose fact links it touched (apply.ts
// refreshEntities). Whatever the edit, the entity rows must be those a rebuild gives.

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

function entities(w: Workspace) {
  return listEntities(openIndex(w));
}

/** Write a file with an mtime a few seconds on, so the sync sees it changed whatever the clock's grain. */
let tick = Date.now();
function put(w: Workspace, rel: string, text: string): void {
  const file = path.join(w.root, rel);
  writeFileSync(file, text);
  tick += 5000;
  utimesSync(file, new Date(tick), new Date(tick));
}

async function expectAsRebuilt(w: Workspace): Promise<void> {
  const incremental = await syncIndex(w);
  expect(incremental.rebuilt).toBe(false);
  const got = entities(w);
  closeIndexes();
  const rebuilt = await syncIndex(w, { full: true });
  expect(rebuilt.rebuilt).toBe(true);
  expect(got).toEqual(entities(w));
  closeIndexes();
}

describe("entity counts after an incremental sync", () => {
  it("equal a rebuild's when facts move between people, logs go and pages come and go", async () => {
    const w = await makeWorkspace({
      "memory/2025-04-07.md": [
        "# mon 7 april",
        "",
        "standup ran long again, Jonas had opinions",
        "",
        "## Retain",
        "- W @Jonas @Aiko: pairing on the billing export this week",
        "- O(c=0.6) @Jonas: thinks the cron should move to 2am",
        "- B: I rewrote the retry loop for @Aiko's importer",
        "",
      ].join("\n"),
      "memory/2025-04-09.md": "## Retain\n- W @Aiko: off Thursday (dentist)\n- S: slow week\n",
      "bank/entities/Aiko.md": "---\nname: Aiko Tanaka\naliases: []\n---\n# Aiko\n",
    });
    workspaces.push(w);
    await syncIndex(w);
    closeIndexes();
    expect(entities(w).map((e) => [e.slug, e.facts])).toEqual([
      ["Aiko", 3],
      ["Jonas", 2],
    ]);
    closeIndexes();

    // A fact changes hands, a new person shows up, one line is dropped.
    put(
      w,
      "memory/2025-04-07.md",
      "# mon 7 april\n\n## Retain\n- W @Priya @Aiko: pairing on the billing export this week\n- B: I rewrote the retry loop for @Aiko's importer\n",
    );
    await expectAsRebuilt(w);

    // The log that held Aiko's other fact is deleted; a page for someone with no facts appears.
    unlinkSync(path.join(w.root, "memory/2025-04-09.md"));
    put(w, "bank/entities/Ravi.md", "# Ravi\n\nmet at the meetup, no facts yet\n");
    await expectAsRebuilt(w);

    // Jonas's last fact went with the edit above: only a page would keep him; Aiko's page goes too.
    unlinkSync(path.join(w.root, "bank/entities/Aiko.md"));
    put(w, "memory/2025-04-10.md", "## Retain\n- W @jonas: back from leave\n");
    await expectAsRebuilt(w);
    expect(entities(w).map((e) => [e.slug, e.facts, e.page])).toEqual([
      ["Aiko", 2, null],
      ["Priya", 1, null],
      ["Ravi", 0, "bank/entities/Ravi.md"],
      ["jonas", 1, null],
    ]);
  });
});
