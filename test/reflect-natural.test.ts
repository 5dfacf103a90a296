// Reflect on logs written the way people write (issue 10, items 1-3): one belief restated
// in other words over four weeks is one opinion whose confidence falls, with its path,
// status and the reason for each move on the page; a new topic of the same person is a
// new opinion; a second run changes nothing; a day-by-day run equals one full run.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRegions } from "../src/markdown/index.js";
import { opinionStatus } from "../src/markdown/opinions.js";
import { type Opinion, parseOpinion, reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles, git } from "./reflect-support.js";

const LOGS: Record<string, string> = {
  "2026-03-03.md": `# Tue 3 Mar

Long standup again. Mara walked everyone through the ledger-sync plan; Tomasz is less sure
about the vendor sandbox but didn't push back.

## Retain
- O(c=0.8) @Mara: Thinks ledger-sync can cut over by the end of March if the vendor API stays stable.
- O(c=0.9) @Mara: Prefers written status updates to the Monday standup.
- W @ledger-sync: Migration scripts merged, dry run booked for Mar 10.
- B @Tomasz: I paired with Tomasz on the reconciliation job.
`,
  "2026-03-11.md": `# 11 March

dry run yesterday. not great.

## Retain
- O(c=0.5) @Mara: puts a March cutover for ledger-sync at fifty-fifty now that the dry run found gaps
- W @ledger-sync: Dry run found 214 mismatched balances.
`,
  "2026-03-18.md": `# Wed 18/03

## Retain
- O @Mara: still hopes ledger-sync cuts over by the 31st, but calls it tight.
- W @ledger-sync: Cutover moved to April 14 after the bank's change freeze.
`,
  "2026-03-25.md": `# 2026-03-25

Mara in a better mood than last week, weirdly.

## Retain
- O(c=0.3) @Mara: Accepted the new date; no longer believes ledger-sync could have shipped in March.
- O @Mara: still prefers written updates - the standup thread works fine.
`,
  "2026-04-01.md": `# April 1 (no jokes)

## Retain
- W @Tomasz: Says the ledger-sync cutover slipped again, the rehearsal failed on FX rates.
- O(c=0.85) @Mara: The new office coffee machine is a big upgrade.
`,
};

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function workspace(days: string[]) {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-natural-"));
  dirs.push(dir);
  await mkdir(path.join(dir, "memory"));
  await writeFile(path.join(dir, "MEMORY.md"), "# Memory\n\n- Mara leads the ledger-sync migration.\n");
  for (const day of days) await writeFile(path.join(dir, "memory", day), LOGS[day]!);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: logs");
  return { dir, ws: await openWorkspace(dir) };
}

async function opinions(dir: string): Promise<Opinion[]> {
  const text = await readFile(path.join(dir, "bank/opinions.md"), "utf8");
  return readRegions(text).map((r) => {
    const op = parseOpinion(r.name, r.body);
    if (typeof op === "string") throw new Error(op);
    return op;
  });
}

describe("reflect on natural writing", () => {
  it("one belief restated in other words is one opinion that ends clearly lower, with its path", async () => {
    const { dir, ws } = await workspace(Object.keys(LOGS));
    await reflect(ws);
    const ops = await opinions(dir);
    // Three beliefs of Mara's (the cutover, written updates, the coffee machine); nothing else.
    expect(ops.map((o) => o.statement)).toEqual([
      "Thinks ledger-sync can cut over by the end of March if the vendor API stays stable.",
      "Prefers written status updates to the Monday standup.",
      "The new office coffee machine is a big upgrade.",
    ]);
    const cutover = ops[0]!;
    // Three restatements and two outcome facts tagged with the project (one by plain name) are its evidence.
    expect(cutover.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-03-03", "support"],
      ["2026-03-11", "contradict"],
      ["2026-03-18", "contradict"],
      ["2026-03-18", "contradict"],
      ["2026-03-25", "contradict"],
      ["2026-04-01", "contradict"],
    ]);
    expect(cutover.confidence).toBeLessThan(0.5);
    expect(["weakened", "reversed"]).toContain(opinionStatus(cutover));
    // Its path: one point per day that moved it, always down, each step gradual.
    const path_ = cutover.path!.map((p) => p.confidence);
    expect(path_).toHaveLength(5);
    expect(path_[0]).toBe(0.8);
    for (let i = 1; i < path_.length; i++) {
      expect(path_[i]!).toBeLessThan(path_[i - 1]!);
      expect(path_[i - 1]! - path_[i]!).toBeLessThanOrEqual(0.15);
    }
    // The page says why, in words.
    const page = await readFile(path.join(dir, "bank/opinions.md"), "utf8");
    expect(page).toMatch(
      /- path: 0\.80 \(2026-03-03\) -> 0\.\d\d \(03-11\) -> 0\.\d\d \(03-18\) -> 0\.\d\d \(03-25\) -> /,
    );
    expect(page).toMatch(/- status: (weakened|reversed)/);
    expect(page).toContain("contradicts 1.00, 0.80 -> 0.68: restated at 0.50 < 0.80");
    expect(page).toMatch(/contradicts (0\.90|1\.00), 0\.\d\d -> 0\.\d\d: cue "(no longer|accepted the new date)"/);
    expect(page).toMatch(/contradicts 0\.50(, 0\.\d\d -> 0\.\d\d)?: outcome "moved to"/);

    // The written-updates belief was held again: one opinion, not two, and it did not fall.
    const updates = ops[1]!;
    expect(updates.evidence.map((e) => e.stance)).toEqual(["support", "support"]);
    expect(updates.confidence).toBeGreaterThanOrEqual(0.9);
    expect(opinionStatus(updates)).toBe("holding");

    // A second run changes nothing.
    const before = await bankFiles(dir);
    const again = await reflect(ws);
    expect(again.commit).toBeUndefined();
    expect(await bankFiles(dir)).toEqual(before);
  }, 60_000);

  it("day by day, as the nightly job runs, ends in the same bytes as one full run", async () => {
    const days = Object.keys(LOGS).sort();
    const daily = await workspace([]);
    for (const day of days) {
      await writeFile(path.join(daily.dir, "memory", day), LOGS[day]!);
      await reflect(daily.ws, { since: day.slice(0, 10) });
    }
    const full = await workspace(days);
    await reflect(full.ws);
    expect(await bankFiles(daily.dir)).toEqual(await bankFiles(full.dir));
  }, 60_000);
});
