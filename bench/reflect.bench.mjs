#!/usr/bin/env node
// Reflect timings on the synthetic corpora, no LLM (run `pnpm build` first).
//
//   node bench/reflect.bench.mjs [--corpora 1y,10y] [--runs 1]
//
// For each corpus, on a private git repository copy (bench/.out/reflect-<corpus>):
//   full      reflect --all from an empty bank, including its one git commit
//   again     a second full run: nothing changes, no commit
//   nightly   one new day (2026-01-01, from bench/generate.mjs) on top, reflect --since
//             that day, including the git commit -- what the nightly job does
// Results are printed as a Markdown table and written to bench/.out/reflect-bench.json.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openWorkspace, reflect } from "../dist/src/internal.js";
import { generateDayLog } from "./generate.mjs";
import { corpusCopy, flags, repoRoot } from "./index-support.mjs";

const opts = flags({ corpora: "1y,10y", runs: 1 });
const json = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg(), corpora: {} };
const rows = [];

const git = (dir, ...args) =>
  execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "bench",
      GIT_AUTHOR_EMAIL: "b@b",
      GIT_COMMITTER_NAME: "bench",
      GIT_COMMITTER_EMAIL: "b@b",
    },
  });

async function timed(fn) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000), value };
}

for (const name of opts.corpora.split(",")) {
  const result = { full: [], again: [], nightly: [] };
  for (let run = 0; run < opts.runs; run++) {
    const dir = corpusCopy(name, "reflect");
    rmSync(path.join(dir, "sessions"), { recursive: true, force: true });
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "corpus");
    const ws = await openWorkspace(dir);

    const full = await timed(() => reflect(ws, { all: true }));
    result.full.push(full.ms);
    result.fullCpu = [...(result.fullCpu ?? []), full.cpuMs];
    result.facts = full.value.factsTotal;
    result.pages = full.value.pagesWritten.length;
    result.opinions = Number(
      git(dir, "grep", "-c", "membank:begin op-", "HEAD", "--", "bank/opinions.md").split(":").pop(),
    );
    result.diagnostics = full.value.diagnostics.length;
    if (!full.value.commit) throw new Error("full run made no commit");

    const again = await timed(() => reflect(ws, { all: true }));
    result.again.push(again.ms);
    result.againCpu = [...(result.againCpu ?? []), again.cpuMs];
    if (again.value.pagesWritten.length || again.value.commit) throw new Error("second run changed something");

    writeFileSync(path.join(dir, "memory/2026-01-01.md"), generateDayLog("2026-01-01", { seed: 1 }));
    const nightly = await timed(() => reflect(ws, { since: "2026-01-01" }));
    result.nightly.push(nightly.ms);
    result.nightlyCpu = [...(result.nightlyCpu ?? []), nightly.cpuMs];
    result.nightlyPhases = nightly.value.timings;
    result.nightlyPages = nightly.value.pagesWritten.length;
    result.nightlyFactsRead = nightly.value.factsRead;
    result.nightlyChanges = nightly.value.opinionsChanged.length;
    if (nightly.value.mode !== "incremental" || !nightly.value.commit)
      throw new Error("nightly run was not incremental or made no commit");
    rmSync(dir, { recursive: true, force: true });
  }
  json.corpora[name] = result;
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  rows.push(
    `| ${name} | ${result.facts} | ${result.pages} | ${result.opinions} | ${med(result.full)} (${med(result.fullCpu)}) | ${med(result.again)} (${med(result.againCpu)}) | ${med(result.nightly)} (${med(result.nightlyCpu)}) |`,
  );
}

const table = [
  "| corpus | facts | pages | opinions | full reflect + commit, ms wall (cpu) | second full run, no change | nightly: +1 day, --since + commit |",
  "|---|---|---|---|---|---|---|",
  ...rows,
].join("\n");
console.log(table);
for (const [name, r] of Object.entries(json.corpora))
  console.log(
    `${name} nightly phases (ms):`,
    JSON.stringify(r.nightlyPhases),
    `read ${r.nightlyFactsRead} facts, wrote ${r.nightlyPages} pages`,
  );
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
writeFileSync(path.join(repoRoot, "bench/.out/reflect-bench.json"), `${JSON.stringify(json, null, 2)}\n`);
