#!/usr/bin/env node
// The first MCP call on an unindexed workspace (issue 11): `membank mcp` spawned by the
// real MCP SDK client over stdio, as an agent host starts it, on a copy of the 1-year
// synthetic corpus with no .memory/ (run `pnpm build` first).
//
//   node bench/mcp-cold.bench.mjs [--corpus 1y] [--runs 3] [--providers none,use] [--poll-ms 2000]
//
// Also in process (--runs times, provider none): createMcpServer + the SDK client over an
// in-memory transport, the first memory_recall timed in wall and CPU time (process.cpuUsage),
// since on a shared, loaded machine wall time is several times the CPU time.
//
// Per run: time to connect (Node start + server up), time of the first memory_recall
// (the BM25 sync of the whole corpus + the query), and, with an embedding provider, the
// time until the vectors are complete: memory_recall is called every --poll-ms until its
// answer comes from that provider (no `fallback` about the background pass), as a user
// would see it. USE is the offline encoder (@energetic-ai/embeddings, bundled weights).
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { corpusCopy, flags, fmt, percentile, repoRoot, report } from "./index-support.mjs";

const opts = flags({ corpus: "1y", runs: 3, providers: "none,use", pollMs: 2000 });
const cli = path.join(repoRoot, "dist/src/cli/main.js");
const QUERY = "what did Priya merge for FJD-3811?";

async function recall(client, query) {
  const t = performance.now();
  const r = await client.callTool({ name: "memory_recall", arguments: { query, k: 5 } }, undefined, {
    timeout: 600_000,
  });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(r.content[0].text);
  return { ms, answer: JSON.parse(r.content[0].text) };
}

/** CPU time (user + system, ms) of a child process so far, from /proc (Linux; NaN elsewhere). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

async function run(provider) {
  const dir = corpusCopy(opts.corpus, `mcp-cold-${provider}`);
  rmSync(path.join(dir, ".memory"), { recursive: true, force: true });
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--workspace", dir, "--provider", provider],
    stderr: "inherit",
  });
  const client = new Client({ name: "mcp-cold-bench", version: "0" });
  await client.connect(transport);
  const connectMs = performance.now() - t0;
  const connectCpuMs = cpuMsOf(transport.pid);
  const first = await recall(client, QUERY);
  const firstCpuMs = cpuMsOf(transport.pid) - connectCpuMs;
  const out = {
    provider,
    connectMs,
    connectCpuMs,
    firstRecallMs: first.ms,
    firstRecallCpuMs: firstCpuMs,
    firstProvider: first.answer.provider,
    firstFallback: first.answer.fallback ?? null,
    firstResults: first.answer.results.length,
  };
  if (provider !== "none") {
    for (;;) {
      await new Promise((r) => setTimeout(r, opts.pollMs));
      const next = await recall(client, QUERY);
      if (next.answer.provider === provider && !/background/.test(next.answer.fallback ?? "")) {
        out.vectorsCompleteMs = performance.now() - t0;
        out.vectorsCompleteCpuMs = cpuMsOf(transport.pid);
        out.hybridRecallMs = next.ms;
        break;
      }
      out.pollRecallMsMax = Math.max(out.pollRecallMsMax ?? 0, next.ms);
    }
  }
  await client.close();
  return out;
}

async function inProcess() {
  const { createMcpServer } = await import("../dist/src/mcp/index.js");
  const { openWorkspace, closeIndexes } = await import("../dist/src/internal.js");
  const out = [];
  for (let i = 0; i < opts.runs; i++) {
    const dir = corpusCopy(opts.corpus, "mcp-cold-inprocess");
    rmSync(path.join(dir, ".memory"), { recursive: true, force: true });
    const ws = await openWorkspace(dir);
    const { server } = createMcpServer(ws, { provider: "none" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "mcp-cold-bench", version: "0" });
    await client.connect(b);
    const cpu = process.cpuUsage();
    const first = await recall(client, QUERY);
    const used = process.cpuUsage(cpu);
    const second = await recall(client, QUERY);
    out.push({
      firstRecallMs: first.ms,
      firstRecallCpuMs: (used.user + used.system) / 1000,
      secondRecallMs: second.ms,
    });
    console.error(JSON.stringify(out.at(-1)));
    await client.close();
    closeIndexes();
  }
  return out;
}

const inproc = await inProcess();
const results = [];
for (const provider of opts.providers.split(",")) {
  const runs = provider === "none" ? opts.runs : 1;
  for (let i = 0; i < runs; i++) {
    const r = await run(provider);
    console.error(JSON.stringify(r));
    results.push(r);
  }
}

const rows = [];
for (const provider of opts.providers.split(",")) {
  const rs = results.filter((r) => r.provider === provider);
  const med = (key) =>
    percentile(
      rs.map((r) => r[key]),
      50,
    );
  rows.push(
    `| ${opts.corpus}, --provider ${provider} | ${rs.length} | ${fmt(med("connectMs"))} wall, ${fmt(med("connectCpuMs"))} CPU | ` +
      `${fmt(med("firstRecallMs"))} wall, ${fmt(med("firstRecallCpuMs"))} CPU (${rs[0].firstProvider}, ${rs[0].firstResults} results) | ` +
      `${provider === "none" ? "-" : `${fmt(med("vectorsCompleteMs"))} wall, ${fmt(med("vectorsCompleteCpuMs"))} CPU (recall while embedding: max ${fmt(rs[0].pollRecallMsMax ?? 0)}; hybrid recall after: ${fmt(med("hybridRecallMs"))})`} |`,
  );
}
const med = (key) =>
  percentile(
    inproc.map((r) => r[key]),
    50,
  );
rows.push(
  `| ${opts.corpus}, in process, --provider none | ${inproc.length} | - | ${fmt(med("firstRecallMs"))} wall, ${fmt(med("firstRecallCpuMs"))} CPU (next call: ${fmt(med("secondRecallMs"))}) | - |`,
);
report(
  "mcp-cold-bench",
  { corpus: opts.corpus, query: QUERY, results, inProcess: inproc },
  "| workspace | runs | connect (Node start + server) | first memory_recall, cold index | vectors complete (from spawn) |",
  rows,
);
