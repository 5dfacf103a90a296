#!/usr/bin/env node
// LoCoMo retrieval benchmark (issue 4). Prototype retriever: recall's line store + windows.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const evalDir = path.resolve(root, "../shared/eval/locomo");
const { openLineStore, syncLineStore, searchLines } = await import(path.join(root, "dist/src/recall/lines.js"));
const { buildWindows } = await import(path.join(root, "dist/src/recall/windows.js"));
const { understandQuery } = await import(path.join(root, "dist/src/recall/intent.js"));
const { openWorkspace } = await import(path.join(root, "dist/src/workspace/workspace.js"));
const { listMemoryFiles } = await import(path.join(root, "dist/src/workspace/files.js"));

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const before = Number(flag("before", "1"));
const after = Number(flag("after", "1"));
const sb = Number(flag("sb", "0.5"));
const fw = Number(flag("fw", "0.3"));
const { rescoreLines } = await import(path.join(root, "dist/src/recall/linerank.js"));
const nw = Number(flag("nw", "0.35"));

const queries = readFileSync(path.join(evalDir, "queries.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const byWs = new Map();
for (const q of queries) {
  if (!byWs.has(q.workspace)) byWs.set(q.workspace, []);
  byWs.get(q.workspace).push(q);
}
const stats = new Map();
const add = (cat, rank, lines) => {
  for (const key of [cat, "overall"]) {
    const s = stats.get(key) ?? { n: 0, r1: 0, r5: 0, r10: 0, mrr: 0 };
    s.n++;
    if (rank && rank <= 1) s.r1++;
    if (rank && rank <= 5) s.r5++;
    if (rank && rank <= 10) s.r10++;
    if (rank && rank <= 10) s.mrr += 1 / rank;
    stats.set(key, s);
  }
};
let linesTotal = 0;
let resultsTotal = 0;
const tmp = mkdtempSync(path.join(os.tmpdir(), "membank-locomo-"));
try {
  for (const [wsRel, qs] of byWs) {
    const dir = path.join(tmp, path.basename(wsRel));
    cpSync(path.join(evalDir, wsRel), dir, { recursive: true });
    const ws = await openWorkspace(dir);
    const store = openLineStore(path.join(dir, ".memory/recall-lines.sqlite"));
    syncLineStore(store, await listMemoryFiles(ws));
    for (const q of qs) {
      const intent = understandQuery(q.question, { asOf: new Date("2030-01-01") });
      const hits = rescoreLines(searchLines(store, intent.terms, { limit: 300 }), q.question, {
        speakerBoost: sb,
        fileWeight: fw,
      });
      const wins = buildWindows(hits, { before, after, neighborWeight: nw, max: 10 });
      let rank;
      wins.forEach((w, i) => {
        linesTotal += w.endLine - w.startLine + 1;
        resultsTotal++;
        if (rank) return;
        if (q.evidence.some((e) => e.path === w.path && e.line >= w.startLine && e.line <= w.endLine)) rank = i + 1;
      });
      add(q.category_name, rank);
    }
    store.close();
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const f = (x) => x.toFixed(3);
console.log(
  `before ${before} after ${after} nw ${nw} sb ${sb} fw ${fw}  mean lines/result ${(linesTotal / resultsTotal).toFixed(2)}`,
);
for (const [k, s] of [...stats].sort()) {
  console.log(
    `${k.padEnd(12)} n=${String(s.n).padStart(4)} R@1 ${f(s.r1 / s.n)} R@5 ${f(s.r5 / s.n)} R@10 ${f(s.r10 / s.n)} MRR@10 ${f(s.mrr / s.n)}`,
  );
}
