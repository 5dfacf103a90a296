// Opinion questions after reflect: recall answers from bank/opinions.md (through the
// index's opinion tables) with the current confidence and reflect's judged evidence.
// Real pipeline on a temp copy of bank.example: git repository, reflect with its commit,
// the real index (SQLite, FTS5) and line store, the built CLI for the JSON contract.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { type PageOpinion, readOpinionPage } from "../src/index/opinions.js";
import { opinionStatus } from "../src/markdown/opinions.js";
import { recall } from "../src/recall/recall.js";
import type { RecallResponse, RecallResult } from "../src/recall/types.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";
import { git } from "./reflect-support.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;
const asOf = new Date("2026-03-16T12:00:00Z");
const MARA = "what does Mara prefer for status updates?";
const JONAS = "does Jonas still think ledger-sync ships in March?";

let dir: string;
let ws: Workspace;
let before: { mara: RecallResponse; jonas: RecallResponse };

async function pageOpinions(): Promise<PageOpinion[]> {
  return readOpinionPage("bank/opinions.md", await readFile(path.join(dir, "bank/opinions.md"), "utf8"));
}

function pageOpinion(ops: PageOpinion[], entity: string, words: RegExp): PageOpinion {
  const found = ops.filter((o) => o.entities.includes(entity) && words.test(o.statement));
  expect(found, `${entity} ${words}`).toHaveLength(1);
  return found[0]!;
}

const range = (source: string) => {
  const m = /^(.*)#L(\d+)-L(\d+)$/.exec(source)!;
  return { path: m[1]!, start: Number(m[2]), end: Number(m[3]) };
};

/** The result is that page opinion: statement, current confidence, judged evidence, region source. */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function expectIsPageOpinion(r: RecallResult | undefined, op: PageOpinion): void {
  expect(r).toBeDefined();
  expect(r!.kind).toBe("opinion");
  // A belief that lost ground says so; one that holds is its statement.
  const status = opinionStatus(op);
  expect(r!.status).toBe(status);
  if (status === "weakened" || status === "reversed") {
    expect(r!.content).toMatch(
      new RegExp(
        `^${escapeRe(op.statement)} \\[${status}: 0\\.\\d\\d -> ${op.confidence.toFixed(2)} by ${op.lastUpdated}\\]$`,
      ),
    );
  } else expect(r!.content).toBe(op.statement);
  expect(r!.confidence).toBe(op.confidence);
  expect(r!.timestamp).toBe(op.lastUpdated);
  expect(r!.entities).toEqual(op.entities);
  expect(r!.source).toBe(`bank/opinions.md#L${op.startLine}-L${op.endLine}`);
  expect(r!.evidence).toEqual(
    op.evidence.map((e) => ({ source: `${e.source.path}#L${e.source.line}`, stance: e.stance })),
  );
}

function expectNoMarkersNorDuplicates(r: RecallResponse): void {
  // Bank page lines that only repeat an opinion result's evidence are folded into it.
  const evidence = new Set(
    r.results.flatMap((x) => (x.kind === "opinion" ? (x.evidence ?? []) : []).map((e) => e.source)),
  );
  for (const x of r.results.filter((y) => y.kind === "note" && y.source.startsWith("bank/"))) {
    const lines = x.content.split("\n").filter((l) => l.trim() !== "");
    const cited = lines.map((l) => [...l.matchAll(/\[([^\]\s]+#L\d+)\]/g)].map((m) => m[1]!));
    const repeats = cited.every((list) => list.length > 0 && list.every((c) => evidence.has(c)));
    expect(repeats, x.source).toBe(false);
  }
  // Marker lines never show (prose that talks about markers, like the entity template's note, may).
  for (const x of r.results) expect(x.content, x.source).not.toMatch(/^\s*<!--\s*membank:/m);
  // One result per place on the opinions page: a window into an opinion's region is that opinion.
  const onPage = r.results.filter((x) => x.source.startsWith("bank/opinions.md#"));
  for (const [i, a] of onPage.entries()) {
    for (const b of onPage.slice(i + 1)) {
      const ra = range(a.source);
      const rb = range(b.source);
      expect(ra.start <= rb.end && rb.start <= ra.end, `${a.source} overlaps ${b.source}`).toBe(false);
    }
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-recall-opinions-"));
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: bank.example");
  ws = await openWorkspace(dir);
  // Before reflect: the answers come from the opinion facts of the logs.
  before = { mara: await recall(ws, MARA, { asOf, k: 5 }), jonas: await recall(ws, JONAS, { asOf, k: 5 }) };
  const report = await reflect(ws, { now: asOf });
  expect(report.pagesWritten).toContain("bank/opinions.md");
  expect(report.commit).toBeDefined();
}, 120_000);

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe("opinion recall from bank/opinions.md", () => {
  it("without the page, opinion questions are answered from the logs' opinion facts", () => {
    const first = before.mara.results[0]!;
    expect(first.kind).toBe("opinion");
    expect(first.source).toMatch(/^memory\/2026-03-\d\d\.md#L\d+-L\d+$/);
    expect(before.jonas.results.some((x) => x.kind === "opinion" && x.source.startsWith("memory/"))).toBe(true);
  });

  it("answers Mara's preference with the page's current confidence and evidence", async () => {
    const op = pageOpinion(await pageOpinions(), "Mara", /status updates/);
    const r = await recall(ws, MARA, { asOf, k: 5 });
    expectIsPageOpinion(r.results[0], op);
    expect(op.evidence.length).toBeGreaterThan(1);
    for (const x of r.results) expect(x.content).not.toContain("membank:begin");
    // The log restatements are that opinion's evidence, not more results with their old confidences.
    const evidence = new Set(op.evidence.map((e) => `${e.source.path}#L${e.source.line}`));
    for (const x of r.results.slice(1)) {
      if (x.kind === "opinion") expect(evidence.has(`${range(x.source).path}#L${range(x.source).start}`)).toBe(false);
    }
    expectNoMarkersNorDuplicates(r);
  });

  it("answers whether Jonas still thinks so with the lowered confidence and the contradictions", async () => {
    const op = pageOpinion(await pageOpinions(), "Jonas", /ships in March/);
    expect(op.previous).toBeDefined();
    expect(op.confidence).toBeLessThan(op.previous!);
    const contra = op.evidence.filter((e) => e.stance === "contradict");
    expect(contra.length).toBeGreaterThan(0);
    const r = await recall(ws, JONAS, { asOf, k: 5 });
    expectIsPageOpinion(r.results[0], op);
    expect(r.results[0]!.evidence!.filter((e) => e.stance === "contradict")).toEqual(
      contra.map((e) => ({ source: `${e.source.path}#L${e.source.line}`, stance: "contradict" })),
    );
    for (const x of r.results) expect(x.content).not.toContain("membank:begin");
    expectNoMarkersNorDuplicates(r);
  });

  it("never shows marker lines, and page windows fold into their opinion", async () => {
    for (const q of [
      "status updates",
      "ledger-sync",
      "opinions confidence supporting",
      "membank begin",
      "Tell me about Mara",
    ]) {
      const r = await recall(ws, q, { asOf, k: 8 });
      expectNoMarkersNorDuplicates(r);
      for (const x of r.results.filter((y) => y.source.startsWith("bank/opinions.md#") && y.kind === "note")) {
        // A note from the page lies outside every opinion region (the page's prose).
        const rx = range(x.source);
        for (const op of await pageOpinions()) expect(rx.end < op.startLine || rx.start > op.endLine).toBe(true);
      }
    }
  });

  it("follows a confidence a person set by hand, and the JSON contract carries it", async () => {
    const file = path.join(dir, "bank/opinions.md");
    const text = await readFile(file, "utf8");
    const op = pageOpinion(await pageOpinions(), "Mara", /status updates/);
    const edited = text.replace(
      new RegExp(`(membank:begin ${op.id} -->[\\s\\S]*?- confidence: )[0-9.]+`),
      (_m, head: string) => `${head}0.33`,
    );
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    const r = await recall(ws, MARA, { asOf, k: 3 });
    expect(r.results[0]!.confidence).toBe(0.33);
    const { stdout } = await run(process.execPath, [
      cli,
      "recall",
      MARA,
      ...["--json", "--k", "3", "--as-of", "2026-03-16", "--provider", "none", "--workspace", dir],
    ]);
    const json = JSON.parse(stdout) as RecallResponse;
    expect(json.results[0]).toMatchObject({ kind: "opinion", confidence: 0.33 });
    // Set by hand below its first value: recall says so rather than repeating the statement as current.
    expect(json.results[0]!.status).toBe(opinionStatus({ ...op, confidence: 0.33 }));
    expect(json.results[0]!.content.startsWith(op.statement)).toBe(true);
    expect(json.results[0]!.evidence!.length).toBe(op.evidence.length);
    await writeFile(file, text);
  });

  it("falls back to the logs' opinion facts when the page is gone", async () => {
    const file = path.join(dir, "bank/opinions.md");
    await rename(file, `${file}.away`);
    try {
      const r = await recall(ws, MARA, { asOf, k: 5 });
      expect(r.results[0]!.kind).toBe("opinion");
      expect(r.results[0]!.source).toMatch(/^memory\//);
      expect(r.results.every((x) => !x.source.startsWith("bank/opinions.md"))).toBe(true);
    } finally {
      await rename(`${file}.away`, file);
    }
  });
});
