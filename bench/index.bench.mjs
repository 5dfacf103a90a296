#!/usr/bin/env node
// Index build and sync timings on the synthetic corpora (run `pnpm build` first).
//
//   node bench/index.bench.mjs [--corpora 1y,10y] [--runs 3] [--dims 384]
//
// For each corpus: a full BM25-only build (FTS5 unicode61 + trigram + facts), a full
// build with a fixed-dimension synthetic embedder (so the vector storage cost is timed
// apart from any model), and no-change syncs (the stat pass every search runs).
// Results are printed as a Markdown table and written to bench/.out/index-bench.json.
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeIndexes, indexFile, openWorkspace, syncIndex } from "../dist/src/index.js";
import { corpusCopy, flags, fmt, percentile, repoRoot, syntheticEmbedder } from "./index-support.mjs";

const opts = flags({ corpora: "1y,10y", runs: 3, dims: 384, syncs: 20 });
const rows = [];
const json = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg(), corpora: {} };

for (const name of opts.corpora.split(",")) {
  const dir = corpusCopy(name, "index");
  const ws = await openWorkspace(dir);
  const result = {};

  const bm25 = [];
  const bm25Cpu = [];
  let report;
  closeIndexes();
  await syncIndex(ws, { full: true }); // warm-up: module loading and JIT are not part of a build
  for (let r = 0; r < opts.runs; r++) {
    closeIndexes();
    const cpu = process.cpuUsage();
    report = await syncIndex(ws, { full: true });
    const used = process.cpuUsage(cpu);
    bm25Cpu.push((used.user + used.system) / 1000);
    bm25.push(report.ms);
  }
  result.files = report.scanned;
  result.chunks = report.chunks;
  result.facts = report.facts;
  result.buildBm25 = { runs: bm25, median: percentile(bm25, 50), cpuMedian: percentile(bm25Cpu, 50) };

  const noChange = [];
  const noChangeCpu = [];
  for (let i = 0; i < opts.syncs; i++) {
    const cpu = process.cpuUsage();
    noChange.push((await syncIndex(ws)).ms);
    const used = process.cpuUsage(cpu);
    noChangeCpu.push((used.user + used.system) / 1000);
  }
  result.noChangeSync = {
    p50: percentile(noChange, 50),
    p95: percentile(noChange, 95),
    cpuP50: percentile(noChangeCpu, 50),
  };

  const vec = [];
  const vecCpu = [];
  const embedMs = [];
  for (let r = 0; r < opts.runs; r++) {
    closeIndexes();
    // A fresh file each time: no embedding cache to carry over, every chunk is embedded.
    const { rmSync } = await import("node:fs");
    for (const s of ["", "-wal", "-shm"]) rmSync(indexFile(ws) + s, { force: true });
    const embedder = syntheticEmbedder(opts.dims);
    const cpu = process.cpuUsage();
    const rep = await syncIndex(ws, { embedder: { embedder, provider: embedder.id, model: embedder.model } });
    if (rep.embedded !== rep.chunks) throw new Error(`embedded ${rep.embedded} of ${rep.chunks} chunks`);
    const used = process.cpuUsage(cpu);
    vecCpu.push((used.user + used.system) / 1000);
    vec.push(rep.ms);
    embedMs.push(embedder.ms);
  }
  const embedder = syntheticEmbedder(opts.dims);
  const choice = { embedder, provider: embedder.id, model: embedder.model };
  const noChangeVec = [];
  for (let i = 0; i < opts.syncs; i++) noChangeVec.push((await syncIndex(ws, { embedder: choice })).ms);
  result.buildVectors = {
    dims: opts.dims,
    runs: vec,
    median: percentile(vec, 50),
    cpuMedian: percentile(vecCpu, 50),
    embedderMedian: percentile(embedMs, 50),
    // CPU time: wall-clock differences drown in the noise of a shared machine.
    vectorStorageCpu: percentile(vecCpu, 50) - percentile(bm25Cpu, 50) - percentile(embedMs, 50),
  };
  result.noChangeSyncVectors = { p50: percentile(noChangeVec, 50), p95: percentile(noChangeVec, 95) };
  closeIndexes();
  const { statSync } = await import("node:fs");
  result.indexBytes = statSync(indexFile(ws)).size;
  json.corpora[name] = result;

  rows.push(
    `| ${name} (${result.files} files, ${result.chunks} chunks, ${result.facts} facts) | ` +
      `${fmt(result.buildBm25.median)} (CPU ${fmt(result.buildBm25.cpuMedian)}) | ` +
      `${fmt(result.buildVectors.median)} (CPU ${fmt(result.buildVectors.cpuMedian)}; vectors ≈ ${fmt(Math.max(0, result.buildVectors.vectorStorageCpu))} CPU) | ` +
      `${fmt(result.noChangeSync.p50)} / ${fmt(result.noChangeSync.p95)} (CPU p50 ${fmt(result.noChangeSync.cpuP50)}) | ${(result.indexBytes / 1e6).toFixed(1)} MB |`,
  );
}

const out = path.join(repoRoot, "bench/.out/index-bench.json");
writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
console.log(
  `| corpus | full build, BM25 only (median of ${opts.runs}) | full build + ${opts.dims}-dim synthetic vectors | no-change sync p50 / p95 | index size (with vectors) |`,
);
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(
  `\nload average during the run: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; details in ${out}`,
);
