import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFacts } from "../retain/index.js";
import { openWorkspace } from "../workspace/workspace.js";
import { readWindowFacts } from "./window.js";

const root = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("readWindowFacts", () => {
  it("equals readFacts(ws, { since }) on bank.example, nested folders and duplicates included", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-window-"));
    dirs.push(dir);
    await cp(path.join(root, "bank.example"), dir, { recursive: true });
    await mkdir(path.join(dir, "memory/2026/extra"), { recursive: true });
    await writeFile(
      path.join(dir, "memory/2026/extra/2026-03-12-notes.md"),
      "## Retain\n- W @Wei: Nested log fact.\n- W @Wei: Nested log fact.\n- X bad\n",
    );
    await writeFile(path.join(dir, "memory/.2026-03-13.md"), "## Retain\n- W @Hidden: never read\n");
    const ws = await openWorkspace(dir);
    for (const since of ["2026-03-01", "2026-03-09", "2026-03-12", "2026-03-15", "2027-01-01"]) {
      // The same logs, whatever order the two listings found them in.
      const byPath = (r: { logs: { path: string }[] }) => ({
        ...r,
        logs: [...r.logs].sort((a, b) => (a.path < b.path ? -1 : 1)),
      });
      const window = await readWindowFacts(ws, since);
      expect(window && byPath(window)).toEqual(byPath(await readFacts(ws, { since })));
    }
  });

  it("leaves symbolic links to readFacts", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-window-"));
    dirs.push(dir);
    await mkdir(path.join(dir, "memory"), { recursive: true });
    await mkdir(path.join(dir, "elsewhere"));
    await writeFile(path.join(dir, "elsewhere/2026-01-01.md"), "## Retain\n- W @A: linked.\n");
    await symlink(path.join(dir, "elsewhere/2026-01-01.md"), path.join(dir, "memory/2026-01-01.md"));
    expect(await readWindowFacts(await openWorkspace(dir), "2025-01-01")).toBeUndefined();
  });
});
