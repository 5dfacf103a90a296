// "Today" for a run is the person's day, not UTC's: a nightly run in Honolulu (UTC-10) in the
// evening, or in Tonga (UTC+13) at 03:30, dates its commit and labels entity-page events
// (upcoming / ongoing / past) by the workspace's zone (schedule.tz), as session digests do.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-tzday-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function workspace(tz: string, logs: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmp, "ws-"));
  await mkdir(path.join(root, "memory"));
  for (const [name, text] of Object.entries(logs)) await writeFile(path.join(root, "memory", name), text);
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({ embedding: { provider: "none" }, schedule: { tz } }),
  );
  await exec("git", ["init", "-q"], { cwd: root });
  await exec("git", ["add", "-A"], { cwd: root });
  await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "logs"], { cwd: root });
  return root;
}

const subject = async (root: string) => (await exec("git", ["log", "-1", "--format=%s"], { cwd: root })).stdout.trim();

describe("the run's day is the workspace's day", () => {
  it("Honolulu, 21:30 on Mar 15 (07:30 UTC on the 16th): a trip ending the 15th is ongoing, the commit says 2026-03-15", async () => {
    const root = await workspace("Pacific/Honolulu", {
      "2026-03-13.md":
        "# Fri\n\nPacked the boards.\n\n## Retain\n- W @Kai: Away on the north shore surf trip Mar 13–15, back at work Monday.\n",
    });
    const rec = await runPipeline(await openWorkspace(root), "nightly", { now: new Date("2026-03-16T07:30:00Z") });
    expect(rec.status).toBe("done");
    expect(await subject(root)).toMatch(/^membank nightly 2026-03-15:/);
    expect(await readFile(path.join(root, "bank/entities/Kai.md"), "utf8")).toContain(
      "2026-03-13 → 2026-03-15, ongoing",
    );
  });

  it("Tonga, 03:30 on Mar 16 (14:30 UTC on the 15th): a visit from the 16th is ongoing, the commit says 2026-03-16", async () => {
    const root = await workspace("Pacific/Tongatapu", {
      "2026-03-14.md":
        "# Sat\n\nCleaned the spare room.\n\n## Retain\n- W @Lena: Staying with us from Mar 16 to Mar 20 for the wedding.\n",
    });
    const rec = await runPipeline(await openWorkspace(root), "nightly", { now: new Date("2026-03-15T14:30:00Z") });
    expect(rec.status).toBe("done");
    expect(await subject(root)).toMatch(/^membank nightly 2026-03-16:/);
    expect(await readFile(path.join(root, "bank/entities/Lena.md"), "utf8")).toContain(
      "2026-03-16 → 2026-03-20, ongoing",
    );
  });

  it("reflect --since 1d in Honolulu at 21:30 on Mar 15 counts back from the 15th, not from UTC's 16th", async () => {
    const root = await workspace("Pacific/Honolulu", {
      "2026-03-13.md": "# Fri\n\n## Retain\n- B @Kai: Waxed the longboard.\n",
      "2026-03-14.md": "# Sat\n\n## Retain\n- B @Kai: Paddled out at Waimea before sunrise.\n",
      "2026-03-15.md": "# Sun\n\n## Retain\n- W @Kai: Back at work Monday.\n",
    });
    const ws = await openWorkspace(root);
    const now = new Date("2026-03-16T07:30:00Z");
    await reflect(ws, { now });
    const report = await reflect(ws, { since: "1d", now });
    // The 14th and the 15th: a day back from the person's today (UTC's day would leave the 14th out).
    expect(report.factsRead).toBe(2);
  });
});
