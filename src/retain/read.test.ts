import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../workspace/config.js";
import type { Workspace } from "../workspace/workspace.js";
import { readFacts } from "./read.js";

let root: string;
let ws: Workspace;

async function put(rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "membank-retain-"));
  const config = defaultConfig();
  config.retain.defaultConfidence = 0.55;
  ws = { root, config };
  await put("MEMORY.md", "# Core\n## Retain\n- W: core memory is not a Retain source\n");
  await put("bank/world.md", "## Retain\n- W: bank pages are not either\n");
  await put("memory/notes.md", "## Retain\n- W: no date, not a daily log\n");
  await put("memory/2025-11-28.md", "# Fri\n\n## Retain\n- O @Peter: Likes tea\n- W @Andy: Flies home\n- X: bad\n");
  await put("memory/2025-11-27.md", "# Thu\n\n## Retain\n- W @Peter: In Marrakech (Nov 27–Dec 1, 2025)\n");
  await put(
    "memory/2025-11-27-sessions.md",
    "## Retain (extracted)\n- W @Peter: In Marrakech (Nov 27–Dec 1, 2025)\n- S: Chat digest\n",
  );
  await put("memory/2025/2025-12-01.md", "No Retain section, just narrative.\n");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("readFacts", () => {
  it("reads every daily log, sorted by (date, path, line), with config defaults and cross-file duplicates", async () => {
    const r = await readFacts(ws);
    expect(r.files).toBe(4);
    expect(r.facts.map((f) => [f.date, f.source.path, f.source.line, f.content])).toEqual([
      ["2025-11-27", "memory/2025-11-27-sessions.md", 3, "Chat digest"],
      ["2025-11-27", "memory/2025-11-27.md", 4, "In Marrakech (Nov 27–Dec 1, 2025)"],
      ["2025-11-28", "memory/2025-11-28.md", 4, "Likes tea"],
      ["2025-11-28", "memory/2025-11-28.md", 5, "Flies home"],
    ]);
    expect(r.facts[2]!.confidence).toBe(0.55);
    expect(r.facts[0]!.extracted).toBe(true);
    // The hand-written copy wins over the extracted one.
    expect(r.facts[1]!.extracted).toBeUndefined();
    expect(r.diagnostics).toEqual([
      {
        path: "memory/2025-11-27-sessions.md",
        line: 2,
        reason: "duplicate of the fact at memory/2025-11-27.md:4 (same date, type, entities and text)",
      },
      { path: "memory/2025-11-28.md", line: 6, reason: 'unknown type letter "X" (expected W, B, O or S)' },
    ]);
    // Deterministic: a second read gives the same result.
    expect(await readFacts(ws)).toEqual(r);
  });

  it("filters by --since and rejects a bad since", async () => {
    const r = await readFacts(ws, { since: "2025-11-28" });
    expect(r.files).toBe(2);
    expect(r.facts.map((f) => f.date)).toEqual(["2025-11-28", "2025-11-28"]);
    await expect(readFacts(ws, { since: "last year" })).rejects.toThrow(/since must be a date YYYY-MM-DD/);
  });
});

describe("logs without a Retain section", () => {
  it("lists every log that was read, whatever its encoding or bad lines, and none that could not be read", async () => {
    // "Café with Zoë" as Windows-1252 ("ANSI"), Notepad's UTF-16, and UTF-8 with one bad byte.
    await writeFile(path.join(root, "memory/2025-12-02.md"), Buffer.from("Caf\xe9 with Zo\xeb, CRLF\r\n", "latin1"));
    await writeFile(
      path.join(root, "memory/2025-12-03.md"),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Long walk by the river.\n", "utf16le")]),
    );
    await writeFile(path.join(root, "memory/2025-12-04.md"), Buffer.from([0x4f, 0x6b, 0xc3, 0x28, 0x0a]));
    await writeFile(path.join(root, "memory/2025-12-05.md"), Buffer.alloc(64)); // zeroed by a crash: not read
    const r = await readFacts(ws);
    expect(r.noRetain).toEqual([
      "memory/2025-12-02.md",
      "memory/2025-12-03.md",
      "memory/2025-12-04.md",
      "memory/2025/2025-12-01.md",
    ]);
  });
});
