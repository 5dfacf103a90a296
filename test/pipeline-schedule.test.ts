import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listRunRecords } from "../src/pipeline/record.js";
import { startScheduler } from "../src/pipeline/scheduler.js";
import type { PipelineDefinition, RunRecord } from "../src/pipeline/types.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let tmp: string;
let ws: Workspace;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-schedule-"));
  await writeFile(path.join(tmp, "MEMORY.md"), "# Core\n");
  ws = await openWorkspace(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("scheduler", () => {
  it("runs on a fast cron schedule, never two runs at once, and stops cleanly", async () => {
    const spans: [number, number][] = [];
    const slow: PipelineDefinition<{ n: number }> = {
      name: "slow",
      description: "one slow step",
      createState: () => ({ n: 0 }),
      steps: [
        {
          name: "work",
          description: "takes 1.3 s, longer than the schedule's period",
          async run() {
            const start = Date.now();
            await sleep(1300);
            spans.push([start, Date.now()]);
            return { changed: true };
          },
        },
      ],
    };
    const records: RunRecord[] = [];
    const skipped: string[] = [];
    const scheduler = startScheduler(ws, slow, {
      cron: "* * * * * *",
      log: (l) => l.includes("skipped") && skipped.push(l),
      onRun: (r) => r && records.push(r),
    });
    await sleep(4200);
    await scheduler.stop("test over");
    expect(scheduler.busy).toBe(false);
    expect(spans.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] as number);
    expect(skipped.length).toBeGreaterThan(0);
    expect(records.every((r) => r.status === "done" || r.status === "aborted")).toBe(true);
    // One record per run started, the one stop() aborted before its step began included;
    // every run whose step finished is a span.
    expect((await listRunRecords(ws)).length).toBe(records.length);
    expect(records.filter((r) => r.steps.some((s) => s.name === "work" && s.status === "ok")).length).toBe(
      spans.length,
    );
    const after = spans.length;
    await sleep(1200);
    expect(spans.length).toBe(after); // stopped means stopped
  });

  it("rejects a bad cron expression and a bad time zone with exit code 2", () => {
    const def: PipelineDefinition<object> = { name: "x", description: "", createState: () => ({}), steps: [] };
    expect(() => startScheduler(ws, def, { cron: "every night" })).toThrow(/Invalid cron expression "every night"/);
    expect(() => startScheduler(ws, def, { cron: "0 3 * * *", tz: "Mars/Olympus" })).toThrow(/Unknown time zone/);
  });

  it("membank schedule runs the nightly pipeline every second and exits 0 on SIGTERM", async () => {
    const root = path.join(tmp, "bank");
    await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
    await writeFile(path.join(root, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
    await exec("git", ["init", "-q"], { cwd: root });
    const child = spawn(process.execPath, [CLI, "schedule", "--cron", "* * * * * *", "--workspace", root], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const bankWs = await openWorkspace(root);
    // Two finished runs; a busy machine (CI shares its cores) can take tens of seconds for the first.
    for (let i = 0; i < 600 && (await listRunRecords(bankWs)).filter((r) => r.status !== "running").length < 2; i++)
      await sleep(100);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const records = await listRunRecords(bankWs);
    expect(records.length).toBeGreaterThanOrEqual(2);
    expect(records[0]?.status).toBe("done");
    expect(records.slice(1).every((r) => ["nothing", "done", "aborted"].includes(r.status))).toBe(true);
    expect(out).toContain('membank schedule: nightly on "* * * * * *"');
    expect(out).toMatch(/SIGTERM: (finishing the current step, then stopping|stopping)/);
  }, 120_000);

  it("membank schedule --once runs now and exits with the run's code", async () => {
    const root = path.join(tmp, "bank2");
    await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
    await writeFile(path.join(root, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
    const first = await exec(process.execPath, [CLI, "schedule", "--once", "--workspace", root]);
    expect(first.stdout).toMatch(/pages: \d+ written/);
    expect(first.stdout).toContain("is not a git repository: files written, no commit");
    const second = await exec(process.execPath, [CLI, "schedule", "--once", "--json", "--workspace", root]).catch(
      (e: unknown) => e,
    );
    const r = second as { code?: number; stdout: string };
    // Reflect's second pass may still move something; otherwise 3 = nothing to do.
    const record = JSON.parse(r.stdout) as RunRecord;
    expect(r.code ?? 0).toBe(record.status === "nothing" ? 3 : 0);
  });
});
