// The nightly parses each changed log once: the retain step's parses (parseMemo) are what
// the index stores, and reflect takes the retain step's read instead of reading again.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { indexFile } from "../src/index/db.js";
import { closeIndexes } from "../src/index/handles.js";
import { syncIndex } from "../src/index/sync.js";
import { reflect } from "../src/reflect/index.js";
import { parseMemo, type SectionParser } from "../src/retain/memo.js";
import { parseRetainSections } from "../src/retain/parse.js";
import { readFacts } from "../src/retain/read.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let root = "";
let ws: Workspace;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "membank-parse-once-"));
  await mkdir(path.join(root, "memory", "2026"), { recursive: true });
  await writeFile(
    path.join(root, "memory", "2026-03-02.md"),
    "# Mon\nstandup ran long\n\n## Retain\n- W @Priya: ships ledger-sync in March\n- O(c=0.8) @Jonas: thinks March is too early\n",
  );
  await writeFile(
    path.join(root, "memory", "2026", "2026-03-03.md"),
    "## Retain\n* B: I wrote the migration script for @Priya\n- S:   quiet day otherwise\n",
  );
  await writeFile(path.join(root, "memory", "2026-03-03-sessions.md"), "no retain section in this one, just chat\n");
  ws = await openWorkspace(root);
});

afterEach(async () => {
  closeIndexes();
  await rm(root, { recursive: true, force: true });
});

it("retain's parses feed the index: each log parsed once, and the index holds the same facts", async () => {
  const calls: string[] = [];
  const counting: SectionParser = (p, text, opts) => {
    calls.push(p);
    return parseRetainSections(p, text, opts);
  };
  const parse = parseMemo(counting);
  const read = await readFacts(ws, { parse });
  expect(read.facts).toHaveLength(4);
  const sync = await syncIndex(ws, { parseRetain: parse });
  expect(sync.facts).toBe(4);
  expect(calls.sort()).toEqual(["memory/2026-03-02.md", "memory/2026-03-03-sessions.md", "memory/2026/2026-03-03.md"]);
  const db = new Database(indexFile(ws), { readonly: true });
  const stored = db.prepare("SELECT id FROM facts ORDER BY id").pluck().all();
  db.close();
  expect(stored).toEqual(read.facts.map((f) => f.id).sort());

  // A log edited since is parsed again (its text differs); the others are not.
  await writeFile(path.join(root, "memory", "2026-03-02.md"), "## Retain\n- W @Priya: moved ledger-sync to April\n");
  calls.length = 0;
  await readFacts(ws, { parse });
  expect(calls).toEqual(["memory/2026-03-02.md"]);
});

it("reflect takes the retain step's read of the window instead of reading the logs again", async () => {
  const read = await readFacts(ws);
  // The log changes on disk after retain read it: this run's bank is what retain saw.
  await writeFile(path.join(root, "memory", "2026-03-02.md"), "## Retain\n- W @Priya: a fact retain never saw\n");
  const r = await reflect(ws, { commit: false, all: true, retained: { read } });
  expect(r.factsRead).toBe(4);
  const world = await readFile(path.join(root, "bank", "world.md"), "utf8");
  expect(world).toContain("ships ledger-sync in March");
  expect(world).not.toContain("a fact retain never saw");
});
