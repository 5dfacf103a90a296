#!/usr/bin/env node
// CLI start-up: how long `membank --version`, `get`, `search` and `recall` take from a cold
// `node` process to exit, with the default config (nothing configured: BM25 + structure),
// how many modules each loads, and what the heavy dependencies cost to import on their own.
//
//   pnpm build && node bench/startup.bench.mjs [--runs 15] [--corpus 1y] [--base DIR]
//
// The CLI timed is what users run: package.json's `bin.membank` (the esbuild bundle,
// dist/membank.mjs, since 2026-11-24; before that the tsc build, dist/src/cli/main.js).
// --base DIR: another build of membank (a checkout with dist/ built, e.g. the commit before
// a change) timed in the same loop, run for run, so machine load hits both alike; its CLI is
// its own package.json's bin. Its search and recall get `--provider none` (older builds
// picked USE by default).
//
// Every command is also timed without NODE_EXTRA_CA_CERTS: Node reads that file of extra
// certificates at every start (~90 ms on the machine of 2026-11-24), a cost of the shell's
// environment, not of membank, so both columns show where the floor is.
//
// Setup, untimed: a copy of the generated corpus (bench/generate.mjs), indexed once.
// Timed: wall time of each command (median, p90 of --runs), and `node -e ""` as the floor.
// Module counts come from a load hook (node:module register) that lists every file loaded.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { corpusCopy, flags, fmt, percentile, processHooks, repoRoot, report } from "./index-support.mjs";

const opts = flags({ runs: 15, corpus: "1y", base: "" });
/** The file `membank` runs in a checkout: its package.json's bin. */
const binOf = (dir) => path.join(dir, JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).bin.membank);
const cli = binOf(repoRoot);
const ws = corpusCopy(opts.corpus, "startup");
// A bare machine: no provider key may make `auto` pick a remote embedder.
const env = { ...process.env, OPENAI_API_KEY: "", GEMINI_API_KEY: "" };
const caCerts = env.NODE_EXTRA_CA_CERTS;
execFileSync(process.execPath, [cli, "index", "-w", ws], { env, stdio: "ignore" });
const day = readdirSync(path.join(ws, "memory"))
  .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
  .sort()
  .at(-1);

const hooks = processHooks("startup");

const COMMANDS = [
  ["node -e ''", ["-e", ""]],
  ["membank --version", [cli, "--version"]],
  ["membank get", [cli, "get", "-w", ws, `memory/${day}`, "--from", "1", "--lines", "5"]],
  ["membank search", [cli, "search", "-w", ws, "--json", "Postgres operations work"]],
  ["membank recall", [cli, "recall", "-w", ws, "--json", "what did Priya merge last week?"]],
  // No time words: recall answers without loading chrono.
  ["membank recall (no date)", [cli, "recall", "-w", ws, "--json", "what does Priya prefer for code review?"]],
  // The bundle without its code cache (as on a command's very first run).
  [
    "membank recall, no code cache",
    [cli, "recall", "-w", ws, "--json", "what did Priya merge last week?"],
    { NODE_DISABLE_COMPILE_CACHE: "1" },
  ],
];

function wall(args, e = env) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env: e, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const cpu = (args, e = env) => hooks.cpuMs(args, e);

/** Files loaded by one run, grouped: membank's own, each package, node: builtins. */
function modules(args, e = env) {
  const urls = hooks.loadedUrls(args, e);
  const groups = new Map();
  for (const u of urls) {
    const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
    const key = pkg ?? (u.startsWith("node:") ? "node:*" : "membank");
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return { files: urls.length, groups: Object.fromEntries([...groups].sort((a, b) => b[1] - a[1])) };
}

/** The same command on the --base build. */
function baseArgs(args) {
  if (args[0] !== cli) return undefined;
  const out = [binOf(path.resolve(opts.base)), ...args.slice(1)];
  if (args[1] === "search" || args[1] === "recall") out.splice(2, 0, "--provider", "none");
  return out;
}

const results = [];
for (const [name, args, extra] of COMMANDS) {
  const base = opts.base && !extra ? baseArgs(args) : undefined;
  const e = { ...env, ...extra };
  const { NODE_EXTRA_CA_CERTS: _, ...noCa } = e;
  wall(args, e); // warm the file cache (and write the code cache)
  if (base) wall(base);
  const times = [];
  const cpus = [];
  const baseTimes = [];
  const baseCpus = [];
  const noCaTimes = [];
  for (let i = 0; i < opts.runs; i++) {
    times.push(wall(args, e));
    cpus.push(cpu(args, e));
    noCaTimes.push(wall(args, noCa));
    if (base) {
      baseTimes.push(wall(base));
      baseCpus.push(cpu(base));
    }
  }
  const stats = (t, c, a, ev = env) => ({
    p50: percentile(t, 50),
    p90: percentile(t, 90),
    cpu: percentile(c, 50),
    modules: modules(a, ev),
  });
  results.push({
    name,
    ...stats(times, cpus, args, e),
    noCa: percentile(noCaTimes, 50),
    ...(base ? { base: stats(baseTimes, baseCpus, base) } : {}),
  });
}

/**
 * Where one CLI recall's time goes, from `node --cpu-prof` (ms per run, the mean of `runs`
 * profiles; a sample's time is wall time, so machine load inflates every phase alike): module loading (the ESM/CJS loader: resolve, read, compile, evaluate),
 * recall's index freshness check (syncIndex), its time words (chrono: load and parse), the
 * rest of recall (arms, ranking, shaping), GC, and the rest of the process (Node's own
 * start, commander, the workspace, output). Samples are 250 µs apart.
 */
function phases(args, runs) {
  const dir = mkdtempSync(path.join(hooks.dir, "prof-"));
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(
      process.execPath,
      ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "250", ...args],
      {
        env,
        stdio: "ignore",
      },
    );
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  }
  const sums = new Map();
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  for (const f of files) {
    const prof = JSON.parse(readFileSync(path.join(dir, f), "utf8"));
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    prof.samples.forEach((id, i) => {
      const frames = [];
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) frames.push(byId.get(cur).callFrame);
      const top = frames[0].functionName;
      if (top === "(idle)") return;
      const has = (name, file = "") => frames.some((c) => c.functionName === name && c.url.endsWith(file));
      let phase = "other (node start, commander, workspace, output)";
      if (top === "(garbage collector)") phase = "gc";
      // The tsc build's recall/recall.js, or the bundle (esbuild may suffix a name).
      else if (
        frames.some((c) => /^recall\d*$/.test(c.functionName) && /recall\/recall\.js$|membank-bundle\.cjs$/.test(c.url))
      ) {
        if (has("syncIndex")) phase = "recall: index freshness (syncIndex)";
        else if (has("parseTimeWindow")) phase = "recall: time words (chrono load + parse)";
        else phase = "recall: arms, ranking, shaping";
      } else if (frames.some((c) => c.url.startsWith("node:internal/modules/") || c.functionName === "compileCached"))
        phase = "module loading (tsc build: ESM loader; bundle: loader + code cache)";
      sums.set(phase, (sums.get(phase) ?? 0) + (prof.timeDeltas[i + 1] ?? 0) / 1000 / files.length);
    });
  }
  rmSync(dir, { recursive: true, force: true });
  return Object.fromEntries([...sums].sort((a, b) => b[1] - a[1]));
}

const recallArgs = COMMANDS.find(([name]) => name === "membank recall")[1];
const phaseRuns = Math.max(3, Math.ceil(opts.runs / 3));
const breakdown = {
  new: phases(recallArgs, phaseRuns),
  ...(opts.base ? { base: phases(baseArgs(recallArgs), phaseRuns) } : {}),
};

// Each dependency imported alone in a fresh process (the time of the import() itself).
const IMPORTS = [
  "commander",
  "zod",
  "better-sqlite3",
  "sqlite-vec",
  "chrono-node",
  "chrono-node/en",
  "unified",
  "remark-parse",
  "cli-progress",
  "@modelcontextprotocol/sdk/server/mcp.js",
  "@energetic-ai/embeddings",
  "node-llama-cpp",
  "./dist/src/workspace/workspace.js",
  "./dist/src/index/index.js",
  "./dist/src/recall/index.js",
  "./dist/src/retain/index.js",
];
const imports = [];
for (const spec of IMPORTS) {
  const times = [];
  for (let i = 0; i < Math.max(3, Math.ceil(opts.runs / 3)); i++) {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const t = performance.now(); await import(${JSON.stringify(spec)}); console.log(performance.now() - t);`,
      ],
      { cwd: repoRoot, env, encoding: "utf8" },
    );
    if (r.status !== 0) {
      times.length = 0;
      break;
    }
    times.push(Number(r.stdout.trim()));
  }
  imports.push({ module: spec, ms: times.length ? percentile(times, 50) : null });
}

report(
  "startup",
  { corpus: opts.corpus, runs: opts.runs, caCertsSet: caCerts !== undefined, results, imports, breakdown },
  `| command | CPU p50 | wall p50 | wall p90 | wall p50 without NODE_EXTRA_CA_CERTS | files loaded | biggest groups |${opts.base ? " base CPU | base wall | base files |" : ""}`,
  results.map(
    (r) =>
      `| \`${r.name}\` | ${fmt(r.cpu)} | ${fmt(r.p50)} | ${fmt(r.p90)} | ${fmt(r.noCa)} | ${r.modules.files} | ${Object.entries(
        r.modules.groups,
      )
        .slice(0, 4)
        .map(([k, n]) => `${k} ${n}`)
        .join(
          ", ",
        )} |${r.base ? ` ${fmt(r.base.cpu)} | ${fmt(r.base.p50)} | ${r.base.modules.files} |` : opts.base ? " | | |" : ""}`,
  ),
);
console.log("\n| import alone | p50 |\n|---|---|");
for (const i of imports) console.log(`| \`${i.module}\` | ${i.ms === null ? "not installed" : fmt(i.ms)} |`);
console.log(
  `\n| where \`membank recall\` spends its time (--cpu-prof samples, wall ms per run, ${phaseRuns} profiles) | this build |${opts.base ? " base |" : ""}\n|---|---|${opts.base ? "---|" : ""}`,
);
for (const phase of new Set([...Object.keys(breakdown.new), ...Object.keys(breakdown.base ?? {})])) {
  const cell = (b) => (b[phase] === undefined ? "" : fmt(b[phase]));
  console.log(`| ${phase} | ${cell(breakdown.new)} |${breakdown.base ? ` ${cell(breakdown.base)} |` : ""}`);
}
