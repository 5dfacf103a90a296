import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../src/workspace/config.js";
import { memoryListing, relistMemoryFiles } from "../src/workspace/files.js";
import type { Workspace } from "../src/workspace/workspace.js";

// The nightly lists the workspace once (its retain step) and the index step brings that
// listing up to date with the files the run wrote (src/workspace/files.ts relistMemoryFiles):
// it must be what a new scan lists, or say it cannot be sure.

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): Workspace {
  const root = mkdtempSync(path.join(os.tmpdir(), "membank-listing-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) put(root, rel, text);
  return { root, config: defaultConfig() };
}

let clock = Date.now() + 5_000;
function put(root: string, rel: string, text: string): void {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  clock += 1_500; // a new mtime even when two writes share a millisecond
  utimesSync(abs, new Date(clock), new Date(clock));
}

const START: Record<string, string> = {
  "MEMORY.md": "# Core\n- Prefers tea over coffee, mostly\n",
  "memory/2025-03-01.md": "# 1 March\nlong day, the train was late again\n",
  "memory/2025-03-02.md": "## Retain\n- W @Ines: back from Porto\n",
  "memory/notes/2025-03-02-standup.md": "standup notes: nothing new\n",
  "bank/world.md": "# World\n",
  "bank/entities/Ines.md": "# Ines\n",
  "bank/entities/.draft.md": "not a memory file (hidden)\n",
  "memory/todo.txt": "not markdown\n",
};

describe("a run's listing brought up to date with what the run wrote", () => {
  it("equals a new scan after pages are rewritten, created in new folders, and deleted", () => {
    const paths = [
      "bank/world.md",
      "bank/entities/Ines.md",
      "bank/entities/Oona.md",
      "bank/topics/travel/Porto.md",
      "memory/2025-03-03-sessions.md",
      "memory/2025-03-01.md",
      "USER.md",
      "bank/entities/.draft.md",
      "memory/todo.txt",
      "bank/Notes.MD",
    ];
    const change = fc.record({
      file: fc.constantFrom(...paths),
      del: fc.boolean(),
      text: fc.string({ maxLength: 40 }),
    });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 8 }), (changes) => {
        const ws = workspace(START);
        const before = memoryListing(ws);
        for (const c of changes) {
          if (c.del) rmSync(path.join(ws.root, c.file), { force: true });
          else put(ws.root, c.file, c.text);
        }
        const relisted = relistMemoryFiles(
          ws,
          before,
          changes.map((c) => c.file),
        );
        expect(relisted).toEqual(memoryListing(ws));
      }),
      { numRuns: 40 },
    );
  });

  it("leaves it to a scan when the workspace has symlinks or a written file is refused", () => {
    const ws = workspace(START);
    symlinkSync(path.join(ws.root, "bank/entities/Ines.md"), path.join(ws.root, "bank/entities/Inês.md"));
    const linked = memoryListing(ws);
    expect(linked.links).toEqual(["bank/entities/Inês.md"]);
    expect(relistMemoryFiles(ws, linked, ["bank/world.md"])).toBeUndefined();

    const plain = workspace(START);
    const listing = memoryListing(plain);
    // A page someone hard-linked elsewhere: the scan refuses it with a reason; so must the relisting.
    linkSync(path.join(plain.root, "bank/world.md"), path.join(plain.root, "world-backup.md"));
    expect(relistMemoryFiles(plain, listing, ["bank/world.md"])).toBeUndefined();
    // Nothing written: the listing as it was.
    expect(relistMemoryFiles(plain, listing, [])).toEqual(listing);
  });
});
