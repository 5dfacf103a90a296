#!/usr/bin/env node
import os from "node:os";
import { closeIndexes, indexFile, openWorkspace, syncIndex } from "../dist/src/internal.js";
import { corpusCopy, flags, fmt, percentile, report, syntheticEmbedder } from "./index-support.mjs";

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

report(
  "index-bench",
  json,
  `| corpus | full build, BM25 only (median of ${opts.runs}) | full build + ${opts.dims}-dim synthetic vectors | no-change sync p50 / p95 | index size (with vectors) |`,
  rows,
);
