// The entity-question evaluation (bench/entity-eval.json, issue 14): "who is X", "what do we
// know about X", nicknames, full names, descriptions, misspellings, over bank.example and
// fixtures/natural after one reflect (the bank's pages and opinions exist, as after a
// nightly run). Prints R@1/R@5 per way of naming the entity; fails below the floor
// measured when the set was written.
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import type { RecallResult } from "../src/recall/types.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { git } from "./reflect-support.js";

const repoRoot = path.resolve(import.meta.dirname, "..");

interface Question {
  id: string;
  how: string;
  question: string;
  gold: string[];
}
interface EvalSet {
  workspace: string;
  asOf: string;
  questions: Question[];
}

const evalFile = JSON.parse(await readFile(path.join(repoRoot, "bench/entity-eval.json"), "utf8")) as {
  sets: EvalSet[];
};
const dirs: string[] = [];
const workspaces = new Map<string, Workspace>();

beforeAll(async () => {
  for (const set of evalFile.sets) {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-entity-eval-"));
    dirs.push(dir);
    await cp(path.join(repoRoot, set.workspace), dir, { recursive: true });
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "user: notes");
    const ws = await openWorkspace(dir);
    await reflect(ws, { now: new Date(`${set.asOf}T12:00:00Z`) });
    workspaces.set(set.workspace, ws);
  }
}, 120_000);

afterAll(async () => {
  closeIndexes();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Does a result answer with a gold line: its range, a page line citing it, or an opinion's evidence? */
function hits(r: RecallResult, gold: readonly string[]): boolean {
  const m = /^(.*)#L(\d+)-L(\d+)$/.exec(r.source);
  for (const g of gold) {
    const [gp, gl] = g.split("#L") as [string, string];
    if (m && m[1] === gp && Number(gl) >= Number(m[2]) && Number(gl) <= Number(m[3])) return true;
    if (r.source.startsWith("bank/") && r.content.includes(`[${g}]`)) return true;
    if (r.evidence?.some((e) => e.source === g)) return true;
  }
  return false;
}

describe("entity questions (bank.example and fixtures/natural, after reflect)", () => {
  it("gold lines exist and are not blank", async () => {
    for (const set of evalFile.sets) {
      for (const q of set.questions) {
        for (const g of q.gold) {
          const [p, l] = g.split("#L") as [string, string];
          const lines = (await readFile(path.join(repoRoot, set.workspace, p), "utf8")).split("\n");
          expect(lines[Number(l) - 1]?.trim(), `${q.id} ${g}`).toBeTruthy();
        }
      }
    }
  });

  it("meets the floor", async () => {
    const by = new Map<string, { n: number; r1: number; r5: number; misses: string[] }>();
    const times: number[] = [];
    for (const set of evalFile.sets) {
      const ws = workspaces.get(set.workspace)!;
      const asOf = new Date(`${set.asOf}T12:00:00Z`);
      for (const q of set.questions) {
        const t = performance.now();
        const r = await recall(ws, q.question, { asOf, k: 5, budgetTokens: 100_000 });
        times.push(performance.now() - t);
        const rank = r.results.findIndex((x) => hits(x, q.gold)) + 1;
        for (const key of [q.how, set.workspace, "overall"]) {
          const s = by.get(key) ?? { n: 0, r1: 0, r5: 0, misses: [] };
          s.n++;
          if (rank === 1) s.r1++;
          if (rank > 0) s.r5++;
          else s.misses.push(q.id);
          by.set(key, s);
        }
      }
    }
    const rows = [...by].map(
      ([k, s]) =>
        `| ${k} | ${s.n} | ${(s.r1 / s.n).toFixed(2)} | ${(s.r5 / s.n).toFixed(2)} | ${s.misses.join(" ") || "-"} |`,
    );
    times.sort((a, b) => a - b);
    console.log(
      [
        "| questions | n | R@1 | R@5 | misses |",
        "|---|---|---|---|---|",
        ...rows,
        `recall p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(1)} ms`,
      ].join("\n"),
    );
    // Measured when written (issue 14): R@1 0.90, R@5 0.97; before entity answers 0.63 and 0.77.
    const overall = by.get("overall")!;
    expect(overall.r5 / overall.n).toBeGreaterThanOrEqual(0.9);
    expect(overall.r1 / overall.n).toBeGreaterThanOrEqual(0.8);
    for (const how of ["name", "alias", "description", "spelling"]) {
      const s = by.get(how)!;
      expect(s.r5 / s.n, how).toBeGreaterThanOrEqual(0.85);
    }
  });

  it("answers 'who is X?' with the core-memory line first, not with every line naming X", async () => {
    const ws = workspaces.get("fixtures/freelance")!;
    const r = await recall(ws, "who is Priya?", { asOf: new Date("2026-06-03T12:00:00Z"), k: 5 });
    expect(r.results[0]!.source).toMatch(/^MEMORY\.md#L[1-4]-L[4-9]$/);
    expect(r.results[0]!.content).toContain("Priya Raman is my main client contact");
  });

  it("never answers with an entity page's title or front matter alone", async () => {
    for (const set of evalFile.sets) {
      const ws = workspaces.get(set.workspace)!;
      for (const q of set.questions) {
        const r = await recall(ws, q.question, { asOf: new Date(`${set.asOf}T12:00:00Z`), k: 8 });
        for (const x of r.results.filter((x) => x.source.startsWith("bank/entities/"))) {
          const said = x.content.split("\n").filter((l) => !/^\s*(---|#|<!--|aliases:|$)/.test(l));
          expect(said, `${q.id}: ${x.source}`).not.toEqual([]);
        }
      }
    }
  });

  it("gives an entity's opinions with their status, a reversed belief after the one still held", async () => {
    const ws = workspaces.get("fixtures/natural")!;
    const r = await recall(ws, "tell me about Mara", {
      asOf: new Date("2026-03-27T12:00:00Z"),
      k: 40,
      budgetTokens: 100_000,
    });
    expect(r.results[0]!.source).toMatch(/^MEMORY\.md#L[34]-L[4-6]$/);
    const held = r.results.findIndex((x) => x.kind === "opinion" && /ramp up/.test(x.content));
    const reversed = r.results.findIndex((x) => x.kind === "opinion" && /March 31/.test(x.content));
    expect(held).toBeGreaterThan(0);
    expect(reversed).toBeGreaterThan(held);
    expect(r.results[reversed]!.status).toBe("reversed");
    expect(r.results[reversed]!.content).toMatch(/\[reversed: 0\.80 -> 0\.\d+ by 2026-03-\d\d\]/);
  });

  it("leaves a topic that shares a word with someone's role to the words", async () => {
    const ws = workspaces.get("bank.example")!;
    const asOf = new Date("2026-03-16T12:00:00Z");
    for (const q of ["the reconciliation report", "tell me about the reconciliation report"]) {
      const r = await recall(ws, q, { asOf, k: 3 });
      expect(r.results[0]!.source, q).toMatch(/^memory\/2026-03-03\.md#L1[34]-L14$/);
    }
  });

  it("answers an entity question in a few milliseconds once the index is warm", async () => {
    const set = evalFile.sets.find((s) => s.workspace === "bank.example")!;
    const ws = workspaces.get(set.workspace)!;
    const asOf = new Date(`${set.asOf}T12:00:00Z`);
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const q of set.questions) {
        const t = performance.now();
        await recall(ws, q.question, { asOf, k: 5, sync: false });
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.floor(times.length * 0.95)]!;
    console.log(
      `warm recall on bank.example: p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
    );
    // The goal is p95 < 20 ms on an idle machine (measured ~7 ms p50 at load 13 on 2 cores); the
    // bound catches a gross regression (such as re-reading every page per question), not noise.
    expect(times[Math.floor(times.length / 2)]!).toBeLessThan(100);
  });
});
