// What a reviewer reads the morning after: a one-new-day run changes only the pages the new
// facts belong to, and inside them only the regions whose content changed (no hash or count
// churn elsewhere). The commit message lists only the new day's facts.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRegions } from "../src/markdown/index.js";
import { membank } from "./reflect-support.js";

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
}

const LOGS: Record<string, string> = {
  "2026-02-26.md":
    "# Thu 26 Feb\n\nLong one.\n\n## Retain\n- W @Mara: Leads the ledger-sync migration.\n- B: I cleaned up the on-call runbook, finally\n- O(c=0.7) @Tomasz: thinks the batch size of 500 is too careful\n",
  "2026-02-27.md":
    "# Fri\n\n## Retain\n- W @Tomasz @ledger-sync: load test failed at 400k rows (SQLSTATE 40001)\n- S: slow friday, mostly reviews\n",
  "2026-03-02.md":
    "# 2026-03-02\n\nBack from the weekend.\n\n## Retain\n- W @Zoë: plaster samples arrive Thursday\n- B @Mara: I walked Mara through the retry design.\n",
};
const NEW_DAY =
  "# Tue 3 Mar\n\nStandup moved.\n\n## Retain\n- W @Mara: Starting Mar 9 she also owns the payments on-call rota.\n";

async function regionsOf(dir: string, rel: string): Promise<Map<string, string>> {
  const text = await readFile(path.join(dir, rel), "utf8");
  return new Map(readRegions(text).map((r) => [r.name, `${r.body}|${r.sha ?? ""}`]));
}

describe("the lines a one-new-day run changes", () => {
  it("touches only the new facts' pages and regions, and lists only the new facts", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-oneday-"));
    await mkdir(path.join(dir, "memory"));
    for (const [name, text] of Object.entries(LOGS)) await writeFile(path.join(dir, "memory", name), text);
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "logs");
    const first = await membank("run", "nightly", "--workspace", dir);
    expect(first.code, first.stderr).toBe(0);
    const mara = await regionsOf(dir, "bank/entities/Mara.md");
    const world = await regionsOf(dir, "bank/world.md");

    await writeFile(path.join(dir, "memory/2026-03-03.md"), NEW_DAY);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "the new day");
    const next = await membank("run", "nightly", "--workspace", dir);
    expect(next.code, next.stderr).toBe(0);

    const changed = git(dir, "diff", "HEAD~1", "HEAD", "--name-only").trim().split("\n").sort();
    expect(changed).toEqual(["bank/entities/Mara.md", "bank/world.md"]);
    // Inside the changed pages, regions the new fact does not belong to keep their bytes, hash included.
    const maraAfter = await regionsOf(dir, "bank/entities/Mara.md");
    expect(maraAfter.get("opinions")).toBe(mara.get("opinions"));
    expect(maraAfter.get("related")).toBe(mara.get("related"));
    expect(maraAfter.get("facts")).not.toBe(mara.get("facts"));
    const worldAfter = await regionsOf(dir, "bank/world.md");
    expect(worldAfter.get("2026-02")).toBe(world.get("2026-02"));
    expect(worldAfter.get("2026-03")).not.toBe(world.get("2026-03"));
    // Every hash line that changed belongs to a region whose body changed (no hash-only churn).
    const diff = git(dir, "diff", "HEAD~1", "HEAD", "--unified=0");
    const hashLines = diff.split("\n").filter((l) => /^\+<!-- membank:end /.test(l));
    expect(hashLines.map((l) => /membank:end (\S+)/.exec(l)![1]).sort()).toEqual(["2026-03", "facts", "summary"]);

    const message = git(dir, "log", "-1", "--format=%B");
    expect(message.split("\n")[0]).toMatch(/^membank nightly \d{4}-\d{2}-\d{2}: 1 new fact, 2 pages$/);
    const added = message.split("Facts added:\n")[1]!.split("\n\n")[0]!.trim().split("\n");
    expect(added).toEqual([
      "- 2026-03-03 W @Mara: Starting Mar 9 she also owns the payments on-call rota. (memory/2026-03-03.md#L6)",
    ]);
  });
});
