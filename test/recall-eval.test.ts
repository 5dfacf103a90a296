// The hand-written recall evaluation (bench/recall-eval.json) over a copy of bank.example:
// every intent (entity, time, opinion, lexical, mixes) measured with R@1, R@5 and MRR@5.
// Prints the table; fails when quality drops below the floor measured when it was written.
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const repoRoot = path.resolve(import.meta.dirname, "..");

interface Question {
  id: string;
  intent: string;
  question: string;
  gold: string[];
}
interface EvalFile {
  asOf: string;
  questions: Question[];
}

let dir: string;
let ws: Workspace;
let evalData: EvalFile;

beforeAll(async () => {
  evalData = JSON.parse(await readFile(path.join(repoRoot, "bench/recall-eval.json"), "utf8")) as EvalFile;
  dir = await mkdtemp(path.join(tmpdir(), "membank-recall-eval-"));
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

function hitRank(sources: string[], gold: string[]): number | undefined {
  for (let i = 0; i < sources.length; i++) {
    const m = /^(.*)#L(\d+)-L(\d+)$/.exec(sources[i]!);
    if (!m) continue;
    const [, p, a, b] = m;
    for (const g of gold) {
      const [gp, gl] = g.split("#L") as [string, string];
      if (gp === p && Number(gl) >= Number(a) && Number(gl) <= Number(b)) return i + 1;
    }
  }
  return undefined;
}

describe("hand-written recall evaluation (bank.example)", () => {
  it("gold lines exist and are not blank", async () => {
    for (const q of evalData.questions) {
      for (const g of q.gold) {
        const [p, l] = g.split("#L") as [string, string];
        const lines = (await readFile(path.join(repoRoot, "bank.example", p), "utf8")).split("\n");
        expect(lines[Number(l) - 1]?.trim(), `${q.id} ${g}`).toBeTruthy();
      }
    }
  });

  it("meets the floor per intent", async () => {
    const asOf = new Date(`${evalData.asOf}T12:00:00Z`);
    const by = new Map<string, { n: number; r1: number; r5: number; mrr: number; misses: string[] }>();
    for (const q of evalData.questions) {
      const r = await recall(ws, q.question, { asOf, k: 5, budgetTokens: 100_000 });
      const rank = hitRank(
        r.results.map((x) => x.source),
        q.gold,
      );
      for (const key of [q.intent, "overall"]) {
        const s = by.get(key) ?? { n: 0, r1: 0, r5: 0, mrr: 0, misses: [] };
        s.n++;
        if (rank === 1) s.r1++;
        if (rank !== undefined) {
          s.r5++;
          s.mrr += 1 / rank;
        } else s.misses.push(q.id);
        by.set(key, s);
      }
    }
    const rows = [...by].map(
      ([k, s]) =>
        `| ${k} | ${s.n} | ${(s.r1 / s.n).toFixed(2)} | ${(s.r5 / s.n).toFixed(2)} | ${(s.mrr / s.n).toFixed(2)} | ${s.misses.join(" ") || "-"} |`,
    );
    console.log(["| intent | n | R@1 | R@5 | MRR@5 | misses |", "|---|---|---|---|---|---|", ...rows].join("\n"));
    const overall = by.get("overall")!;
    expect(overall.r5 / overall.n).toBeGreaterThanOrEqual(0.85);
    expect(overall.r1 / overall.n).toBeGreaterThanOrEqual(0.6);
    for (const intent of ["entity", "time", "opinion", "lexical"]) {
      const s = by.get(intent)!;
      expect(s.r5 / s.n, intent).toBeGreaterThanOrEqual(0.66);
    }
  });
});
