// A page the user renamed in git (`git mv Priya.md Priya-Shah.md`, committed, with a note of
// their own): the next nightlies file @Priya under the renamed page, never make Priya.md again
// beside it, keep the note, say so once, and equal what `--full` makes of the same workspace.
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyChange, compareFiles, filesOf, git, nightAfter, nightly, tempWorkspace } from "./support/differential.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const notesOf = (record: Awaited<ReturnType<typeof nightly>>) =>
  record.steps.flatMap((s) => (s.name === "reflect" ? (s.notes ?? []) : []));

describe("a page renamed by hand in git", () => {
  it("is followed: @Priya's new facts and opinions go to Priya-Shah.md, and no Priya.md comes back", async () => {
    const dir = tempWorkspace(dirs, "renamed");
    applyChange(dir, {
      "memory/2026-04-01.md":
        "Lunch w/ Priya, she's finally settled in up north.\n\n## Retain\n- W @Priya: moved to Leeds back in March.\n- O(c=0.7) @Priya: would rather take the train than drive, every time.\n",
    });
    await nightly(dir, nightAfter("2026-04-01"));
    git(dir, "mv", "bank/entities/Priya.md", "bank/entities/Priya-Shah.md");
    appendFileSync(path.join(dir, "bank/entities/Priya-Shah.md"), "\nWe met at the climbing wall, 2019 or so.\n");
    git(dir, "commit", "-q", "-am", "Priya's page under her full name");

    applyChange(dir, { "memory/2026-04-03.md": "## Retain\n- W @priya: starts at the central library on Monday.\n" });
    const third = await nightly(dir, nightAfter("2026-04-03"));
    expect(readdirSync(path.join(dir, "bank/entities"))).toEqual(["Priya-Shah.md"]);
    const page = readFileSync(path.join(dir, "bank/entities/Priya-Shah.md"), "utf8");
    expect(page).toContain("We met at the climbing wall, 2019 or so.");
    expect(page).toContain("memory/2026-04-03.md#L2");
    expect(page).toContain("would rather take the train than drive");
    expect(readFileSync(path.join(dir, "bank/opinions.md"), "utf8")).toContain("- entities: @Priya-Shah\n");
    expect(notesOf(third).filter((n) => n.includes("renamed from bank/entities/Priya.md"))).toHaveLength(1);
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");

    // Said once: the next night has nothing to say about it.
    applyChange(dir, { "memory/2026-04-04.md": "## Retain\n- W @Priya: library job is part-time, Tue to Fri.\n" });
    const fourth = await nightly(dir, nightAfter("2026-04-04"));
    expect(notesOf(fourth).filter((n) => n.includes("renamed"))).toEqual([]);
    expect(readdirSync(path.join(dir, "bank/entities"))).toEqual(["Priya-Shah.md"]);

    // `--full` on the same workspace follows the same rename: no byte changes.
    const copy = `${dir}-copy`;
    dirs.push(copy);
    cpSync(dir, copy, { recursive: true });
    await nightly(copy, nightAfter("2026-04-04"), { full: true });
    expect(compareFiles(filesOf(dir), filesOf(copy))).toEqual([]);
    const again = await nightly(dir, nightAfter("2026-04-04"));
    expect(again.status).toBe("nothing");
  }, 120_000);
});
