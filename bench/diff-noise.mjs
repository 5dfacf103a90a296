#!/usr/bin/env node
// How much of a one-new-day commit is bookkeeping? Generates a synthetic workspace
// (bench/generate.mjs), runs the nightly pipeline once (the evening before), adds one new
// day and runs it again, then classifies the changed lines of that commit: region hash
// lines (`<!-- membank:end X sha=... -->`), count lines (a summary's "N facts on M days",
// an opinion's "(N days)", "last updated"), and the rest (facts, confidences: content).
// Run `pnpm build` first.
//
//   node bench/diff-noise.mjs [--years 1]
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runPipeline } from "../dist/pipelines/index.js";
import { closeIndexes, openWorkspace } from "../dist/src/internal.js";
import { generateDayLog } from "./generate.mjs";
import { flags, repoRoot } from "./index-support.mjs";

const opts = flags({ years: 1 });
const out = path.join(repoRoot, "bench/.out/diff-noise");
const git = (...args) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
    cwd: out,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
execFileSync(process.execPath, [
  path.join(repoRoot, "bench/generate.mjs"),
  "--years",
  String(opts.years),
  "--out",
  out,
]);
writeFileSync(
  path.join(out, "membank.config.json"),
  `${JSON.stringify({ embedding: { provider: "none" }, llm: { provider: "none" } }, null, 2)}\n`,
);
git("init", "-q", "-b", "main");
git("add", "-A");
git("commit", "-q", "-m", "corpus");
const nightly = async () => {
  const r = await runPipeline(await openWorkspace(out), "nightly", { sessionsDir: path.join(out, ".none") });
  if (r.status !== "done") throw new Error(`nightly: ${r.status} ${JSON.stringify(r.error ?? r.steps)}`);
};
mkdirSync(path.join(out, ".none"), { recursive: true });
await nightly();
writeFileSync(path.join(out, "memory/2026-01-01.md"), generateDayLog("2026-01-01"));
git("add", "memory/2026-01-01.md");
git("commit", "-q", "-m", "the new day");
await nightly();
closeIndexes();

const diff = git("diff", "HEAD~1", "HEAD", "--unified=0", "--", "bank");
const changed = diff.split("\n").filter((l) => /^[-+](?![-+]{2} )/.test(l));
const kinds = { sha: 0, count: 0, content: 0 };
for (const line of changed) {
  if (/<!-- membank:end \S+ sha=/.test(line)) kinds.sha++;
  else if (/\d+ facts? on \d+ days?|\(\d+ days?\):?$|^[-+]- last updated:|— \d+ shared facts?$/.test(line))
    kinds.count++;
  else kinds.content++;
}
const pages = git("diff", "HEAD~1", "HEAD", "--name-only", "--", "bank").trim().split("\n").filter(Boolean);
const total = changed.length;
const pct = (n) => `${((100 * n) / Math.max(1, total)).toFixed(0)}%`;
console.log(`${opts.years}y workspace, +1 day: ${pages.length} pages, ${total} changed lines`);
console.log(`  region hash lines: ${kinds.sha} (${pct(kinds.sha)})`);
console.log(`  count lines:       ${kinds.count} (${pct(kinds.count)})`);
console.log(`  content:           ${kinds.content} (${pct(kinds.content)})`);
