#!/usr/bin/env node
// The nightly's index step alone (issue 16): the +1-day sync on the 10-year workspace, after
// retain, reflect and commit ran. Run `pnpm build` first.
//
//   node bench/index-step.bench.mjs [--runs 5] [--years 10] [--sessions 20] [--dist dist] [--setup yes]
//
// Setup (untimed, kept in bench/.out/index-step-pre until --setup yes): the corpus of
// bench/nightly.bench.mjs, its first nightly, then one new day + a day of sessions through the
// nightly minus its index step. That is the state the index step meets every night: the new
// log, its session digest and the re-rendered bank pages changed. Timed: for each run, a fresh
// copy of that state and `syncIndex(ws, { parseRetain })` with the changed logs already parsed
// (the retain step's parseMemo, as the nightly hands it over). CPU (user+sys) and wall.
// `--dist` picks the build to time, so two builds can be alternated run for run.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateDayLog } from "./generate.mjs";
import { flags, fmt, repoRoot } from "./index-support.mjs";

const opts = flags({ runs: 5, years: 10, sessions: 20, dist: "dist", setup: "no" });
const NEW_DAY = "2026-01-01";
const dist = path.resolve(repoRoot, opts.dist);
const lib = await import(pathToFileURL(path.join(dist, "src/internal.js")).href);
const corpus = path.join(repoRoot, "bench/.corpus", `${opts.years}y-sessions${opts.sessions}`);
const out = path.join(repoRoot, "bench/.out");
const pre = path.join(out, "index-step-pre");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

if (opts.setup === "yes" || !existsSync(path.join(pre, ".memory/index.sqlite"))) {
  if (!existsSync(path.join(corpus, "sessions"))) {
    const gen = path.join(repoRoot, "bench/generate.mjs");
    const args = ["--years", String(opts.years), "--out", corpus, "--sessions", String(opts.sessions)];
    execFileSync(process.execPath, [gen, ...args], { stdio: "inherit" });
  }
  const { cliPipeline } = await import(pathToFileURL(path.join(dist, "src/cli/pipelines.js")).href);
  rmSync(pre, { recursive: true, force: true });
  const sessions = path.join(corpus, "sessions");
  cpSync(corpus, pre, { recursive: true, preserveTimestamps: true, filter: (src) => !src.startsWith(sessions) });
  const config = { embedding: { provider: "none" }, llm: { provider: "none" }, sessions: { tz: "UTC" } };
  writeFileSync(path.join(pre, "membank.config.json"), `${JSON.stringify(config, null, 2)}\n`);
  git(pre, "init", "-q");
  git(pre, "add", "-A");
  git(pre, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus");
  const nightly = cliPipeline("nightly");
  const first = await lib.executePipeline(await lib.openWorkspace(pre), nightly, {
    now: new Date(`${NEW_DAY}T06:00:00Z`),
  });
  lib.closeIndexes();
  writeFileSync(path.join(pre, "memory", `${NEW_DAY}.md`), generateDayLog(NEW_DAY));
  const noIndex = { ...nightly, steps: nightly.steps.filter((s) => s.name !== "index") };
  const night = await lib.executePipeline(await lib.openWorkspace(pre), noIndex, {
    sessionsDir: sessions,
    now: new Date("2026-01-02T06:00:00Z"),
  });
  lib.closeIndexes();
  if (first.status !== "done" || night.status !== "done") throw new Error(`setup: ${first.status} ${night.status}`);
  console.log(`setup: first nightly ${first.status}, +1 day without the index step ${night.status}`);
}

const changedLogs = [`memory/${NEW_DAY}.md`, `memory/${NEW_DAY}-sessions.md`];
const runs = [];
for (let r = 0; r < opts.runs; r++) {
  const dir = path.join(out, "index-step-run");
  rmSync(dir, { recursive: true, force: true });
  cpSync(pre, dir, { recursive: true, preserveTimestamps: true });
  const ws = await lib.openWorkspace(dir);
  // What the nightly's retain step leaves: the changed logs parsed, the parser loaded.
  const parseRetain = lib.parseMemo();
  for (const rel of changedLogs) {
    const text = readFileSync(path.join(dir, rel), "utf8");
    parseRetain(rel, text, { defaultConfidence: ws.config.retain.defaultConfidence, invalidLines: [] });
  }
  const t = performance.now();
  const c0 = process.cpuUsage();
  const report = await lib.syncIndex(ws, { parseRetain });
  const c = process.cpuUsage(c0);
  const run = { wall: performance.now() - t, cpu: (c.user + c.system) / 1000, load: os.loadavg()[0] };
  runs.push(run);
  lib.closeIndexes();
  console.log(
    `run ${r}: wall ${fmt(run.wall)}, CPU ${fmt(run.cpu)}, changed ${report.changed} of ${report.scanned} files, ` +
      `${report.chunks} chunks, ${report.facts} facts, load ${run.load.toFixed(1)}`,
  );
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `${opts.dist}: median wall ${fmt(median(runs.map((x) => x.wall)))}, CPU ${fmt(median(runs.map((x) => x.cpu)))}`,
);
writeFileSync(
  path.join(out, "index-step-bench.json"),
  `${JSON.stringify({ date: new Date().toISOString(), dist: opts.dist, cpus: os.cpus().length, runs }, null, 2)}\n`,
);
