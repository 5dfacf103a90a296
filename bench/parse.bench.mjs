// Parse benchmark: readFacts over a deterministic 1,000-log workspace, plus one 5 MB log.
// Run: pnpm build && node bench/parse.bench.mjs [--files 1000] [--seed 1] [--runs 5]
// Uses the compiled library (dist/), so the numbers are what the CLI pays.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openWorkspace, parseMarkdown, parseRetain, readFacts } from "../dist/src/internal.js";
import { DEFAULT_END, formatDay, generateDayLog, generateMemoryMd, parseDay } from "./generate.mjs";
import { helpFromHeader } from "./index-support.mjs";

helpFromHeader();

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "1000" },
    seed: { type: "string", default: "1" },
    runs: { type: "string", default: "5" },
  },
});
const files = Number(values.files);
const seed = Number(values.seed);
const runs = Number(values.runs);
const DAY_MS = 86_400_000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

async function time(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

const root = mkdtempSync(path.join(tmpdir(), "membank-parse-bench-"));
try {
  // The last `files` days up to DEFAULT_END, one log each (same generator as bench/generate.mjs).
  mkdirSync(path.join(root, "memory"));
  let bytes = 0;
  const end = parseDay(DEFAULT_END);
  for (let i = files - 1; i >= 0; i--) {
    const date = formatDay(end - i * DAY_MS);
    const text = generateDayLog(date, { seed });
    bytes += Buffer.byteLength(text);
    writeFileSync(path.join(root, "memory", `${date}.md`), text);
  }
  writeFileSync(path.join(root, "MEMORY.md"), generateMemoryMd());
  const ws = await openWorkspace(root);

  await readFacts(ws); // warm-up: module load, JIT
  const samples = [];
  let result;
  for (let r = 0; r < runs; r++) {
    const t = await time(() => readFacts(ws));
    samples.push(t.ms);
    result = t.value;
  }

  // Baseline: what a full remark parse of every file would cost (the parser only runs
  // remark on blocks of Retain sections that are not plain one-line bullets).
  const texts = [];
  for (let i = 0; i < files; i++) {
    const date = formatDay(end - (files - 1 - i) * DAY_MS);
    texts.push(readFileSync(path.join(root, "memory", `${date}.md`), "utf8"));
  }
  const remark = await time(() => {
    for (const t of texts) parseMarkdown(t);
  });

  // Two 5 MB logs. Typical: narrative (the corpus's logs pasted in, without their Retain
  // sections) with a 2,000-fact Retain section at the end. Worst case: the whole
  // 5 MB is one Retain section (~67k facts), where chrono (dates in ~1 fact of 4) dominates.
  const retainLines = texts.flatMap((t) => t.slice(t.indexOf("\n## Retain\n") + 11).split("\n")).filter((l) => l);
  function bigLog(retainFacts) {
    const out = ["# 2025-12-31", ""];
    let size = 0;
    for (let i = 0; size < 5 * 1024 * 1024 - retainFacts * 90; i++) {
      const log = texts[i % texts.length];
      const t = log.slice(0, log.indexOf("\n## Retain\n")).replace(/^# /gm, "### ");
      out.push(t);
      size += t.length + 1;
    }
    out.push("## Retain");
    for (let i = 0; size < 5 * 1024 * 1024 && i < retainFacts; i++) {
      const line = `${retainLines[i % retainLines.length]} (copy ${i})`;
      out.push(line);
      size += line.length + 1;
    }
    return out.join("\n");
  }
  async function timeBig(text, n) {
    const samples = [];
    let value;
    for (let r = 0; r < n; r++) {
      const t = await time(() => parseRetain("memory/2025-12-31.md", text));
      samples.push(t.ms);
      value = t.value;
    }
    return {
      bytes: Buffer.byteLength(text),
      facts: value.facts.length,
      diagnostics: value.diagnostics.length,
      ms: { min: Math.min(...samples), median: median(samples) },
    };
  }
  const typical = await timeBig(bigLog(2000), Math.max(1, Math.min(runs, 3)));
  const worst = await timeBig(bigLog(Number.POSITIVE_INFINITY), 1);

  const report = {
    files,
    seed,
    bytes,
    facts: result.facts.length,
    diagnostics: result.diagnostics.length,
    readFactsMs: { min: Math.min(...samples), median: median(samples), runs: samples.map(Math.round) },
    fullRemarkBaselineMs: Math.round(remark.ms),
    bigLog: typical,
    bigRetainSection: worst,
    node: process.version,
  };
  console.log(
    `readFacts, ${files} logs (${(bytes / 1e6).toFixed(2)} MB, ${report.facts} facts, ${report.diagnostics} diagnostics): ` +
      `min ${ms(report.readFactsMs.min)}, median ${ms(report.readFactsMs.median)} over ${runs} runs`,
  );
  console.log(`  baseline, remark over every whole file: ${ms(remark.ms)}`);
  for (const [label, b] of [
    ["5 MB log, narrative + Retain", typical],
    ["5 MB log, all one Retain section", worst],
  ]) {
    console.log(
      `parseRetain, ${label} (${(b.bytes / 1e6).toFixed(1)} MB, ${b.facts} facts, ${b.diagnostics} diagnostics): ` +
        `min ${ms(b.ms.min)}, median ${ms(b.ms.median)}`,
    );
  }
  console.log(JSON.stringify(report));
} finally {
  rmSync(root, { recursive: true, force: true });
}
