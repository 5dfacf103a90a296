// The user reverts one of membank's nightly commits (`git revert HEAD`: last night's page
// changes undone) while the logs still hold what those pages said. The next nightly re-reads
// every log and writes the bank they give (the bytes of `--full` and of a fresh full run),
// and its summary says why; a note added by hand outside the regions starts no such run.
import { appendFileSync, cpSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyChange, compareFiles, filesOf, git, nightAfter, nightly, tempWorkspace } from "./support/differential.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const reflectNotes = (record: Awaited<ReturnType<typeof nightly>>) =>
  record.steps.flatMap((s) => (s.name === "reflect" ? (s.notes ?? []) : []));

describe("git revert of membank's own update commit", () => {
  it("the next nightly writes what the logs say, as a full run does, and says the pages were changed back", async () => {
    const dir = tempWorkspace(dirs, "reverted");
    applyChange(dir, {
      "memory/2026-04-01.md":
        "book club tonight, good turnout\n\n## Retain\n- W @Mara: runs the Tuesday book club at the library.\n- O(c=0.6) @Mara: thinks the library ought to open on Sundays.\n",
    });
    await nightly(dir, nightAfter("2026-04-01"));
    applyChange(dir, {
      "memory/2026-04-02.md":
        "## Retain\n- W @Mara: picked Piranesi for May.\n- O(c=0.8) @Mara: really wants Sunday opening at the library.\n- W @Tomasz: joined the book club, knows Mara from work.\n",
    });
    await nightly(dir, nightAfter("2026-04-02"));
    git(dir, "revert", "--no-edit", "HEAD");

    // A note of the user's, outside the regions: their own text, no reason to re-read anything.
    appendFileSync(path.join(dir, "bank/entities/Mara.md"), "\nAsk her about the Sunday petition.\n");
    applyChange(dir, { "memory/2026-04-03.md": "## Retain\n- W @Tomasz: brings biscuits every week.\n" });
    const third = await nightly(dir, nightAfter("2026-04-03"));
    const said = reflectNotes(third).filter((n) => n.includes("changed back"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("bank/opinions.md");
    expect(said[0]).toContain("edit or delete its line in the log");
    expect(filesOf(dir, ["bank"]).get("bank/entities/Mara.md")).toContain("Ask her about the Sunday petition.");

    const copy = `${dir}-copy`;
    dirs.push(copy);
    cpSync(dir, copy, { recursive: true });
    await nightly(copy, nightAfter("2026-04-03"), { full: true });
    expect(compareFiles(filesOf(dir), filesOf(copy))).toEqual([]);
    const fresh = tempWorkspace(dirs, "fresh");
    applyChange(fresh, Object.fromEntries(filesOf(dir, ["memory"])));
    await nightly(fresh, nightAfter("2026-04-03"));
    const lived = filesOf(dir, ["bank"]);
    lived.set(
      "bank/entities/Mara.md",
      lived.get("bank/entities/Mara.md")!.replace("\nAsk her about the Sunday petition.\n", ""),
    );
    expect(compareFiles(lived, filesOf(fresh, ["bank"]))).toEqual([]);

    // Said once; a hand-written note is no revert: the next nights are incremental again.
    appendFileSync(path.join(dir, "bank/entities/Tomasz.md"), "\nBring oat biscuits next time.\n");
    applyChange(dir, { "memory/2026-04-04.md": "## Retain\n- W @Mara: the Sunday trial starts in June.\n" });
    const fourth = await nightly(dir, nightAfter("2026-04-04"));
    expect(reflectNotes(fourth).filter((n) => n.includes("changed back"))).toEqual([]);
    expect((await nightly(dir, nightAfter("2026-04-04"))).status).toBe("nothing");
  }, 120_000);
});
