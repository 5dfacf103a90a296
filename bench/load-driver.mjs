// Many readers and one writer on a workspace at once (issue 17): concurrent CLI recall
// processes and concurrent MCP memory_recall calls over one `membank mcp` server (the
// real MCP SDK client over stdio), repeated for a while, while a `watch` process runs and
// a nightly run with new input starts part-way. Plain ESM over the BUILT CLI, shared by
// bench/load.bench.mjs (numbers) and test/load.test.ts (correctness only).
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** Spawn the CLI and collect its output and wall time. */
export function runCli(cli, args, opts = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), signal, stdout, stderr, ms: performance.now() - started }),
    );
  });
}

/** Failure text of one recall answer, or undefined when it succeeded with results. */
function judgeCli(r) {
  if (r.code !== 0) return `exit ${r.code}: ${r.stderr.trim().split("\n")[0]}`;
  if (/locked|unexpected error|\n\s+at /.test(r.stderr)) return `stderr: ${r.stderr.trim().split("\n")[0]}`;
  try {
    const res = JSON.parse(r.stdout);
    if (!Array.isArray(res.results) || res.results.length === 0) return "no results";
  } catch {
    return `not JSON: ${r.stdout.slice(0, 80)}`;
  }
  return undefined;
}

function judgeMcp(res) {
  const text = res?.content?.[0]?.text ?? "";
  if (res?.isError) return `tool error: ${text.split("\n")[0]}`;
  try {
    const body = JSON.parse(text);
    if (!Array.isArray(body.results) || body.results.length === 0) return "no results";
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  return undefined;
}

/** p-th percentile (0..100) of numbers, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Run the load. `newInput(root)` writes the nightly's new input just before it starts.
 * Returns every call ({via, ms, error?}), the nightly's result and the watch output.
 */
export async function runLoad(o) {
  const { cli, root, seconds, cliWorkers, mcpWorkers, queries, nightlyAfterMs = 1000, env = process.env } = o;
  const calls = [];
  const ws = ["-w", root, "--provider", "none"];

  const watch = spawn(process.execPath, [cli, "watch", ...ws], { env, stdio: ["ignore", "pipe", "pipe"] });
  let watchErr = "";
  watch.stderr.on("data", (d) => {
    watchErr += d;
  });

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", ...ws],
    env,
    stderr: "pipe",
  });
  let mcpErr = "";
  transport.stderr?.on("data", (d) => {
    mcpErr += d;
  });
  const client = new Client({ name: "membank-load", version: "0.0.0" });
  await client.connect(transport);

  const deadline = performance.now() + seconds * 1000;
  let q = 0;
  const nextQuery = () => queries[q++ % queries.length];

  const cliWorker = async () => {
    while (performance.now() < deadline) {
      const query = nextQuery();
      const r = await runCli(cli, ["recall", ...ws, "--json", "--k", "5", query], { env });
      calls.push({ via: "cli", query, ms: r.ms, error: judgeCli(r) });
    }
  };
  const mcpWorker = async () => {
    while (performance.now() < deadline) {
      const query = nextQuery();
      const t = performance.now();
      let error;
      try {
        error = judgeMcp(await client.callTool({ name: "memory_recall", arguments: { query, k: 5 } }));
      } catch (e) {
        error = `protocol error: ${e.message}`;
      }
      calls.push({ via: "mcp", query, ms: performance.now() - t, error });
    }
  };
  const nightly = (async () => {
    await new Promise((r) => setTimeout(r, nightlyAfterMs));
    await o.newInput(root);
    const empty = path.join(root, ".memory", "no-sessions");
    await mkdir(empty, { recursive: true });
    return runCli(cli, ["run", "nightly", "-w", root, "--sessions", empty, "--json"], { env });
  })();

  const started = performance.now();
  await Promise.all([
    ...Array.from({ length: cliWorkers }, cliWorker),
    ...Array.from({ length: mcpWorkers }, mcpWorker),
  ]);
  const wallMs = performance.now() - started;
  const night = await nightly;
  // After the run: a fresh recall sees the new state.
  const after = await runCli(cli, ["recall", ...ws, "--json", "--k", "10", o.afterQuery], { env });
  await client.close();
  watch.kill("SIGINT");
  await new Promise((r) => watch.once("close", r));
  return { calls, wallMs, nightly: night, after, watchErr, mcpErr };
}

/** Latency and throughput of a run's calls, per channel. */
export function summarize(run) {
  const out = {};
  for (const via of ["cli", "mcp", "all"]) {
    const ms = run.calls.filter((c) => via === "all" || c.via === via).map((c) => c.ms);
    out[via] = {
      calls: ms.length,
      failed: run.calls.filter((c) => (via === "all" || c.via === via) && c.error).length,
      p50: Math.round(percentile(ms, 50)),
      p95: Math.round(percentile(ms, 95)),
      p99: Math.round(percentile(ms, 99)),
      perSecond: Math.round((ms.length / (run.wallMs / 1000)) * 10) / 10,
    };
  }
  return out;
}

/** A new day of input for the nightly: a log with a Retain section, as a person writes it. */
export async function writeNewDay(root, day, lines) {
  await mkdir(path.join(root, "memory"), { recursive: true });
  await writeFile(path.join(root, "memory", `${day}.md`), lines.join("\n"));
}
