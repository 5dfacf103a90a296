// Under load (issue 17), small: on a fresh copy of bank.example, 4 CLI recall processes and 4 concurrent MCP memory_recall
// calls over one server, in a loop for ~15 s, while `watch` runs and a nightly run with
// new input writes pages and the index. Correctness only (every call answers with
// results, no "database is locked", no stack trace), never timing: the numbers live in
// bench/load.bench.mjs and bench/README.md. Runs the BUILT CLI.
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM shared with the benchmark, no types
import { runLoad, writeNewDay } from "../bench/load-driver.mjs";
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "membank-load-"));
  await cp(path.join(repoRoot, "bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({ embedding: { provider: "none" }, sessions: { tz: "UTC" } }),
  );
  await exec("git", ["init", "-q"], { cwd: root });
  await exec("git", ["add", "-A"], { cwd: root });
  await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "notes"], { cwd: root });
  // No index yet: a freshly copied workspace, so the first calls all find it missing at
  // once (before: two builds renamed over each other, "SQLITE_READONLY_DBMOVED", "database is locked").
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("many readers and one writer at once", () => {
  it("every recall answers with results while the nightly and watch write; afterwards the new state is seen", async () => {
    const run = await runLoad({
      cli,
      root,
      seconds: 15,
      cliWorkers: 4,
      mcpWorkers: 4,
      queries: [
        "Tell me about Priya",
        "what does Mara prefer for status updates?",
        "what happened around March 12?",
        "ledger-sync",
        "FJD-482 root cause",
        "does Jonas still think ledger-sync ships in March?",
      ],
      afterQuery: "Zanzibar",
      newInput: (dir: string) =>
        writeNewDay(dir, "2026-03-16", [
          "# Monday 16 March",
          "",
          "Long day. Planning call ran over, then the Zanzibar thing came up again.",
          "",
          "## Retain",
          "",
          "- W @Priya: Booked the Zanzibar retreat for the team (Apr 20-24, 2026).",
          "- O(c=0.7) @Mara: thinks the Zanzibar retreat is too far for a 4-day trip",
          "- B: I sent the FJD-482 fix to @Jonas for review.",
          "",
        ]),
    });
    const failed = run.calls.filter((c: { error?: string }) => c.error);
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    expect(run.calls.filter((c: { via: string }) => c.via === "cli").length).toBeGreaterThanOrEqual(4);
    expect(run.calls.filter((c: { via: string }) => c.via === "mcp").length).toBeGreaterThanOrEqual(4);
    // The nightly ran through under the load (0 = it wrote something).
    expect(run.nightly.code, run.nightly.stderr).toBe(0);
    expect(run.watchErr).not.toMatch(/locked|unexpected error/);
    expect(run.mcpErr).not.toMatch(/locked|unexpected error/);
    // After the run, a reader sees the new day.
    expect(run.after.code, run.after.stderr).toBe(0);
    const after = JSON.parse(run.after.stdout) as { results: { source: string }[] };
    expect(after.results.map((r) => r.source).join(" ")).toContain("memory/2026-03-16.md");
  }, 120_000);
});
