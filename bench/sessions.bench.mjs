#!/usr/bin/env node
// Session ingestion of one huge transcript (issue 13 item 15): peak RSS, time and digest size.
// Run `pnpm build` first.
//
//   node bench/sessions.bench.mjs [--mb 240] [--seed 1]
//
// Writes a ~N MB OpenClaw transcript (`<tmp>/agents/main/sessions/<id>.jsonl`, two days of
// chat, messages of 200 B to 40 KB, a few fake secrets) and an empty workspace to a temp
// dir, then runs `ingestSessions` in a fresh Node process and reports that process's peak
// RSS (`process.resourceUsage().maxRSS`), wall time, and the digests' sizes. Generation and
// ingestion are separate processes so the generator's memory is not counted. The temp dir
// is removed afterwards; nothing is written under the repository.
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Rand } from "./generate-rand.mjs";
import { flags, repoRoot } from "./index-support.mjs";

const WORDS =
  "the deploy of ledger sync failed again because the staging database ran out of connections so I bumped the pool size and restarted the worker then Mara asked whether the migration for invoices is safe to run before Friday".split(
    " ",
  );

async function generate(dir, mb, seed) {
  const g = new Rand(seed, "sessions-bench");
  const folder = path.join(dir, "agents/main/sessions");
  mkdirSync(folder, { recursive: true });
  const out = createWriteStream(path.join(folder, "4b0c2d7e-big.jsonl"));
  const target = mb * 1024 * 1024;
  let written = 0;
  const t0 = Date.parse("2026-03-04T06:00:00Z");
  let t = t0;
  let line = 0;
  const put = async (rec) => {
    const s = `${JSON.stringify(rec)}\n`;
    written += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, "drain");
  };
  await put({ type: "session", version: 3, id: "4b0c2d7e-big", timestamp: new Date(t).toISOString() });
  while (written < target) {
    line++;
    // Two days of chat: the first half of the bytes on 2026-03-04, the rest on 2026-03-05.
    t =
      written < target / 2
        ? t0 + Math.floor((written / target) * 2 * 16 * 3600_000)
        : t0 + 86_400_000 + Math.floor(((written - target / 2) / target) * 2 * 16 * 3600_000);
    const role = line % 2 ? "user" : "assistant";
    const n = g.chance(0.02) ? g.int(2000, 6000) : g.int(30, 300);
    const words = [];
    for (let i = 0; i < n; i++) words.push(g.pick(WORDS));
    let text = words.join(" ");
    if (g.chance(0.01)) text += ` (staging key sk_live_${g.hex(24)})`;
    const content = g.chance(0.5) ? text : [{ type: "text", text }];
    await put({ type: "message", id: g.hex(8), timestamp: new Date(t).toISOString(), message: { role, content } });
  }
  out.end();
  await once(out, "finish");
  return written;
}

async function ingest(dir) {
  const { ingestSessions, openWorkspace } = await import(path.join(repoRoot, "dist/src/internal.js"));
  const ws = await openWorkspace(path.join(dir, "ws"));
  const t = performance.now();
  const r = await ingestSessions(ws, { now: new Date("2026-03-07T12:00:00Z") });
  const ms = performance.now() - t;
  const digests = {};
  for (const name of readdirSync(path.join(dir, "ws/memory")).sort())
    digests[name] = statSync(path.join(dir, "ws/memory", name)).size;
  const leftOut = (r.leftOut ?? []).reduce((a, x) => a + x.messages, 0);
  process.stdout.write(
    `${JSON.stringify({ ms: Math.round(ms), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), messages: r.messages, leftOut, digests })}\n`,
  );
}

const [mode, dirArg] = process.argv.slice(2);
if (mode === "--generate-into") {
  const o = JSON.parse(process.argv[4]);
  process.stdout.write(`${await generate(dirArg, o.mb, o.seed)}\n`);
} else if (mode === "--ingest-from") {
  await ingest(dirArg);
} else {
  const opts = flags({ mb: 240, seed: 1 });
  const dir = mkdtempSync(path.join(os.tmpdir(), "membank-sessions-bench-"));
  try {
    const self = import.meta.filename;
    const gen = spawnSync(process.execPath, [self, "--generate-into", dir, JSON.stringify(opts)], { encoding: "utf8" });
    if (gen.status !== 0) throw new Error(gen.stderr);
    mkdirSync(path.join(dir, "ws/memory"), { recursive: true });
    writeFileSync(
      path.join(dir, "ws/membank.config.json"),
      JSON.stringify({ sessions: { dir: "../agents", tz: "UTC" } }),
    );
    const run = spawnSync(process.execPath, [self, "--ingest-from", dir], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(run.stderr);
    const res = JSON.parse(run.stdout);
    const digestMB = Object.values(res.digests).reduce((a, b) => a + b, 0) / 1024 / 1024;
    console.log(
      `transcript ${(Number(gen.stdout) / 1024 / 1024).toFixed(1)} MB, ${res.messages} messages kept, ${res.leftOut} left out`,
    );
    console.log(
      `ingest ${(res.ms / 1000).toFixed(1)} s, peak RSS ${res.maxRssMB} MB, digests ${digestMB.toFixed(2)} MB`,
    );
    for (const [name, size] of Object.entries(res.digests)) console.log(`  ${name}: ${(size / 1024).toFixed(0)} KB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
