#!/usr/bin/env node
// The nightly pipeline (issue 6) on the 10-year synthetic workspace: one new day of logs plus
// one day of session transcripts (20 sessions, 2,000 messages), no LLM, no embeddings.
// Run `pnpm build` first.
//
//   node bench/nightly.bench.mjs [--runs 3] [--years 10] [--sessions 20] [--first 1] [--warm 0]
//
// `--warm N`: N untimed +1-day nightlies (2026-01-01, then the days after) follow the full
// baseline run, so the timed night (the day after them) is a night after an incremental one,
// as every real night but the first after an upgrade or a full run is. With 0 the timed night
// follows the full run, and pays what only that night pays (the opinion memo's order-free
// hashes, memo entries rewritten).
//
// `--sessions 0`: no chats, one new day of logs only. The CLI runs use the bin (the bundle
// with its code cache), with the clock of the night after the new day (NIGHTLY_NOW).
//
// Setup (untimed): generate the corpus (bench/generate.mjs), copy it to bench/.out/, git
// init + commit, and run the pipeline once so the bank and the index exist (the state a
// workspace is in every evening). Timed: for each run, a fresh copy of that state gets
// memory/2026-01-01.md (the new day) and the pipeline runs with the sessions folder, in
// process (runPipeline) and through the CLI (process start included). The CLI runs carry a
// probe (cliProbe below): where the wall time goes (start-up and imports before the pipeline,
// each step, exit), CPU, peak RSS and memory per step. `--first N`: also N first nightlies
// through the CLI on a fresh git-initialised copy of the corpus (no bank, no index yet).
// Writes bench/.out/nightly-bench.json.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliPipeline } from "../dist/src/cli/pipelines.js";
import { closeIndexes, executePipeline, openWorkspace } from "../dist/src/internal.js";

// As `membank run nightly` runs it, with the CLI's run summary; each step also notes the
// process's RSS and heap when it ends (the nightly's memory, issue 16: peak RSS < 150 MB).
let memory = {};
const withMemory = (def) => ({
  ...def,
  steps: def.steps.map((step) => ({
    ...step,
    async run(ctx) {
      const result = await step.run(ctx);
      const m = process.memoryUsage();
      memory[step.name] = { rssMB: Math.round(m.rss / 1e6), heapMB: Math.round(m.heapUsed / 1e6) };
      return result;
    },
  })),
});
const runPipeline = (ws, name, opts) => executePipeline(ws, withMemory(cliPipeline(name)), opts);

import { generateDayLog } from "./generate.mjs";
import { flags, fmt, repoRoot } from "./index-support.mjs";

const opts = flags({ runs: 3, years: 10, sessions: 20, first: 1, warm: 0 });
const NEW_DAY = "2026-01-01";
const dayAfter = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The timed night's new day, and its clock (06:00 of the day after). */
const TIMED_DAY = dayAfter(NEW_DAY, opts.warm);
const TIMED_NOW = `${dayAfter(TIMED_DAY, 1)}T06:00:00Z`;
const corpus = path.join(repoRoot, "bench/.corpus", `${opts.years}y-sessions${opts.sessions}`);
const out = path.join(repoRoot, "bench/.out");
const sessionsDir = path.join(out, "nightly-sessions");
const base = path.join(out, "nightly-base");

const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

if (!existsSync(path.join(corpus, opts.sessions > 0 ? "sessions" : "memory"))) {
  execFileSync(
    process.execPath,
    [
      path.join(repoRoot, "bench/generate.mjs"),
      "--years",
      String(opts.years),
      "--out",
      corpus,
      "--sessions",
      String(opts.sessions),
    ],
    { stdio: "inherit" },
  );
}

// --- the evening before: bank and index exist, everything committed ----------------------
rmSync(base, { recursive: true, force: true });
rmSync(sessionsDir, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(corpus, base, {
  recursive: true,
  preserveTimestamps: true,
  filter: (src) => !src.startsWith(path.join(corpus, "sessions")),
});
if (opts.sessions > 0) cpSync(path.join(corpus, "sessions"), sessionsDir, { recursive: true });
// `--sessions 0`: the nightly as the issue times it, one new day of logs and no chats.
const sessionsFlag = opts.sessions > 0 ? ["--sessions", sessionsDir] : [];
writeFileSync(
  path.join(base, "membank.config.json"),
  `${JSON.stringify({ embedding: { provider: "none" }, llm: { provider: "none" }, sessions: { tz: "UTC" } }, null, 2)}\n`,
);
git(base, "init", "-q");
git(base, "add", "-A");
git(base, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus");
const firstNights = [];
for (let r = 0; r < opts.first; r++) firstNights.push(cliFirstNightly(r));
let t = performance.now();
const baseline = await runPipeline(await openWorkspace(base), "nightly", { now: new Date(`${NEW_DAY}T06:00:00Z`) });
const baselineMs = performance.now() - t;
closeIndexes?.();
console.log(
  `baseline (full reflect + index build of ${opts.years} years): ${fmt(baselineMs)}, status ${baseline.status}`,
);
for (let w = 0; w < opts.warm; w++) {
  const day = dayAfter(NEW_DAY, w);
  const log = path.join(base, "memory", `${day}.md`);
  writeFileSync(log, generateDayLog(day));
  // Written during the day, hours before the run (a log written within the run's 2 s slack
  // would be read again by the timed night).
  const written = Date.now() / 1000 - 3600;
  utimesSync(log, written, written);
  const warm = await runPipeline(await openWorkspace(base), "nightly", {
    now: new Date(`${dayAfter(day, 1)}T06:00:00Z`),
  });
  closeIndexes?.();
  if (warm.status !== "done") throw new Error(`warm night ${day}: ${warm.status} ${JSON.stringify(warm.error)}`);
  console.log(`warm night ${day} (untimed): status ${warm.status}`);
}

function freshCopy(tag) {
  const dir = path.join(out, `nightly-${tag}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true, preserveTimestamps: true });
  writeFileSync(path.join(dir, "memory", `${TIMED_DAY}.md`), generateDayLog(TIMED_DAY));
  // A copy's index entries all differ from the files in ctime (cp cannot keep it), so git
  // would re-hash all 3,700 files at the commit step's index refresh; a workspace's own
  // index is fresh (every nightly refreshes it). Untimed.
  git(dir, "update-index", "-q", "--refresh");
  return dir;
}

// --- the night: one new day + a day of sessions ----------------------------------------
const inProcess = [];
const cpu = [];
const cli = [];
const cliRuns = [];
let lastRecord;
for (let r = 0; r < opts.runs; r++) {
  const dir = freshCopy(`run-${r}`);
  const ws = await openWorkspace(dir);
  t = performance.now();
  const c0 = process.cpuUsage();
  memory = {};
  lastRecord = await runPipeline(ws, "nightly", {
    ...(opts.sessions > 0 ? { sessionsDir } : {}),
    now: new Date(TIMED_NOW),
  });
  inProcess.push(performance.now() - t);
  const c1 = process.cpuUsage(c0);
  cpu.push((c1.user + c1.system) / 1000);
  closeIndexes?.();
  if (lastRecord.status !== "done")
    throw new Error(`run ${r}: ${lastRecord.status} ${JSON.stringify(lastRecord.error)}`);

  const dir2 = freshCopy(`cli-${r}`);
  const probed = cliProbe(dir2, sessionsFlag, `run ${r}`, TIMED_NOW);
  cli.push(probed.wallMs);
  cliRuns.push(probed);
  rmSync(dir, { recursive: true, force: true });
  rmSync(dir2, { recursive: true, force: true });
}

const steps = Object.fromEntries(lastRecord.steps.map((s) => [s.name, s.durationMs]));
const counts = Object.fromEntries(lastRecord.steps.map((s) => [s.name, s.counts]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log("\n| measure | median | all runs |\n|---|---|---|");
console.log(`| nightly, in process (runPipeline) | ${fmt(median(inProcess))} | ${inProcess.map(fmt).join(", ")} |`);
console.log(
  `| CPU of this process (user+sys; git runs in child processes) | ${fmt(median(cpu))} | ${cpu.map(fmt).join(", ")} |`,
);
console.log(`| nightly, CLI incl. Node start | ${fmt(median(cli))} | ${cli.map(fmt).join(", ")} |`);
printProbes("+1-day nightly through the CLI", cliRuns);
if (firstNights.length > 0) printProbes("first nightly through the CLI (fresh copy, no bank, no index)", firstNights);
console.log(
  `\nload average: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
console.log(`\nsteps of the last in-process run (ms): ${JSON.stringify(steps)}`);
console.log(`counts: ${JSON.stringify(counts)}`);
console.log(
  `memory after each step of the last in-process run (the baseline ran in this process first): ${JSON.stringify(memory)}, peak RSS of this process ${Math.round(process.resourceUsage().maxRSS / 1000)} MB`,
);
console.log(`summary:\n  ${(lastRecord.summary ?? []).join("\n  ")}`);
writeFileSync(
  path.join(out, "nightly-bench.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      baselineMs,
      inProcess,
      cpu,
      cli,
      cliRuns,
      firstNights,
      steps,
      counts,
      memory,
      summary: lastRecord.summary,
    },
    null,
    2,
  )}\n`,
);

// --- the CLI probe: phases, CPU, memory per step --------------------------------------------

/** A preload for the CLI process: memory every 20 ms, and at exit peak RSS and CPU. */
function probeScript() {
  const file = path.join(out, "nightly-probe.cjs");
  writeFileSync(
    file,
    `const fs = require("node:fs");
// The night after the new day, as the in-process runs' \`now\`: with the real clock every
// upcoming/ongoing label of ten years of pages would flip at once, which no real night does.
// The probe's samples keep the real clock; the run record's times are shifted by \`offset\`.
const Real = Date;
const offset = process.env.NIGHTLY_NOW ? Real.parse(process.env.NIGHTLY_NOW) - Real.now() : 0;
if (offset !== 0) {
  globalThis.Date = class extends Real {
    constructor(...a) { if (a.length === 0) super(Real.now() + offset); else super(...a); }
    static now() { return Real.now() + offset; }
  };
}
const samples = [];
const take = () => { const m = process.memoryUsage(); samples.push([Real.now(), m.rss, m.heapUsed, m.external]); };
take();
setInterval(take, 20).unref();
process.on("exit", () => {
  take();
  const r = process.resourceUsage();
  fs.writeFileSync(process.env.NIGHTLY_PROBE, JSON.stringify({ samples, offset, maxRssKb: r.maxRSS, userUs: r.userCPUTime, sysUs: r.systemCPUTime }));
});
`,
  );
  return file;
}

/**
 * `membank run nightly --json` on `dir` with the probe: wall, CPU (this process; git runs in
 * children), peak RSS, and per phase (before the pipeline = Node start, imports, workspace
 * open, lock; each step; after = record, output, exit) its wall time and the highest RSS /
 * JS heap in use sampled during it.
 */
function cliProbe(dir, extra, label, now) {
  const probeOut = path.join(out, "nightly-probe.json");
  rmSync(probeOut, { force: true });
  const t0 = Date.now();
  const res = spawnSync(
    process.execPath,
    [
      "--require",
      probeScript(),
      path.join(repoRoot, "dist/membank.cjs"),
      "run",
      "nightly",
      "--workspace",
      dir,
      ...extra,
      "--json",
    ],
    {
      encoding: "utf8",
      env: { ...process.env, NIGHTLY_PROBE: probeOut, NIGHTLY_NOW: now },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const wallMs = Date.now() - t0;
  if (res.status !== 0 && res.status !== 3) throw new Error(`CLI ${label} exited ${res.status}: ${res.stderr}`);
  const record = JSON.parse(res.stdout);
  const probe = JSON.parse(readFileSync(probeOut, "utf8"));
  const at = (iso) => Date.parse(iso) - probe.offset;
  const bounds = [["before the pipeline (Node start, imports, config, lock)", t0]];
  bounds.push(["pipeline set-up (leftovers, run record, git preflight)", at(record.startedAt)]);
  for (const s of record.steps) if (s.startedAt) bounds.push([s.name, at(s.startedAt)]);
  bounds.push(["after the pipeline (record, output, exit)", at(record.finishedAt)]);
  bounds.push(["end", t0 + wallMs]);
  const phases = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [name, from] = bounds[i];
    const to = bounds[i + 1][1];
    const inside = probe.samples.filter(([t]) => t >= from && t < to);
    const max = (k) => (inside.length ? Math.max(...inside.map((x) => x[k])) / 1048576 : undefined);
    phases.push({ name, ms: to - from, rssMb: max(1), heapUsedMb: max(2), externalMb: max(3) });
  }
  return {
    wallMs,
    cpuMs: (probe.userUs + probe.sysUs) / 1000,
    peakRssMb: probe.maxRssKb / 1024,
    status: record.status,
    steps: Object.fromEntries(record.steps.map((s) => [s.name, s.durationMs])),
    phases,
  };
}

function cliFirstNightly(r) {
  const dir = path.join(out, `nightly-first-${r}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true, preserveTimestamps: true });
  git(dir, "update-index", "-q", "--refresh");
  const probed = cliProbe(dir, [], `first nightly ${r}`, `${NEW_DAY}T06:00:00Z`);
  rmSync(dir, { recursive: true, force: true });
  return probed;
}

function printProbes(title, runs) {
  if (runs.length === 0) return;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const mb = (x) => (x === undefined ? "-" : `${x.toFixed(0)} MB`);
  console.log(
    `\n${title}: wall ${runs.map((p) => fmt(p.wallMs)).join(", ")}; CPU of the node process ${runs
      .map((p) => fmt(p.cpuMs))
      .join(", ")}; peak RSS ${runs.map((p) => mb(p.peakRssMb)).join(", ")}`,
  );
  console.log(
    "| phase (median of runs) | wall | highest RSS sampled | JS heap in use | external |\n|---|---|---|---|---|",
  );
  runs[0].phases.forEach((ph, i) => {
    const col = (k) => median(runs.map((p) => p.phases[i]?.[k] ?? 0));
    console.log(
      `| ${ph.name} | ${fmt(col("ms"))} | ${mb(col("rssMb"))} | ${mb(col("heapUsedMb"))} | ${mb(col("externalMb"))} |`,
    );
  });
}
