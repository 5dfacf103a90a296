#!/usr/bin/env node
// The warm process: CLI `recall`, `search` and `get` from a cold `node` process to exit, with a
// `membank serve` running on the workspace (warm) and without one (in-process), run for run
// on two copies of the same corpus so machine load hits both alike; the modules each loads;
// and what a model costs a one-off CLI query (USE, the only model installable here) against
// the same query answered by a warm server that keeps the model loaded.
//
//   pnpm build && node bench/serve.bench.mjs [--runs 15] [--corpus 1y] [--model-runs 5]
//
// Setup, untimed: two copies of the generated corpus (bench/generate.mjs), indexed once with
// the default config (nothing configured, no provider key: BM25 + structure); for the model
// part, a copy of bank.example indexed with `--provider use`.
// Targets (issue 14): warm CLI recall < 0.15 s, in-process < 0.4 s.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { corpusCopy, flags, fmt, percentile, processHooks, repoRoot, report } from "./index-support.mjs";

const opts = flags({ runs: 15, corpus: "1y", modelRuns: 5 });
const cli = path.join(repoRoot, "dist/src/cli/main.js");
// A bare machine: no provider key may make `auto` pick a remote embedder.
const env = { ...process.env, OPENAI_API_KEY: "", GEMINI_API_KEY: "", MEMBANK_WORKSPACE: "" };

const cold = corpusCopy(opts.corpus, "serve-cold");
const warm = corpusCopy(opts.corpus, "serve-warm");
for (const ws of [cold, warm]) execFileSync(process.execPath, [cli, "index", "-w", ws], { env, stdio: "ignore" });
const day = readdirSync(path.join(cold, "memory"))
  .filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f))
  .sort()
  .at(-1);

const hooks = processHooks("serve");

/** Start `membank serve` and resolve once it listens. */
function serve(ws, extra = []) {
  const child = spawn(process.execPath, [cli, "serve", "-w", ws, ...extra], { env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (c) => {
    err += c;
  });
  // --verbose: one line per request with the server's own milliseconds.
  child.requestMs = (op) =>
    [...err.matchAll(new RegExp(`^membank serve: ${op} (\\d+) ms$`, "gm"))].map((m) => Number(m[1]));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      if (String(c).includes("socket ")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`membank serve exited ${code}: ${err}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", resolve);
    child.kill("SIGTERM");
  });
}

function wall(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: String(r.stdout) };
}

const cpu = (args) => hooks.cpuMs(args, env);
const modules = (args) => hooks.loadedUrls(args, env).length;

const COMMANDS = [
  ["recall", (ws) => [cli, "recall", "-w", ws, "--json", "what did Priya merge last week?"]],
  ["search", (ws) => [cli, "search", "-w", ws, "--json", "Postgres operations work"]],
  ["get", (ws) => [cli, "get", "-w", ws, `memory/${day}`, "--from", "1", "--lines", "5"]],
];

/** Time the commands on `a` and `b` run for run; outputs must match (same bytes either way). */
function timePair(commands, a, b, runs) {
  const rows = [];
  for (const [name, argsOf] of commands) {
    const first = { a: wall(argsOf(a)), b: wall(argsOf(b)) }; // warm the file cache
    if (first.a.stdout.replaceAll(a, "WS") !== first.b.stdout.replaceAll(b, "WS")) {
      throw new Error(`${name}: different output with and without the server`);
    }
    const t = { a: [], b: [], ca: [], cb: [] };
    for (let i = 0; i < runs; i++) {
      t.a.push(wall(argsOf(a, 2 * i)).ms);
      t.b.push(wall(argsOf(b, 2 * i)).ms);
      t.ca.push(cpu(argsOf(a, 2 * i + 1)));
      t.cb.push(cpu(argsOf(b, 2 * i + 1)));
    }
    const stat = (w, c, args) => ({
      p50: percentile(w, 50),
      p90: percentile(w, 90),
      cpu: percentile(c, 50),
      files: modules(args),
    });
    rows.push({ name, a: stat(t.a, t.ca, argsOf(a, 2 * runs)), b: stat(t.b, t.cb, argsOf(b, 2 * runs)) });
  }
  return rows;
}

// The floor: a bare `node` that does nothing, wall and CPU.
const floor = [];
const floorCpu = [];
for (let i = 0; i < opts.runs; i++) {
  floor.push(wall(["-e", ""]).ms);
  floorCpu.push(cpu(["-e", ""]));
}

const server = await serve(warm, ["--verbose"]);
let results;
let serverMs;
try {
  results = timePair(COMMANDS, warm, cold, opts.runs);
  // spawnSync blocked this loop: let the server's log lines arrive before reading them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  serverMs = Object.fromEntries(
    COMMANDS.map(([op]) => {
      const ms = server.requestMs(op);
      return [op, { p50: percentile(ms, 50), p90: percentile(ms, 90), n: ms.length }];
    }),
  );
} finally {
  await stop(server);
}

// The model question: a one-off CLI query that loads USE, vs a warm server that keeps it loaded.
const small = path.join(repoRoot, "bench/.out/serve-model");
rmSync(small, { recursive: true, force: true });
cpSync(path.join(repoRoot, "bank.example"), small, { recursive: true });
let model = [];
const useIndexed =
  opts.modelRuns > 0
    ? spawnSync(process.execPath, [cli, "index", "-w", small, "--provider", "use"], { env })
    : undefined;
if (useIndexed === undefined) console.log("--model-runs 0: model part skipped");
else if (useIndexed.status === 0) {
  const copy = `${small}-warm`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(small, copy, { recursive: true });
  // A new question each run: the query's embedding is cached in the index, and a cached one loads no model.
  const q = (provider) => (ws, i) => [
    cli,
    "recall",
    "-w",
    ws,
    "--json",
    "--provider",
    provider,
    i === undefined ? "who tests the release?" : `who tests the release? (${provider} question ${i})`,
  ];
  const useServer = await serve(copy, ["--provider", "use"]);
  try {
    const [use] = timePair([["recall --provider use", q("use")]], copy, small, opts.modelRuns);
    const [none] = timePair([["recall --provider none", q("none")]], copy, small, opts.modelRuns);
    model = [use, none];
  } finally {
    await stop(useServer);
  }
} else console.log(`USE not available here (${String(useIndexed.stderr).trim()}): model part skipped`);

report(
  "serve",
  {
    corpus: opts.corpus,
    runs: opts.runs,
    floor: { wall: percentile(floor, 50), cpu: percentile(floorCpu, 50) },
    results,
    serverMs,
    model,
  },
  "| command | warm server: CPU p50 | wall p50 | wall p90 | files | in-process: CPU p50 | wall p50 | wall p90 | files |",
  [...results, ...model].map(
    (r) =>
      `| \`${r.name}\` | ${fmt(r.a.cpu)} | ${fmt(r.a.p50)} | ${fmt(r.a.p90)} | ${r.a.files} | ${fmt(r.b.cpu)} | ${fmt(r.b.p50)} | ${fmt(r.b.p90)} | ${r.b.files} |`,
  ),
);
console.log(`\n\`node -e ''\`: CPU p50 ${fmt(percentile(floorCpu, 50))}, wall p50 ${fmt(percentile(floor, 50))}`);
console.log(
  `server's own time per request (--verbose), p50 / p90: ${Object.entries(serverMs)
    .map(([op, m]) => `${op} ${fmt(m.p50)} / ${fmt(m.p90)} (${m.n} requests)`)
    .join(", ")}`,
);
