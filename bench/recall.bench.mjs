#!/usr/bin/env node
import os from "node:os";
import { closeIndexes, openWorkspace, recall, syncIndex } from "../dist/src/internal.js";
import { corpusCopy, flags, fmt, percentile, report, syntheticEmbedder } from "./index-support.mjs";

const opts = flags({ corpora: "10y", iterations: 200, dims: 384 });
const asOf = new Date("2026-01-01T12:00:00Z");

// Names, tokens and topics from bench/generate-vocab.mjs, asked the way an agent would.
const QUERIES = [
  "Tell me about Priya",
  "what do we know about ledger-sync?",
  "what happened around March 12, 2024?",
  "what happened in November 2025?",
  "what did we do since last week?",
  "what does Mara prefer?",
  "does Jonas still think the migration is safe?",
  "FJD-3811",
  "8bc05aa",
  "LEDGER_SYNC_BATCH=500",
  "certificate has expired",
  "what did Priya decide in March 2025?",
  "Lisbon trip",
  "数据库",
];

async function timeRecalls(ws, options) {
  const times = [];
  for (let i = 0; i < QUERIES.length; i++) await recall(ws, QUERIES[i], { asOf, ...options }); // warm-up
  for (let i = 0; i < opts.iterations; i++) {
    const q = QUERIES[i % QUERIES.length];
    const t = performance.now();
    await recall(ws, q, { asOf, ...options });
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) };
}

const json = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: [], corpora: {} };
const rows = [];
for (const name of opts.corpora.split(",")) {
  const dir = corpusCopy(name, "recall");
  const ws = await openWorkspace(dir);
  await syncIndex(ws);
  const r = {};
  let t = performance.now();
  await recall(ws, "warm", { asOf }); // builds the line store once
  r.lineStoreBuildMs = performance.now() - t;
  t = performance.now();
  await recall(ws, "warm", { asOf });
  r.noChangeCallMs = performance.now() - t;
  r.queryOnly = await timeRecalls(ws, { sync: false });
  r.withFreshness = await timeRecalls(ws, {});
  const embedder = syntheticEmbedder(opts.dims);
  const choice = { embedder, provider: embedder.id, model: embedder.model };
  await syncIndex(ws, { embedder: choice });
  r.hybridQueryOnly = await timeRecalls(ws, { sync: false, embedder: choice });
  closeIndexes();
  json.corpora[name] = r;
  rows.push(
    `| ${name} | ${fmt(r.queryOnly.p50)} / ${fmt(r.queryOnly.p95)} | ${fmt(r.withFreshness.p50)} / ${fmt(r.withFreshness.p95)} | ` +
      `${fmt(r.hybridQueryOnly.p50)} / ${fmt(r.hybridQueryOnly.p95)} | ${fmt(r.lineStoreBuildMs)} |`,
  );
}
json.loadavg = os.loadavg();
report(
  "recall-bench",
  json,
  "| corpus | recall p50 / p95 (query only) | with freshness stat pass | hybrid, 384-dim synthetic (query only) | line store first build |",
  rows,
);
