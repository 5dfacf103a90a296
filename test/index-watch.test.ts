import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, type SyncReport, search, watchIndex } from "../src/index/index.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

let w: Workspace | undefined;
afterEach(() => {
  closeIndexes();
  if (w) rmSync(w.root, { recursive: true, force: true });
});

describe("watchIndex", () => {
  it("syncs on start, after a debounced burst of changes, and stops cleanly", async () => {
    w = await makeWorkspace({ "memory/2026-03-01.md": "# Day\n\n- first note about kiwis\n" });
    const syncs: { why: string; report: SyncReport }[] = [];
    const errors: unknown[] = [];
    const watcher = watchIndex(w, {
      debounceMs: 150,
      onSync: (report, why) => syncs.push({ why, report }),
      onError: (e) => errors.push(e),
    });
    await watcher.ready;
    expect(syncs.map((s) => s.why)).toEqual(["start"]);
    expect(syncs[0]!.report.changed).toBe(1);

    // A burst of writes becomes one sync.
    await writeFile(path.join(w.root, "memory/2026-03-02.md"), "# Day\n\n- mangoes arrived\n");
    await writeFile(path.join(w.root, "memory/2026-03-03.md"), "# Day\n\n- papayas arrived\n");
    const deadline = Date.now() + 10_000;
    while (syncs.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 400));
    expect(syncs.length).toBe(2);
    expect(syncs[1]).toMatchObject({ why: "change", report: { changed: 2 } });
    // The watcher's sync is what search sees, without its own sync.
    const res = await search(w, "papayas", { sync: false });
    expect(res.results[0]?.path).toBe("memory/2026-03-03.md");

    await watcher.close();
    await writeFile(path.join(w.root, "memory/2026-03-04.md"), "# Day\n\n- after close\n");
    await new Promise((r) => setTimeout(r, 400));
    expect(syncs.length).toBe(2);
    expect(errors).toEqual([]);
  });
});
