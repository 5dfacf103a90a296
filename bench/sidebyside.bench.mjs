#!/usr/bin/env node
// Side by side (issue 16): membank with its DEFAULT config (nothing configured, no provider key)
// against the published OpenClaw 2026.9.6 (memory search FTS-only, provider none) and qmd 2.8.3
// (BM25 `qmd search`), in one run, on the LoCoMo logs merged by date and on the 10-year
// synthetic workspace. Run `pnpm build` first.
//
//   node bench/sidebyside.bench.mjs [--years 10] [--openclaw yes|no] [--qmd yes|no]
//
// OpenClaw, qmd and a Node 24 for them come from the npm registry into the e2e cache
// (test/e2e/openclaw-install.mjs; nothing else is downloaded). Every command is a fresh CLI
// process, timed from spawn to exit (Node start included), with its CPU time (user + sys,
// children included: on a shared machine the steadier number); peak RSS is /usr/bin/time's
// "maximum resident set size" (else process.resourceUsage() of every Node process the
// command started, through a preload). Never part of the test run.
// Results: bench/.out/sidebyside.json and a Markdown table on stdout.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureOpenClaw, ensureQmd, OPENCLAW_VERSION, QMD_VERSION } from "../test/e2e/openclaw-install.mjs";
import { generateDayLog } from "./generate.mjs";
import { flags, fmt, repoRoot } from "./index-support.mjs";

const opts = flags({ years: 10, openclaw: "yes", qmd: "yes" });
const cli = path.join(repoRoot, "dist/src/cli/main.js");
if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first`);
const out = path.join(repoRoot, "bench/.out/sidebyside");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const locomo = path.resolve(repoRoot, "../shared/eval/locomo");

// --- peak RSS of a command ---------------------------------------------------------------
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const rssPreload = path.join(out, "rss-preload.cjs");
writeFileSync(
  rssPreload,
  "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').appendFileSync(process.env.BENCH_RSS_FILE, [u.maxRSS, u.userCPUTime / 1e6, u.systemCPUTime / 1e6].join(' ') + '\\n'); });\n",
);

/** Run a command, timed (wall, spawn to exit) with its peak RSS in MB; throws on a non-zero exit. */
function measure(label, cmd, args, { env = process.env, cwd, ok = [0] } = {}) {
  const rssFile = path.join(out, `rss-${process.hrtime.bigint()}`);
  let file = cmd;
  let argv = args;
  let runEnv = env;
  if (TIME) {
    file = TIME;
    argv = ["-f", "%M %U %S", "-o", rssFile, cmd, ...args];
  } else {
    runEnv = {
      ...env,
      BENCH_RSS_FILE: rssFile,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --require=${rssPreload}`.trim(),
    };
  }
  const t = performance.now();
  const res = spawnSync(file, argv, { env: runEnv, cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (!ok.includes(res.status ?? -1))
    throw new Error(`${label}: ${cmd} ${args.join(" ")} exited ${res.status}\n${res.stdout}\n${res.stderr}`);
  let rssKb = 0;
  let cpuS = 0;
  try {
    // "maxRSS(KB) user(s) sys(s)": /usr/bin/time one line (children included), the preload one per Node process.
    for (const [, kb, u, sy] of readFileSync(rssFile, "utf8").matchAll(/^(\d+) ([\d.]+) ([\d.]+)$/gm)) {
      rssKb = Math.max(rssKb, Number(kb));
      cpuS += Number(u) + Number(sy);
    }
  } catch {
    rssKb = 0;
  }
  return { label, ms, cpuMs: cpuS * 1000, rssMb: rssKb / 1024, stdout: res.stdout };
}

// --- corpora -------------------------------------------------------------------------------
/** LoCoMo's per-conversation logs merged by date into one workspace (logs of one date concatenated, conversation order). */
function mergedLocomo() {
  const dir = path.join(out, "corpus-locomo");
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  const byDate = new Map();
  const convs = readdirSync(path.join(locomo, "workspaces")).sort();
  for (const conv of convs) {
    const mem = path.join(locomo, "workspaces", conv, "memory");
    for (const f of readdirSync(mem).sort()) {
      const list = byDate.get(f) ?? [];
      list.push(readFileSync(path.join(mem, f), "utf8").trimEnd());
      byDate.set(f, list);
    }
  }
  let bytes = 0;
  for (const [f, texts] of byDate) {
    const text = `${texts.join("\n\n")}\n`;
    bytes += Buffer.byteLength(text);
    writeFileSync(path.join(dir, "memory", f), text);
  }
  return {
    name: "LoCoMo merged",
    dir,
    logs: byDate.size,
    mb: bytes / 1e6,
    question: "When did Melanie paint a sunrise?",
  };
}

function synthetic() {
  const src = path.join(repoRoot, "bench/.corpus", `${opts.years}y`);
  if (!existsSync(path.join(src, "memory")))
    execFileSync(
      process.execPath,
      [path.join(repoRoot, "bench/generate.mjs"), "--years", String(opts.years), "--out", src],
      {
        stdio: "inherit",
      },
    );
  const logs = readdirSync(path.join(src, "memory")).filter((f) => f.endsWith(".md"));
  const mb = logs.reduce((n, f) => n + readFileSync(path.join(src, "memory", f)).length, 0) / 1e6;
  return {
    name: `${opts.years}-year synthetic`,
    dir: src,
    logs: logs.length,
    mb,
    question: "why did the cost-report certificate expire",
  };
}

function copyOf(corpus, tag) {
  const dir = path.join(out, tag);
  rmSync(dir, { recursive: true, force: true });
  cpSync(corpus.dir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.memory`) });
  return dir;
}

// --- the three tools -------------------------------------------------------------------------
const membank = (label, args, o) => measure(label, process.execPath, [cli, ...args], o);
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function runMembank(corpus, withNightly) {
  const ws = copyOf(corpus, `membank-${corpus.tag}`);
  const rows = [
    membank("full index", ["index", "--workspace", ws]),
    membank("no-change index", ["index", "--workspace", ws]),
    membank("CLI recall, new question", ["recall", corpus.question, "--workspace", ws]),
    membank("CLI search, new question", ["search", corpus.question, "--workspace", ws]),
  ];
  if (withNightly) {
    // The nightly on a git workspace as it is every evening: first run (full reflect + index
    // build), then one new day.
    const nw = copyOf(corpus, `membank-nightly-${corpus.tag}`);
    const git = (...a) => execFileSync("git", a, { cwd: nw, env: gitEnv, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus");
    rows.push(membank("first nightly", ["run", "nightly", "--workspace", nw], { env: gitEnv }));
    writeFileSync(path.join(nw, "memory", "2026-01-01.md"), generateDayLog("2026-01-01"));
    rows.push(membank("+1-day nightly", ["run", "nightly", "--workspace", nw], { env: gitEnv }));
  }
  return rows;
}

function runOpenClaw(oc, corpus) {
  const home = mkdtempSync(path.join(os.tmpdir(), "membank-sbs-openclaw-"));
  const state = path.join(home, ".openclaw");
  const ws = path.join(state, "workspace");
  mkdirSync(state, { recursive: true });
  cpSync(path.join(corpus.dir, "memory"), path.join(ws, "memory"), { recursive: true });
  const env = { ...process.env, HOME: home, OPENCLAW_STATE_DIR: state, LANG: "C" };
  try {
    // FTS only: no embedding provider (the comparison is lexical search against lexical search).
    execFileSync(oc.openclaw, ["config", "set", "memory.search.provider", "none"], { env, stdio: "ignore" });
    return [
      measure("full index", oc.openclaw, ["memory", "index"], { env }),
      measure("no-change index", oc.openclaw, ["memory", "index"], { env }),
      measure("CLI search, new question", oc.openclaw, ["memory", "search", "--json", corpus.question], { env }),
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function runQmd(q, corpus) {
  const home = mkdtempSync(path.join(os.tmpdir(), "membank-sbs-qmd-"));
  const ws = path.join(home, "notes");
  cpSync(path.join(corpus.dir, "memory"), path.join(ws, "memory"), { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, ".cache"), NO_COLOR: "1" };
  try {
    return [
      // `collection add` indexes the files (BM25; `qmd embed` would add vectors: not run).
      measure("full index", q.qmd, ["collection", "add", ws, "--name", "bench"], { env }),
      measure("no-change index", q.qmd, ["update"], { env }),
      measure("CLI search, new question", q.qmd, ["search", corpus.question, "--json"], { env }),
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// --- the run -----------------------------------------------------------------------------------
const corpora = [
  { ...mergedLocomo(), tag: "locomo", nightly: false },
  { ...synthetic(), tag: `${opts.years}y`, nightly: true },
];
let oc;
let q;
const notes = [];
if (opts.openclaw === "yes") {
  try {
    oc = ensureOpenClaw();
  } catch (error) {
    notes.push(`OpenClaw ${OPENCLAW_VERSION} could not be installed: ${String(error).split("\n")[0]}`);
  }
}
if (opts.qmd === "yes") {
  try {
    q = ensureQmd();
  } catch (error) {
    notes.push(`qmd ${QMD_VERSION} could not be installed: ${String(error).split("\n")[0]}`);
  }
}

const results = [];
for (const corpus of corpora) {
  console.log(`${corpus.name}: ${corpus.logs} logs, ${corpus.mb.toFixed(2)} MB, question "${corpus.question}"`);
  const tools = { membank: runMembank(corpus, corpus.nightly) };
  if (oc) tools.openclaw = tryTool("OpenClaw", () => runOpenClaw(oc, corpus));
  if (q) tools.qmd = tryTool("qmd", () => runQmd(q, corpus));
  results.push({ corpus: { name: corpus.name, logs: corpus.logs, mb: corpus.mb, question: corpus.question }, tools });
  printTable(corpus, tools);
}

function tryTool(name, fn) {
  try {
    return fn();
  } catch (error) {
    notes.push(`${name} failed: ${String(error.message ?? error).split("\n")[0]}`);
    return undefined;
  }
}

function printTable(corpus, tools) {
  const names = Object.keys(tools).filter((t) => tools[t]);
  const labels = [...new Set(names.flatMap((t) => tools[t].map((r) => r.label)))];
  const cell = (r) => (r ? `${fmt(r.ms)} (CPU ${fmt(r.cpuMs)}), ${r.rssMb.toFixed(0)} MB` : "");
  // OpenClaw and qmd have no recall command: their CLI search stands in for it.
  const find = (t, label) =>
    tools[t]?.find((r) => r.label === label) ??
    (label.startsWith("CLI recall") ? tools[t]?.find((r) => r.label.startsWith("CLI search")) : undefined);
  console.log(`\n${corpus.name}\n`);
  console.log(
    `| | ${names.join(" | ")} | ${names
      .slice(1)
      .map((n) => `${n} / membank`)
      .join(" | ")} |`,
  );
  console.log(
    `|---|${names.map(() => "---|").join("")}${names
      .slice(1)
      .map(() => "---|")
      .join("")}`,
  );
  for (const label of labels) {
    const m = find("membank", label);
    const ratios = names.slice(1).map((t) => {
      const r = find(t, label);
      return r && m && label !== "first nightly" && label !== "+1-day nightly"
        ? `${(r.ms / m.ms).toFixed(1)}x (CPU ${(r.cpuMs / m.cpuMs).toFixed(1)}x)`
        : "";
    });
    console.log(`| ${label} | ${names.map((t) => cell(find(t, label))).join(" | ")} | ${ratios.join(" | ")} |`);
  }
}

console.log(
  `\nmachine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const n of notes) console.log(`note: ${n}`);
writeFileSync(
  path.join(repoRoot, "bench/.out/sidebyside.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      loadavg: os.loadavg(),
      rss: TIME ? "/usr/bin/time %M" : "maxRSS preload",
      notes,
      results: results.map((r) => ({
        ...r,
        tools: Object.fromEntries(
          Object.entries(r.tools)
            .filter(([, rows]) => rows)
            .map(([t, rows]) => [t, rows.map(({ label, ms, cpuMs, rssMb }) => ({ label, ms, cpuMs, rssMb }))]),
        ),
      })),
    },
    null,
    2,
  )}\n`,
);
