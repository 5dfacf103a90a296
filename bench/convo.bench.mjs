#!/usr/bin/env node
// Conversational retrieval benchmark for `recall` (issue 14), for a second public benchmark
// beside LoCoMo: membank at its default window against plain BM25 over fixed 3-line and
// 10-line windows, on the same questions, per category.
//
//   node bench/convert-realtalk.mjs --in REALTALK/data            (once; see that file)
//   node bench/convert-longmemeval.mjs --in longmemeval_s.json     (once; see that file)
//   pnpm bench:realtalk | pnpm bench:longmemeval
//   node bench/convo.bench.mjs --data DIR [--limit N] [--k 10] [--systems membank,bm25-3,bm25-10] [--keep]
//        [--systems membank-use [--vw W]]   (with the offline USE embedder, as a configured provider)
//        [--before N --after N]             (membank's window instead of the default -1/+1)
//
// --data is any folder in the layout of ../shared/eval/locomo (queries.jsonl + workspaces/),
// so `--data ../shared/eval/locomo` scores LoCoMo the same way (and gives bench:locomo's
// numbers at -1/+1). --limit N takes the first N workspaces (a quick subset). Each workspace
// is copied into bench/.out/convo-run/<pid>/ (the source may be read-only; the index lives in the
// copy's .memory/) and removed after its questions unless --keep. "Today" (asOf) is the
// question's date when the data gives one (LongMemEval does), else the day after the
// workspace's last log, as in locomo.bench.mjs. recall runs with the default config (no
// embedder: BM25 + structure), k results and an unlimited token budget, so every system
// returns k results and only ranking and snippet size differ. Prints R@1/5/10 and MRR@10
// per category, lines and characters per result, and a side-by-side table.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bm25Windows, comparison, loadEvalSet, parseSource, readLogs, Scores } from "./eval-score.mjs";
import { helpFromHeader } from "./index-support.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
helpFromHeader(import.meta.url);
const dataDir = path.resolve(flag("data", path.join(root, "bench/.out/realtalk")));
const K = Number(flag("k", "10"));
const limit = flag("limit", undefined);
const systems = flag("systems", "membank,bm25-3,bm25-10").split(",");
const vw = flag("vw", undefined);
// The window around a matched line (default: recall's, -1/+1); a wider one compares membank
// with the 10-line baseline at the same snippet size.
const before = flag("before", undefined);
const after = flag("after", undefined);
for (const sys of systems) {
  if (!/^(membank|membank-use|bm25-\d+)$/.test(sys)) {
    console.error(`convo.bench: unknown system ${sys}: use membank, membank-use, bm25-N (N-line windows)`);
    process.exit(2);
  }
}
if (!existsSync(path.join(dataDir, "queries.jsonl"))) {
  console.error(
    `convo.bench: ${dataDir}/queries.jsonl not found: convert your copy first, e.g.\n` +
      "  node bench/convert-realtalk.mjs --in REALTALK/data --out bench/.out/realtalk\n" +
      "  node bench/convert-longmemeval.mjs --in longmemeval_s.json --out bench/.out/longmemeval",
  );
  process.exit(1);
}
const lib = await import(path.join(root, "dist/src/internal.js"));

const { byWorkspace } = loadEvalSet(dataDir);
const wsList = [...byWorkspace.keys()].slice(0, limit === undefined ? undefined : Number(limit));
const win = before !== undefined || after !== undefined ? `window -${before ?? 1}/+${after ?? 1}` : "default window";
const names = { membank: `membank (${win})`, "membank-use": `membank + USE (${win})` };
const scores = new Map(systems.map((s) => [s, new Scores(names[s] ?? s)]));
// Per process: two runs at once (say LoCoMo and REALTALK) must not remove each other's copies.
const runDir = path.join(root, "bench/.out/convo-run", String(process.pid));
rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir, { recursive: true });

let done = 0;
for (const wsRel of wsList) {
  const qs = byWorkspace.get(wsRel);
  const src = path.join(dataDir, wsRel);
  const logs = readLogs(src);
  const textOf = (r) => (logs.get(r.path) ?? []).slice(r.start - 1, r.end).join("\n");
  const days = readdirSync(path.join(src, "memory")).sort();
  const dayAfterLast = new Date(Date.parse(`${days[days.length - 1].slice(0, 10)}T12:00:00Z`) + 86_400_000);

  for (const sys of systems.filter((s) => s.startsWith("bm25-"))) {
    const search = bm25Windows(logs, Number(sys.slice(5)), lib.STOP_WORDS);
    const sc = scores.get(sys);
    for (const q of qs) {
      const t = performance.now();
      const res = search(q.question, K);
      sc.times.push(performance.now() - t);
      sc.add(q.category_name ?? q.category, res, q.evidence, textOf);
    }
  }

  for (const sys of systems.filter((s) => s.startsWith("membank"))) {
    // "membank" is the default config (no embedder); "membank-use" adds the offline USE
    // embedder as a configured provider would (vector weight: the default, or --vw).
    const dir = path.join(runDir, sys, path.basename(wsRel));
    cpSync(src, dir, { recursive: true });
    const ws = await lib.openWorkspace(dir);
    const embedder =
      sys === "membank-use" ? await lib.resolveEmbedder(ws, { provider: "use" }) : { embedder: null, provider: "none" };
    if (sys === "membank-use" && !embedder.embedder) throw new Error(`use embedder unavailable: ${embedder.fallback}`);
    await lib.syncIndex(ws, { embedder });
    const sc = scores.get(sys);
    for (const q of qs) {
      const t = performance.now();
      const res = await lib.recall(ws, q.question, {
        k: K,
        asOf: q.asOf ? new Date(q.asOf) : dayAfterLast,
        budgetTokens: 1_000_000,
        embedder,
        ...(vw !== undefined ? { weights: { vector: Number(vw) } } : {}),
        ...(before !== undefined || after !== undefined
          ? { window: { before: Number(before ?? 1), after: Number(after ?? 1) } }
          : {}),
        sync: false,
      });
      sc.times.push(performance.now() - t);
      const cited = res.results.map((r) => parseSource(r.source)).filter((r) => r !== undefined);
      sc.add(q.category_name ?? q.category, cited, q.evidence, textOf);
    }
    lib.closeIndexes();
    await embedder.embedder?.close?.();
    if (!args.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  }
  if (++done % 50 === 0) console.error(`${done}/${wsList.length} workspaces`);
}

if (!args.includes("--keep")) rmSync(runDir, { recursive: true, force: true });
const n = wsList.reduce((a, w) => a + byWorkspace.get(w).length, 0);
console.log(`# ${path.relative(root, dataDir) || dataDir}: ${n} questions in ${wsList.length} workspaces, k ${K}`);
for (const s of scores.values()) console.log(s.table());
console.log(comparison([...scores.values()]));
