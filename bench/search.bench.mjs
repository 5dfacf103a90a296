#!/usr/bin/env node
// memory_search latency on the synthetic corpora (run `pnpm build` first).
//
//   node bench/search.bench.mjs [--corpora 1y,10y] [--iterations 300] [--cli-runs 15] [--dims 384]
//
// In-process: p50/p95 of search() over a fixed query mix (ids, tickets, error strings,
// names, topics, a CJK term), (a) the query alone (sync: false), (b) with the freshness
// stat pass every real call does, (c) hybrid with a 384-dim synthetic embedder (vec0).
// CLI: wall time of `membank search --provider none --json`, including Node start.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { closeIndexes, openWorkspace, search, syncIndex } from "../dist/src/internal.js";
import { corpusCopy, flags, fmt, percentile, repoRoot, report, syntheticEmbedder } from "./index-support.mjs";

const opts = flags({ corpora: "1y,10y", iterations: 300, cliRuns: 15, dims: 384 });

// Terms that the generator's vocabulary produces (bench/generate-vocab.mjs), of each kind a user types.
const QUERIES = [
  "FJD-3811",
  "PAY-7067",
  "8bc05aa",
  "HTTP 503 from /v2/payments",
  "certificate has expired",
  "TypeError: Cannot read properties of undefined",
  "Mara offsite",
  "on-call rotate weekly",
  "hiring rubric onboarding-v2",
  "Lisbon trip",
  "Postgres operations work",
  "what did Priya merge?",
  "数据库",
];

async function timeSearches(ws, options) {
  const times = [];
  for (let i = 0; i < 20; i++) await search(ws, QUERIES[i % QUERIES.length], options); // warm-up
  for (let i = 0; i < opts.iterations; i++) {
    const q = QUERIES[i % QUERIES.length];
    const t = performance.now();
    await search(ws, q, options);
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const cli = path.join(repoRoot, "dist/src/cli/main.js");
function timeCli(dir) {
  const times = [];
  for (let i = 0; i < opts.cliRuns; i++) {
    const q = QUERIES[i % QUERIES.length];
    const t = performance.now();
    execFileSync(process.execPath, [cli, "search", "--workspace", dir, "--provider", "none", "--json", q], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const json = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg(), corpora: {} };
const rows = [];
for (const name of opts.corpora.split(",")) {
  const dir = corpusCopy(name, "search");
  const ws = await openWorkspace(dir);
  await syncIndex(ws);
  const r = {};
  r.bm25QueryOnly = await timeSearches(ws, { sync: false });
  r.bm25WithFreshness = await timeSearches(ws, {});
  const embedder = syntheticEmbedder(opts.dims);
  const choice = { embedder, provider: embedder.id, model: embedder.model };
  await syncIndex(ws, { embedder: choice });
  r.hybridQueryOnly = await timeSearches(ws, { sync: false, embedder: choice });
  closeIndexes();
  r.cli = timeCli(dir);
  json.corpora[name] = r;
  rows.push(
    `| ${name} | ${fmt(r.bm25QueryOnly.p50)} / ${fmt(r.bm25QueryOnly.p95)} | ${fmt(r.bm25WithFreshness.p50)} / ${fmt(r.bm25WithFreshness.p95)} | ` +
      `${fmt(r.hybridQueryOnly.p50)} / ${fmt(r.hybridQueryOnly.p95)} | ${fmt(r.cli.p50)} / ${fmt(r.cli.p95)} |`,
  );
}

report(
  "search-bench",
  json,
  "| corpus | search p50 / p95 (query only) | with freshness stat pass | hybrid, 384-dim vec0 (query only) | CLI `search --provider none` incl. Node start |",
  rows,
);
