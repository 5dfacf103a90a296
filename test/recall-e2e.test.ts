// End to end over a copy of bank.example: the real index (SQLite, FTS5), the real line
// store, the library call and the BUILT CLI (`pnpm test` builds first).
import { execFile } from "node:child_process";
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import type { RecallResponse } from "../src/recall/types.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;
const asOf = new Date("2026-03-16T12:00:00Z");

let dir: string;
let ws: Workspace;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-recall-"));
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

const sources = (r: RecallResponse) => r.results.map((x) => x.source);

describe("recall over bank.example", () => {
  it("answers an entity question with the entity's facts, cited", async () => {
    const r = await recall(ws, "Tell me about Priya", { asOf, k: 6 });
    expect(r.intent.entities).toEqual(["Priya"]);
    expect(r.intent.kinds).toContain("entity");
    expect(r.results.length).toBeGreaterThan(2);
    for (const x of r.results.slice(0, 3)) {
      expect(x.entities.map((e) => e.toLowerCase()).includes("priya") || /priya/i.test(x.content)).toBe(true);
      // The core memory's line about her, then her facts in the logs (issue 14).
      expect(x.source).toMatch(/^(?:MEMORY\.md|memory\/2026-03-\d\d(?:-[a-z]+)?\.md)#L\d+-L\d+$/);
    }
    expect(r.results.slice(0, 3).some((x) => x.source.startsWith("MEMORY.md#L15"))).toBe(true);
  });

  it("finds exact tokens", async () => {
    for (const [q, line] of [
      ["a91f3c2", "memory/2026-03-09.md"],
      ["LEDGER_SYNC_BATCH=500", "memory/2026-03-05.md#L22-L22"],
    ] as const) {
      const r = await recall(ws, q, { asOf, k: 3 });
      expect(
        sources(r).some((s) => s.startsWith(line)),
        `${q}: ${sources(r).join(", ")}`,
      ).toBe(true);
    }
  });

  it("answers an opinion question with the current confidence and evidence", async () => {
    const r = await recall(ws, "what does Mara prefer for status updates?", { asOf, k: 4 });
    expect(r.intent.kinds).toContain("opinion");
    const top = r.results[0]!;
    expect(top.kind).toBe("opinion");
    expect(top.source).toBe("memory/2026-03-12.md#L12-L12");
    expect(top.confidence).toBe(0.9);
    expect(top.evidence?.map((e) => e.source)).toEqual(
      expect.arrayContaining(["memory/2026-03-02.md#L18", "memory/2026-03-04.md#L17"]),
    );
  });

  it("ranks a time window's facts first, nearest the named day", async () => {
    const r = await recall(ws, "what happened around March 12?", { asOf, k: 5 });
    expect(r.intent.window).toMatchObject({ from: "2026-03-09", to: "2026-03-15" });
    expect(r.results[0]!.timestamp).toBe("2026-03-12");
    for (const x of r.results) expect(x.timestamp! >= "2026-03-09" && x.timestamp! <= "2026-03-15").toBe(true);
  });

  it("applies hard filters: since/until, kinds and entity", async () => {
    const r = await recall(ws, "ledger-sync", {
      asOf,
      k: 10,
      since: "2026-03-10",
      until: "2026-03-12",
      kinds: ["world"],
    });
    expect(r.results.length).toBeGreaterThan(0);
    for (const x of r.results) {
      expect(x.kind).toBe("world");
      expect(x.timestamp! >= "2026-03-10" && x.timestamp! <= "2026-03-12").toBe(true);
    }
    const e = await recall(ws, "launch", { asOf, k: 10, entity: "@jonas" });
    expect(e.intent.entities[0]).toBe("Jonas");
    for (const x of e.results) expect(x.entities.includes("Jonas") || /jonas/i.test(x.content)).toBe(true);
  });

  it("explains which arms found each result", async () => {
    const r = await recall(ws, "does Jonas still think ledger-sync ships in March?", { asOf, k: 3, explain: true });
    expect(r.explain?.fusion).toBe("weighted");
    expect(r.explain?.arms.map((a) => a.arm)).toEqual(expect.arrayContaining(["lexical", "entity", "time", "opinion"]));
    for (const x of r.results) {
      expect(x.arms!.length).toBeGreaterThan(0);
      for (const a of x.arms!) expect(a.rank).toBeGreaterThanOrEqual(1);
    }
    const plain = await recall(ws, "does Jonas still think ledger-sync ships in March?", { asOf, k: 3 });
    expect(plain.results[0]!.arms).toBeUndefined();
    expect(plain.results.map((x) => x.source)).toEqual(r.results.map((x) => x.source));
  });

  it("stays within the token budget", async () => {
    const r = await recall(ws, "ledger-sync", { asOf, k: 20, budgetTokens: 120 });
    const used = r.results.reduce(
      (n, x) => n + 16 + Math.ceil(x.content.length / 4) + (x.evidence?.length ?? 0) * 10,
      0,
    );
    expect(used).toBeLessThanOrEqual(120);
    expect(r.results.length).toBeGreaterThan(0);
  });

  it("sees a line appended a moment ago (no full rebuild)", async () => {
    await recall(ws, "warmup", { asOf });
    await appendFile(path.join(dir, "memory/2026-03-15.md"), "\n- Zebra crossing token QX-9917 noted by Mara.\n");
    const r = await recall(ws, "QX-9917", { asOf, k: 3 });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-03-15\.md#L\d+-L\d+$/);
    expect(r.results[0]?.content).toContain("QX-9917");
  });

  it("refuses bad options with a clear error", async () => {
    await expect(recall(ws, "   ", {})).rejects.toThrow(/empty/);
    await expect(recall(ws, "x", { since: "March" })).rejects.toThrow(/since.*YYYY-MM-DD/);
    // Shaped like a date but not one: refused, not silently matching nothing.
    await expect(recall(ws, "x", { until: "2026-13-45" })).rejects.toThrow(/until.*YYYY-MM-DD, got "2026-13-45"/);
    await expect(recall(ws, "x", { kinds: ["bogus" as never] })).rejects.toThrow(/unknown kind/);
  });
});

describe("membank recall (built CLI)", () => {
  it("prints the JSON contract", async () => {
    const { stdout } = await run(process.execPath, [
      cli,
      "recall",
      "--workspace",
      dir,
      "--json",
      "--provider",
      "none",
      "--as-of",
      "2026-03-16",
      "--k",
      "3",
      "what does Mara prefer for status updates?",
    ]);
    const r = JSON.parse(stdout) as RecallResponse;
    expect(Object.keys(r)).toEqual(expect.arrayContaining(["query", "intent", "results"]));
    expect(r.intent).toMatchObject({ entities: ["Mara"] });
    expect(r.results.length).toBe(3);
    for (const x of r.results) {
      expect(["world", "experience", "opinion", "observation", "note"]).toContain(x.kind);
      expect(x.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Array.isArray(x.entities)).toBe(true);
      expect(typeof x.content).toBe("string");
      expect(x.source).toMatch(/^[^#]+\.md#L\d+-L\d+$/);
      expect(typeof x.score).toBe("number");
    }
    expect(r.results[0]!.confidence).toBeTypeOf("number");
    expect(r.results[0]!.evidence![0]).toMatchObject({ stance: expect.stringMatching(/^(support|contradict)$/) });
  });

  it("prints a compact human list and exits 2 on a bad flag", async () => {
    const { stdout } = await run(process.execPath, [cli, "recall", "-w", dir, "--provider", "none", "FJD-482"]);
    expect(stdout).toMatch(/^1\. \[\w+ 2026-03-\d\d\] memory\/2026-03-\d\d\.md#L\d+-L\d+$/m);
    const bad = await run(process.execPath, [cli, "recall", "-w", dir, "--as-of", "soon", "x"]).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--as-of must be a date/);
    const feb30 = await run(process.execPath, [cli, "recall", "-w", dir, "--as-of", "2026-02-30", "x"]).catch((e) => e);
    expect(feb30.code).toBe(2);
    expect(feb30.stderr).toMatch(/--as-of must be a date YYYY-MM-DD, got "2026-02-30"/);
  });
});
