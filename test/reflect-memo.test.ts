// Reflect's per-fact memo (src/reflect/fact-memo.ts, .memory/reflect/render-memo.json) is a
// cache of what the render half derives from each fact (change cues for proposals.md, facets
// for "superseded" marks), the prose memo (prose-memo.ts) one of each year's prose names. The
// pages never depend on them: a nightly with them, without them, with corrupt ones or ones of
// other code writes the same bytes.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles } from "./reflect-support.js";

// A few weeks of a small team's notes, written the way people write them: the memo matters for
// facts that move a date, change a job or a flat, and say that something is no longer so.
const LOGS: Record<string, string> = {
  "MEMORY.md":
    "# Core\n\n- Farid runs the billing rewrite; weekly sync with him on Thursdays.\n- Lotte lives in the flat above the bakery on Kastanienallee.\n- The billing rewrite ships in March.\n",
  "memory/2025-01-06.md":
    "Monday. Farid back from holiday, looked tired.\n\n## Retain\n- W @Farid: Leads the billing rewrite, deadline end of March.\n- W @Lotte: Lives above the bakery, moving out sometime in spring?\n- O(c=0.7) @Farid: Thinks the old invoice code can be salvaged.\n",
  "memory/2025-01-09.md":
    "sync w/ Farid moved to friday (his call).\n\n## Retain\n- W @Farid: The Thursday sync moved to Fridays at 10.\n- B: I drafted the migration plan for @Farid.\n- S: slow week\n",
  "memory/2025-01-15.md":
    "Lotte texted: lease signed!!\n\n## Retain\n- W @Lotte: Signed the lease for a flat in Wedding, moves Feb 1.\n- W @Farid: Off sick Wednesday, flu.\n",
  "memory/2025-01-22.md":
    "## Retain\n- W @Farid: Back at work, recovered.\n- W @Farid: The billing rewrite deadline slipped to mid-April.\n- O(c=0.4) @Farid: Not so sure anymore the invoice code can be saved.\n",
  "memory/2025-01-29.md":
    "Long day. Farid handed the billing rewrite to Ines, he's moving to the data team.\n\n## Retain\n- W @Farid: Handed the billing rewrite over to @Ines; joined the data team as lead.\n- W @Ines: Took over the billing rewrite from @Farid.\n",
  "memory/2025-02-03.md":
    "Helped Lotte carry boxes, her new address: Utrechter Str. 12.\n\n## Retain\n- W @Lotte: No longer lives above the bakery; new flat in Wedding since Feb 1.\n- W @Ines: Weekly sync moved back to Thursdays.\n",
};

const NEW_DAY =
  "Coffee with Ines. She wants the review before the release.\n\n## Retain\n- W @Ines: Billing rewrite review set for Feb 12, release stays mid-April.\n- W @Farid: The data team interview loop is his now.\n";

async function workspace(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-memo-"));
  for (const [rel, text] of Object.entries(LOGS)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

const memoFile = (dir: string) => path.join(dir, ".memory/reflect/render-memo.json");
const night = { since: "2025-02-04", commit: false, now: new Date("2025-02-05T06:00:00Z") } as const;

/** A copy of the evening before (pages, snapshot, memo), with `change` applied to its memo, then the nightly run. */
async function nightly(evening: string, change: (file: string) => Promise<void>): Promise<Map<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-memo-night-"));
  await cp(evening, dir, { recursive: true });
  await change(memoFile(dir));
  await writeFile(path.join(dir, "memory/2025-02-04.md"), NEW_DAY);
  const report = await reflect(await openWorkspace(dir), night);
  expect(report.mode).toBe("incremental");
  return bankFiles(dir);
}

describe("the render memo is a cache, never truth", () => {
  it("a nightly with the memo, without it, corrupt or of other code writes the same pages", async () => {
    const evening = await workspace();
    await reflect(await openWorkspace(evening), { all: true, commit: false, now: new Date("2025-02-04T06:00:00Z") });
    const memo = JSON.parse(await readFile(memoFile(evening), "utf8"));
    // The full run derived something for the facts the pages show.
    expect(memo.ids.length).toBeGreaterThan(5);

    const kept = await nightly(evening, async () => {});
    const pages = [...kept.keys()];
    expect(pages).toContain("bank/proposals.md");
    expect(kept.get("bank/proposals.md")).toContain("### Updates");
    expect(kept.get("bank/entities/Farid.md")).toContain("superseded");

    expect(await nightly(evening, (f) => rm(f))).toEqual(kept);
    expect(await nightly(evening, (f) => writeFile(f, '{"version":1,"code":'))).toEqual(kept);
    expect(await nightly(evening, (f) => writeFile(f, "null"))).toEqual(kept);
    // Entries claiming the opposite of the truth, under another code fingerprint: ignored.
    // Entries claiming the opposite of what each fact says, shifted by `stamp` (the content length they are for).
    const lie = (stamp: number) =>
      (memo.entries as [number, unknown, unknown][]).map((e) => [
        e[0] + stamp,
        e[1] === 1 ? "billing rewrite" : 1,
        e[2] === 1 ? [0, "contract"] : 1,
      ]);
    // Under another code fingerprint: ignored.
    const lying = (code: string) => (f: string) => writeFile(f, JSON.stringify({ ...memo, code, entries: lie(0) }));
    expect(await nightly(evening, lying("another-code"))).toEqual(kept);
    // For facts whose text is no longer what they were derived from (another length): derived again.
    expect(await nightly(evening, (f) => writeFile(f, JSON.stringify({ ...memo, entries: lie(1) })))).toEqual(kept);
    // Lists that do not pair up: not read.
    expect(await nightly(evening, (f) => writeFile(f, JSON.stringify({ ...memo, ids: memo.ids.slice(1) })))).toEqual(
      kept,
    );
    // The prose digests (.memory/reflect/prose-memo.json): missing, corrupt, or kept for prose that has changed since.
    const prose = (f: string) => path.join(path.dirname(f), "prose-memo.json");
    expect(JSON.parse(await readFile(prose(memoFile(evening)), "utf8")).years.length).toBe(1);
    expect(await nightly(evening, (f) => rm(prose(f)))).toEqual(kept);
    expect(await nightly(evening, (f) => writeFile(prose(f), '{"version":1,"years":[{"hash":'))).toEqual(kept);
    const stale = async (f: string) => {
      const file = JSON.parse(await readFile(prose(f), "utf8"));
      file.years[0].hash = "0000000000000000";
      file.years[0].digest.spell = {};
      await writeFile(prose(f), JSON.stringify(file));
    };
    expect(await nightly(evening, stale)).toEqual(kept);
    // And a run that reads every log gives those pages too.
    const full = await workspace();
    await writeFile(path.join(full, "memory/2025-02-04.md"), NEW_DAY);
    await reflect(await openWorkspace(full), { all: true, commit: false, now: night.now });
    expect(await bankFiles(full)).toEqual(kept);
  });

  it("the memo drops the entries of facts that are gone", async () => {
    const dir = await workspace();
    const ws = await openWorkspace(dir);
    await reflect(ws, { all: true, commit: false, now: new Date("2025-02-04T06:00:00Z") });
    const before: string[] = JSON.parse(await readFile(memoFile(dir), "utf8")).ids;
    await rm(path.join(dir, "memory/2025-01-22.md"));
    await reflect(ws, { all: true, commit: false, now: new Date("2025-02-04T06:00:00Z") });
    const after: string[] = JSON.parse(await readFile(memoFile(dir), "utf8")).ids;
    expect(after.length).toBeLessThan(before.length);
    expect(after.every((id) => before.includes(id))).toBe(true);
  });
});
