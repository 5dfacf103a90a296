#!/usr/bin/env node
// LoCoMo retrieval benchmark for `recall` (issue 4).
//
//   pnpm build && node bench/locomo.bench.mjs [--mode bm25|hybrid|both] [--fusion rrf|weighted]
//        [--before N --after N] [--k 10] [--conv conv-26 | --convs 3] [--vw W] [--fw W] [--nw W]
//        [--cov W] [--covspan N] [--tw W] [--rw W] [--turn on|off] [--semw W] [--semchunks N] [--semmin S] [--sempara W] [--mhw W]
//
// --convs N runs only the first N conversations (a quick subset while iterating);
// --fw/--nw/--cov/--covspan/--tw/--rw/--turn override the line ranking (src/recall/linerank.ts, windows.ts) to
// measure alternatives to the defaults. --semw/--semchunks/--semmin: the semantic candidate arm
// (hybrid only: weight, nearest chunks, minimum cosine, weight when the words find
// little; src/recall/vector-source.ts). --mhw: the
// multi-hop stage's weight (src/recall/multihop.ts; 0 turns it off).
//
// For each of the 10 conversations: copy the (read-only) workspace into bench/.out/locomo/<mode>/
// (kept between runs: its .memory index and embedding cache make a re-run quick; --fresh starts
// over), ask every question of queries.jsonl with recall(), and count a hit at k when a result's
// cited line range contains a gold evidence line. Prints R@1/5/10 and MRR@10 per category
// and overall, and the mean lines per result (bigger snippets make hits easier).
// "Today" (asOf) is the day after the conversation's last session, as for an agent asked
// at the end of it.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { helpFromHeader } from "./index-support.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const evalDir = path.resolve(root, "../shared/eval/locomo");
const lib = await import(path.join(root, "dist/src/internal.js"));

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const modes = flag("mode", "both") === "both" ? ["bm25", "hybrid"] : [flag("mode", "bm25")];
const fusion = flag("fusion", "weighted");
const before = Number(flag("before", "1"));
const after = Number(flag("after", "1"));
const K = Number(flag("k", "10"));
const only = flag("conv", undefined);
const vw = flag("vw", undefined);
const fw = flag("fw", undefined);
const nw = flag("nw", undefined);
const cov = flag("cov", undefined);
const covSpan = flag("covspan", undefined);
const tw = flag("tw", undefined);
const rw = flag("rw", undefined);
const turn = flag("turn", undefined);
const syn = flag("synonyms", undefined);
const sw = flag("sw", undefined);
const convs = flag("convs", undefined);
const semw = flag("semw", undefined);
const semChunks = flag("semchunks", undefined);
const semMin = flag("semmin", undefined);
const mhw = flag("mhw", undefined);
const semPara = flag("sempara", undefined);
helpFromHeader(import.meta.url);

const queries = readFileSync(path.join(evalDir, "queries.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l))
  .filter((q) => !only || q.workspace.endsWith(only));
const byWs = new Map();
for (const q of queries) {
  if (!byWs.has(q.workspace)) byWs.set(q.workspace, []);
  byWs.get(q.workspace).push(q);
}
if (convs !== undefined) for (const ws of [...byWs.keys()].slice(Number(convs))) byWs.delete(ws);

function parseSource(s) {
  const m = /^(.*)#L(\d+)-L(\d+)$/.exec(s);
  return m ? { path: m[1], start: Number(m[2]), end: Number(m[3]) } : undefined;
}

async function run(mode) {
  const stats = new Map();
  const add = (cat, rank) => {
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
  let lines = 0;
  let results = 0;
  const times = [];
  const tmp = path.join(root, "bench/.out/locomo", mode);
  if (args.includes("--fresh")) rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [wsRel, qs] of byWs) {
    const dir = path.join(tmp, path.basename(wsRel));
    cpSync(path.join(evalDir, wsRel), dir, { recursive: true });
    const ws = await lib.openWorkspace(dir);
    const days = readdirSync(path.join(dir, "memory")).sort();
    const last = days[days.length - 1].slice(0, 10);
    const asOf = new Date(Date.parse(`${last}T12:00:00Z`) + 86_400_000);
    const embedder =
      mode === "hybrid" ? await lib.resolveEmbedder(ws, { provider: "use" }) : { embedder: null, provider: "none" };
    if (mode === "hybrid" && !embedder.embedder) throw new Error(`use embedder unavailable: ${embedder.fallback}`);
    await lib.syncIndex(ws, { embedder });
    let first = true;
    for (const q of qs) {
      const t = performance.now();
      const res = await lib.recall(ws, q.question, {
        k: K,
        asOf,
        embedder,
        budgetTokens: 1_000_000,
        fusion,
        ...(syn !== undefined ? { synonyms: syn } : {}),
        weights: {
          ...(sw !== undefined ? { synonyms: Number(sw) } : {}),
          ...(vw !== undefined ? { vector: Number(vw) } : {}),
          ...(semw !== undefined ? { semantic: Number(semw) } : {}),
          ...(mhw !== undefined ? { multihop: Number(mhw) } : {}),
        },
        semantic: {
          ...(semChunks !== undefined ? { chunks: Number(semChunks) } : {}),
          ...(semMin !== undefined ? { minSimilarity: Number(semMin) } : {}),
          ...(semPara !== undefined ? { paraphraseWeight: Number(semPara) } : {}),
        },
        window: {
          before,
          after,
          ...(nw !== undefined ? { neighborWeight: Number(nw) } : {}),
          ...(turn !== undefined ? { turnShift: turn === "on" } : {}),
        },
        lineRank: {
          ...(fw !== undefined ? { fileWeight: Number(fw) } : {}),
          ...(cov !== undefined ? { coverageWeight: Number(cov) } : {}),
          ...(covSpan !== undefined ? { coverageSpan: Number(covSpan) } : {}),
          ...(tw !== undefined ? { timeWordBoost: Number(tw) } : {}),
          ...(rw !== undefined ? { recencyBoost: Number(rw) } : {}),
        },
        sync: first,
      });
      first = false;
      times.push(performance.now() - t);
      let rank;
      res.results.forEach((r, i) => {
        const src = parseSource(r.source);
        if (!src) return;
        lines += src.end - src.start + 1;
        results++;
        if (rank) return;
        if (q.evidence.some((e) => e.path === src.path && e.line >= src.start && e.line <= src.end)) rank = i + 1;
      });
      add(q.category_name, rank);
    }
    lib.closeIndexes();
    await embedder.embedder?.close?.();
  }
  times.sort((a, b) => a - b);
  const f = (x) => x.toFixed(3);
  console.log(
    `\n## ${mode} (fusion ${fusion}${mode === "hybrid" && vw !== undefined ? `, vector weight ${vw}` : ""}${semw !== undefined ? `, semantic ${semw}` : ""}${semChunks !== undefined ? ` x${semChunks} chunks` : ""}${semMin !== undefined ? ` min ${semMin}` : ""}${semPara !== undefined ? ` paraphrase ${semPara}` : ""}${mhw !== undefined ? `, multihop ${mhw}` : ""}, window -${before}/+${after}, k ${K}): mean lines/result ${(lines / results).toFixed(2)}, ` +
      `recall p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(1)} ms`,
  );
  console.log("| category | n | R@1 | R@5 | R@10 | MRR@10 |\n|---|---|---|---|---|---|");
  for (const [k, s] of [...stats].sort((a, b) =>
    a[0] === "overall" ? 1 : b[0] === "overall" ? -1 : a[0] < b[0] ? -1 : 1,
  )) {
    console.log(`| ${k} | ${s.n} | ${f(s.r1 / s.n)} | ${f(s.r5 / s.n)} | ${f(s.r10 / s.n)} | ${f(s.mrr / s.n)} |`);
  }
}

for (const mode of modes) await run(mode);
