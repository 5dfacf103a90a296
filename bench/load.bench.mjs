#!/usr/bin/env node
// Under load (issue 17): 8 concurrent CLI recall processes and 8 concurrent MCP
// memory_recall calls over one `membank mcp` server, repeated for 60 s, while `membank
// watch` runs and a nightly run with one new day of input starts after 5 s. Every call
// must answer with results (no "database is locked", no stack trace). Reports p50/p95/p99
// latency and throughput per channel, and the nightly's own duration under that load
// next to its duration alone. Run `pnpm build` first.
//
//   node bench/load.bench.mjs [--years 1] [--seconds 60] [--cli 8] [--mcp 8]
//
// Setup (untimed): a copy of the synthetic corpus (bench/generate.mjs), git init + commit,
// one nightly run so the bank and the index exist. Writes bench/.out/load-bench.json.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateDayLog } from "./generate.mjs";
import { corpusCopy, flags, fmt, repoRoot } from "./index-support.mjs";
import { runCli, runLoad, summarize } from "./load-driver.mjs";

const opts = flags({ years: 1, seconds: 60, cli: 8, mcp: 8 });
const cli = path.join(repoRoot, "dist/src/cli/main.js");
const NEW_DAY = "2026-01-01";
const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

const base = corpusCopy(`${opts.years}y`, "load-base");
writeFileSync(
  path.join(base, "membank.config.json"),
  `${JSON.stringify({ embedding: { provider: "none" }, llm: { provider: "none" }, sessions: { tz: "UTC" } }, null, 2)}\n`,
);
git(base, "init", "-q");
git(base, "add", "-A");
git(base, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus");
const first = await runCli(cli, ["run", "nightly", "-w", base, "--sessions", path.join(base, "memory")]);
if (first.code !== 0 && first.code !== 3) throw new Error(`baseline nightly: exit ${first.code} ${first.stderr}`);
console.log(`baseline nightly (bank + index of ${opts.years} year(s)): ${fmt(first.ms)}`);

const copy = (tag) => {
  const dir = path.join(repoRoot, "bench/.out", `load-${tag}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true, preserveTimestamps: true });
  return dir;
};
const newDay = (dir) => writeFileSync(path.join(dir, "memory", `${NEW_DAY}.md`), generateDayLog(NEW_DAY));
const noSessions = (dir) => path.join(dir, "memory"); // no transcripts there: the nightly's input is the new day

// The nightly alone, for comparison.
const quiet = copy("quiet");
newDay(quiet);
const alone = await runCli(cli, ["run", "nightly", "-w", quiet, "--sessions", noSessions(quiet)]);
if (alone.code !== 0) throw new Error(`nightly alone: exit ${alone.code} ${alone.stderr}`);
console.log(`nightly alone (+1 day): ${fmt(alone.ms)}`);

const root = copy("busy");
const run = await runLoad({
  cli,
  root,
  seconds: opts.seconds,
  cliWorkers: opts.cli,
  mcpWorkers: opts.mcp,
  nightlyAfterMs: 5000,
  queries: [
    "Tell me about Priya",
    "what does Mara prefer?",
    "what happened around Nov 27?",
    "ledger-sync retry fix",
    "billing-api outage",
    "what did Jonas say about payments-gateway?",
    "what happened in the last week of December?",
    "LEDGER_SYNC_BATCH",
  ],
  afterQuery: `what happened on ${NEW_DAY}?`,
  newInput: newDay,
});
const s = summarize(run);
const failed = run.calls.filter((c) => c.error);
console.log(
  `\n${opts.cli} CLI recall processes + ${opts.mcp} MCP memory_recall calls for ${opts.seconds} s, ${opts.years} year(s):`,
);
console.log("\n| channel | calls | failed | p50 | p95 | p99 | calls/s |\n|---|---|---|---|---|---|---|");
for (const [via, v] of Object.entries(s)) {
  console.log(`| ${via} | ${v.calls} | ${v.failed} | ${fmt(v.p50)} | ${fmt(v.p95)} | ${fmt(v.p99)} | ${v.perSecond} |`);
}
console.log(`\nnightly under load: exit ${run.nightly.code}, ${fmt(run.nightly.ms)} (alone: ${fmt(alone.ms)})`);
console.log(`recall after the run finds the new day: ${run.after.stdout.includes(`memory/${NEW_DAY}.md`)}`);
console.log(
  `load average: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
if (failed.length > 0) console.log(`failures (first 5): ${JSON.stringify(failed.slice(0, 5), null, 1)}`);
writeFileSync(
  path.join(repoRoot, "bench/.out/load-bench.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      opts,
      summary: s,
      nightlyUnderLoadMs: run.nightly.ms,
      nightlyExit: run.nightly.code,
      nightlyAloneMs: alone.ms,
      failures: failed.slice(0, 20),
    },
    null,
    2,
  )}\n`,
);
if (failed.length > 0 || run.nightly.code !== 0) process.exitCode = 1;
