#!/usr/bin/env node
// `pnpm demo`: run membank's main job on a fresh copy of bank.example, step by step.
// The copy lives in .demo/workspace (git-ignored) so the example itself is never changed.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const example = path.join(repo, "bank.example");
const workspace = path.join(repo, ".demo", "workspace");
// What `membank` runs: package.json's bin (the bundled CLI that `pnpm build` writes).
const cli = path.join(repo, JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")).bin.membank);
const rel = (p) => path.relative(repo, p) || ".";

// The main job, as `membank` argument lists run in order on the copy: the nightly pipeline
// (retain -> reflect -> commit -> index), then two questions an agent might ask.
const ws = ["--workspace", rel(workspace)];
const COMMANDS = [
  ["run", "nightly", ...ws],
  ["recall", "what does Mara prefer for status updates?", "--k", "3", ...ws],
  ["recall", "FJD-482", "--k", "2", ...ws],
];

let step = 0;
function say(text) {
  step += 1;
  process.stdout.write(`\n[${step}] ${text}\n`);
}

if (!existsSync(cli)) {
  process.stderr.write(`demo: ${rel(cli)} is missing; build first (pnpm build, or run: pnpm demo)\n`);
  process.exit(1);
}

say(`Fresh copy of ${rel(example)} -> ${rel(workspace)}`);
rmSync(workspace, { recursive: true, force: true });
mkdirSync(path.dirname(workspace), { recursive: true });
cpSync(example, workspace, { recursive: true });

say(`git init + initial commit in ${rel(workspace)} (reflect commits its pages on top of it)`);
// A fixed identity, so the demo works on a machine where git has no user configured.
const git = (...args) =>
  execFileSync("git", ["-c", "user.name=membank demo", "-c", "user.email=demo@localhost", ...args], {
    cwd: workspace,
    stdio: ["ignore", "pipe", "inherit"],
  });
git("init", "-q");
git("add", "-A");
git("commit", "-q", "-m", "bank.example: initial logs");
process.stdout.write(`    ${git("log", "--oneline", "-1").toString().trim()}\n`);

for (const args of COMMANDS) {
  say(`membank ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: repo, stdio: "inherit" });
  if (result.status !== 0) {
    process.stderr.write(`demo: \`membank ${args.join(" ")}\` failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}

say("What reflect committed (a person reviews this diff every morning)");
process.stdout.write(`${git("log", "--stat", "--format=%h %s%n%n%b", "-1").toString()}\n`);

process.stdout.write(`\nDone. The workspace is in ${rel(workspace)}; try: node ${rel(cli)} --help\n`);
