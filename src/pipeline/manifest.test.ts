import { describe, expect, it } from "vitest";
import { changedAgainst, type FileManifest } from "./manifest.js";

const file = (p: string, mtimeMs: number, size: number) => ({ path: p, absPath: `/ws/${p}`, mtimeMs, size });

describe("changedAgainst", () => {
  it("reports new files, size or mtime changes in either direction, and files that are gone", () => {
    const seen: FileManifest = new Map([
      ["memory/2026-01-01.md", { mtimeMs: 1000, size: 10 }],
      ["memory/2026-01-02.md", { mtimeMs: 2000, size: 20 }],
      ["memory/2026-01-03.md", { mtimeMs: 3000, size: 30 }],
      ["memory/2026-01-04.md", { mtimeMs: 4000, size: 40 }],
    ]);
    const now = [
      file("memory/2026-01-01.md", 1000, 10), // unchanged
      file("memory/2026-01-02.md", 500, 20), // restored with an older mtime
      file("memory/2026-01-03.md", 3000, 31), // same mtime, other size
      file("memory/2025-12-31.md", 100, 5), // an old-dated log copied in
    ];
    expect(changedAgainst(seen, now)).toEqual({
      changed: ["memory/2026-01-02.md", "memory/2026-01-03.md", "memory/2025-12-31.md"],
      gone: ["memory/2026-01-04.md"],
    });
  });
});
