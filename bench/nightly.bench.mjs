#!/usr/bin/env node
// The nightly pipeline (issue 6) on the 10-year synthetic workspace: one new day of logs plus
// one day of session transcripts (20 sessions, 2,000 messages), no LLM, no embeddings.
// Run `pnpm build` first.
//
//   node bench/nightly.bench.mjs [--runs 3] [--years 10] [--sessions 20]
//
// Setup (untimed): generate the corpus (bench/generate.mjs), copy it to bench/.out/, git
// init + commit, and run the pipeline once so the bank and the index exist (the state a
// workspace is in every evening). Timed: for each run, a fresh copy of that state gets
// memory/2026-01-01.md (the new day) and the pipeline runs with the sessions folder, in
// process (runPipeline) and through the CLI (process start included). Writes
// bench/.out/nightly-bench.json.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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

const opts = flags({ runs: 3, years: 10, sessions: 20 });
const NEW_DAY = "2026-01-01";
const corpus = path.join(repoRoot, "bench/.corpus", `${opts.years}y-sessions${opts.sessions}`);
const out = path.join(repoRoot, "bench/.out");
const sessionsDir = path.join(out, "nightly-sessions");
const base = path.join(out, "nightly-base");

const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

if (!existsSync(path.join(corpus, "sessions"))) {
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
cpSync(path.join(corpus, "sessions"), sessionsDir, { recursive: true });
writeFileSync(
  path.join(base, "membank.config.json"),
  `${JSON.stringify({ embedding: { provider: "none" }, llm: { provider: "none" }, sessions: { tz: "UTC" } }, null, 2)}\n`,
);
git(base, "init", "-q");
git(base, "add", "-A");
git(base, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus");
let t = performance.now();
const baseline = await runPipeline(await openWorkspace(base), "nightly", { now: new Date(`${NEW_DAY}T06:00:00Z`) });
const baselineMs = performance.now() - t;
closeIndexes?.();
console.log(
  `baseline (full reflect + index build of ${opts.years} years): ${fmt(baselineMs)}, status ${baseline.status}`,
);

function freshCopy(tag) {
  const dir = path.join(out, `nightly-${tag}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true, preserveTimestamps: true });
  writeFileSync(path.join(dir, "memory", `${NEW_DAY}.md`), generateDayLog(NEW_DAY));
  return dir;
}

// --- the night: one new day + a day of sessions ----------------------------------------
const inProcess = [];
const cpu = [];
const cli = [];
const cliRss = [];
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
let lastRecord;
for (let r = 0; r < opts.runs; r++) {
  const dir = freshCopy(`run-${r}`);
  const ws = await openWorkspace(dir);
  t = performance.now();
  const c0 = process.cpuUsage();
  memory = {};
  lastRecord = await runPipeline(ws, "nightly", { sessionsDir, now: new Date("2026-01-02T06:00:00Z") });
  inProcess.push(performance.now() - t);
  const c1 = process.cpuUsage(c0);
  cpu.push((c1.user + c1.system) / 1000);
  closeIndexes?.();
  if (lastRecord.status !== "done")
    throw new Error(`run ${r}: ${lastRecord.status} ${JSON.stringify(lastRecord.error)}`);

  const dir2 = freshCopy(`cli-${r}`);
  t = performance.now();
  const argv = [
    process.execPath,
    path.join(repoRoot, "dist/src/cli/main.js"),
    "run",
    "nightly",
    "--workspace",
    dir2,
    "--sessions",
    sessionsDir,
  ];
  // GNU time, when there is one, gives the CLI's peak RSS (its last stderr line).
  const res = timeBin
    ? spawnSync(timeBin, ["-f", "peak-rss-kB %M", ...argv], { encoding: "utf8" })
    : spawnSync(argv[0], argv.slice(1), { encoding: "utf8" });
  cli.push(performance.now() - t);
  if (res.status !== 0) throw new Error(`CLI run ${r} exited ${res.status}: ${res.stderr}`);
  const peak = /peak-rss-kB (\d+)\s*$/.exec(res.stderr ?? "");
  if (peak) cliRss.push(Math.round(Number(peak[1]) / 1000));
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
if (cliRss.length) console.log(`| peak RSS of the CLI run (MB) | ${median(cliRss)} | ${cliRss.join(", ")} |`);
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
      cliRss,
      steps,
      counts,
      memory,
      summary: lastRecord.summary,
    },
    null,
    2,
  )}\n`,
);
