import { execFile } from "node:child_process";
import { appendFile, cp, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { cliPipeline } from "../src/cli/pipelines.js";
import { executePipeline } from "../src/pipeline/runner.js";
import type { RunRecord } from "../src/pipeline/types.js";
import { openWorkspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
let tmp: string;

async function workspace(name: string): Promise<string> {
  const root = path.join(tmp, name);
  await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({ embedding: { provider: "none" }, sessions: { tz: "UTC" } }),
  );
  await exec("git", ["init", "-q"], { cwd: root });
  // The user's workspace as they keep it: logs and bank committed by them.
  await exec("git", ["add", "-A"], { cwd: root });
  await exec("git", ["-c", "user.name=u", "-c", "user.email=u@localhost", "commit", "-qm", "my notes"], { cwd: root });
  return root;
}

async function bank(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const dir of ["bank", "bank/entities"]) {
    for (const n of (await readdir(path.join(root, dir))).sort()) {
      if (n.endsWith(".md")) out[`${dir}/${n}`] = await readFile(path.join(root, dir, n), "utf8");
    }
  }
  return out;
}

async function settle(root: string, opts: { full?: boolean } = {}): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await runPipeline(await openWorkspace(root), "nightly", {
      sessionsDir: path.join(ROOT, "fixtures/sessions/agents"),
      ...opts,
    });
    records.push(r);
    expect(["done", "nothing"]).toContain(r.status);
    if (r.status === "nothing") break;
  }
  return records;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-nightly-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("nightly pipeline", () => {
  it("commits only what it wrote, reads only logs changed since the last run, and equals a full run", async () => {
    const inc = await workspace("inc");
    await writeFile(path.join(inc, "scratch.txt"), "a user's unrelated, uncommitted file\n");
    const [first] = await settle(inc);
    expect(first?.steps.map((s) => s.status)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(first?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(first?.written).toContain("memory/2026-03-04-sessions.md");
    const status = (await exec("git", ["status", "--porcelain"], { cwd: inc })).stdout;
    expect(status).toContain("?? scratch.txt");
    expect(status).not.toMatch(/bank\/|sessions\.md/);
    const committed = (await exec("git", ["show", "--name-only", "--format=", "HEAD~0"], { cwd: inc })).stdout;
    expect(committed).not.toContain("scratch.txt");
    // The message a reviewer reads: reflect's new opinions with their start and end confidence, and the facts added.
    const message = (await exec("git", ["log", "-1", "--format=%B", first?.commit ?? "HEAD"], { cwd: inc })).stdout;
    expect(message).toMatch(/^membank nightly \d{4}-\d{2}-\d{2}: 44 new facts/);
    expect(message).toMatch(
      /New opinions:\n- @Mara: Prefers async written status updates over live standup meetings\. \(0\.70 -> 0\.\d\d\)/,
    );
    expect(message).toContain("Facts added:\n- 2026-03-02 ");
    expect(message).toContain("(memory/2026-03-03.md#L18)");

    // A person adds a fact to an old log: the next run reads from that day on.
    const logs = (await readdir(path.join(inc, "memory"))).filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n)).sort();
    const oldest = logs[0] as string;
    await appendFile(
      path.join(inc, "memory", oldest),
      "\n## Retain\n- W @Priya: Keeps a paper notebook for design sketches.\n",
    );
    const [second] = await settle(inc);
    const retain = second?.steps.find((s) => s.name === "retain");
    expect(retain?.notes?.[0]).toBe(`logs dated ${oldest.slice(0, 10)} or later (changed since the last run)`);
    expect((await bank(inc))["bank/entities/Priya.md"]).toContain("Keeps a paper notebook");

    // The same workspace built with full runs gives the same bank.
    const full = await workspace("full");
    await appendFile(
      path.join(full, "memory", oldest),
      "\n## Retain\n- W @Priya: Keeps a paper notebook for design sketches.\n",
    );
    await settle(full, { full: true });
    expect(await bank(full)).toEqual(await bank(inc));
  });

  it("leaves an index a new scan finds nothing to add to (the index step stats only what the run wrote)", async () => {
    const root = await workspace("listing");
    const first = await runPipeline(await openWorkspace(root), "nightly", {
      sessionsDir: path.join(ROOT, "fixtures/sessions/agents"),
    });
    expect(first.written.length).toBeGreaterThan(5);
    // A day later: a new log, written the way people do.
    await writeFile(
      path.join(root, "memory/2026-03-20.md"),
      "# Fri 20 March\n\nslow day. Mara out sick.\n\n## Retain\n- W @Mara: Out sick on 2026-03-20, back Monday.\n- O(c=0.6) @Mara: Seems to prefer Friday demos.\n- W @Tobias: Started as a contractor on the billing rewrite, via Jo.\n",
    );
    const second = await runPipeline(await openWorkspace(root), "nightly", {});
    expect(second.status).toBe("done");
    expect(second.written).toContain("bank/entities/Tobias.md"); // a page new tonight
    const { closeIndexes, syncIndex } = await import("../src/index/index.js");
    const after = await syncIndex(await openWorkspace(root));
    expect({ changed: after.changed, removed: after.removed }).toEqual({ changed: 0, removed: 0 });
    closeIndexes();
  });

  it("finds a log restored from a backup with its old mtime (newer-than-last-run cannot)", async () => {
    const root = await workspace("restore");
    // Logs written weeks ago (a fresh copy would make every log "newer than the last run").
    const written = new Date("2026-03-16T00:00:00Z");
    for (const n of await readdir(path.join(root, "memory")))
      await utimes(path.join(root, "memory", n), written, written);
    await settle(root);
    const manifest = JSON.parse(await readFile(path.join(root, ".memory/nightly-files.json"), "utf8"));
    expect(Object.keys(manifest.files)).toContain("memory/2026-03-03.md");
    // The restored copy carries a fact the bank has not seen, and a two-week-old mtime.
    const log = path.join(root, "memory/2026-03-03.md");
    await appendFile(log, "\n## Retain\n- W @Priya: Restored: keeps her notes in a paper notebook.\n");
    const old = new Date("2026-03-03T18:00:00Z");
    await utimes(log, old, old);
    const [next] = await settle(root);
    const retain = next?.steps.find((s) => s.name === "retain");
    expect(retain?.notes?.[0]).toBe("logs dated 2026-03-03 or later (changed since the last run)");
    expect((await bank(root))["bank/entities/Priya.md"]).toContain("keeps her notes in a paper notebook");
  });

  it("a deleted log leaves no page citing it as present: an entity it alone named has no facts, evidence is marked gone", async () => {
    const root = await workspace("deleted");
    const written = new Date("2026-03-16T00:00:00Z");
    for (const n of await readdir(path.join(root, "memory")))
      await utimes(path.join(root, "memory", n), written, written);
    await settle(root);
    expect((await bank(root))["bank/entities/Wei.md"]).toContain("memory/2026-03-12.md#L13");
    await rm(path.join(root, "memory/2026-03-12.md"));
    await settle(root);
    const pages = await bank(root);
    expect(pages["bank/entities/Wei.md"]).toContain("@Wei: no facts in the logs now.");
    for (const [page, text] of Object.entries(pages)) {
      for (const line of text.split("\n").filter((l) => l.includes("memory/2026-03-12.md"))) {
        // The opinion keeps the evidence that moved its confidence, marked as gone from the log.
        expect(page, line).toBe("bank/opinions.md");
        expect(line).toMatch(/`c09ccf322d1b` \(no longer in the log\).* — Prefers async written status updates/);
      }
    }
    expect(pages["bank/opinions.md"]).toContain("(no longer in the log)");
  });

  it("a failing step stops the pipeline before the commit and the record names it", async () => {
    const root = await workspace("bad");
    // As `membank run nightly` runs it: with the CLI's summary, kept in the record.
    const r = await executePipeline(await openWorkspace(root), cliPipeline("nightly"), {
      sessionsDir: path.join(tmp, "missing-sessions"),
    });
    expect(r.status).toBe("failed");
    expect(r.steps.map((s) => s.status)).toEqual(["failed", "skipped", "skipped", "skipped", "skipped"]);
    expect(r.error?.message).toMatch(/step "sessions" failed: Sessions folder .*missing-sessions does not exist/);
    expect(r.summary?.at(-1)).toMatch(/^run: FAILED/);
  });
});
