// Reflect and people: edits outside and inside managed regions, a hand-changed
// confidence, a dirty working tree, dry runs, workspaces without git, aliases.
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { writeOwnedFiles } from "../src/workspace/owned.js";
import { copyLog, EVOLVING, git, opinionsByEntity, workspaceFrom } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function reflected(opts: { logs?: (name: string) => boolean } = {}) {
  const w = await workspaceFrom(EVOLVING, opts);
  dirs.push(w.dir);
  await reflect(w.ws);
  return w;
}

const read = (dir: string, rel: string) => readFile(path.join(dir, rel), "utf8");
const write = (dir: string, rel: string, text: string) => writeFile(path.join(dir, rel), text);

describe("human edits", () => {
  it("keeps text outside the markers, keeps an edit inside a region and reports it as a conflict", async () => {
    const { dir, ws } = await reflected({ logs: (n) => n < "2026-01-12" });
    // Outside: a note under "## Notes". Inside: a corrected world fact.
    const ana = await read(dir, "bank/entities/Ana.md");
    await write(
      dir,
      "bank/entities/Ana.md",
      ana.replace("## Notes\n", "## Notes\n\nAna is vegetarian (told me in person).\n"),
    );
    const world = await read(dir, "bank/world.md");
    const editedWorld = world.replace("Lives in Lisbon.", "Lives in Lisbon (Alfama).");
    expect(editedWorld).not.toBe(world);
    await write(dir, "bank/world.md", editedWorld);
    git(dir, "commit", "-q", "-am", "user: notes");

    await copyLog(dir, "2026-01-12.md"); // new facts for Ana, Ben and Cy, in January (the edited region)
    const report = await reflect(ws);
    expect(report.conflicts).toEqual([
      { path: "bank/world.md", region: "2026-01", reason: "edited by hand since membank wrote it; kept" },
    ]);
    const anaAfter = await read(dir, "bank/entities/Ana.md");
    expect(anaAfter).toContain("## Notes\n\nAna is vegetarian (told me in person).\n");
    expect(anaAfter).toContain("Lunch together after the design review.");
    // The edited region is untouched: the human text stays, the new January fact is not forced in.
    const worldAfter = await read(dir, "bank/world.md");
    expect(worldAfter).toBe(editedWorld);
    expect(report.pagesWritten).not.toContain("bank/world.md");
    expect(git(dir, "log", "-1", "--format=%B")).toContain(
      "Conflicts (human edits kept, not overwritten):\n- bank/world.md [2026-01]: edited by hand since membank wrote it; kept",
    );

    // Handing the region back (deleting its sha) lets membank write it again.
    await write(dir, "bank/world.md", worldAfter.replace(/(<!-- membank:end 2026-01) sha=[0-9a-f]+ -->/, "$1 -->"));
    const back = await reflect(ws);
    expect(back.conflicts).toEqual([]);
    expect(await read(dir, "bank/world.md")).toContain("Moved to the Porto office.");
  });

  it("starts the next update from a hand-changed confidence", async () => {
    const { dir, ws } = await reflected({ logs: (n) => n < "2026-01-08" });
    const before = (await opinionsByEntity(dir)).get("Ben")!;
    expect(before.confidence).toBe(0.8);
    const text = await read(dir, "bank/opinions.md");
    await write(dir, "bank/opinions.md", text.replace("- confidence: 0.80\n", "- confidence: 0.5\n"));
    git(dir, "commit", "-q", "-am", "user: I doubt the June date");

    // No new facts: the hand edit is taken as the state (written in canonical form), no conflict.
    const adopt = await reflect(ws);
    expect(adopt.conflicts).toEqual([]);
    expect(adopt.adoptedEdits).toEqual([before.id]);
    expect((await opinionsByEntity(dir)).get("Ben")!.confidence).toBe(0.5);
    expect(await read(dir, "bank/entities/Ben.md")).toContain("- 0.50 — The bridge project ships in June.");

    // New contradicting evidence moves it down from 0.50, not from 0.80.
    await copyLog(dir, "2026-01-08.md");
    const report = await reflect(ws, { since: "2026-01-08" });
    const change = report.opinionsChanged.find((c) => c.id === before.id)!;
    expect(change.from).toBe(0.5);
    expect(change.to).toBeLessThan(0.5);
    expect(change.to).toBeGreaterThan(0.4);
    const after = (await opinionsByEntity(dir)).get("Ben")!;
    expect(after.previous).toBe(0.5);
    expect(after.evidence.map((e) => e.stance)).toEqual(["support", "contradict"]);
    expect(git(dir, "log", "-1", "--format=%B")).toContain(
      `The bridge project ships in June. 0.50 -> ${change.to.toFixed(2)}`,
    );
  });

  it("a typo fixed in a log line that was evidence: the same evidence, re-linked, the confidence not moved again", async () => {
    const typo = (text: string) =>
      text.replace(
        "Prefers tea over coffee in the morning, every day",
        "Prefers tea ovr cofee in the morning, evry day",
      );
    const { dir, ws } = await reflected();
    const fresh = await read(dir, "bank/opinions.md");
    const log = "memory/2026-01-10.md";
    const original = await read(dir, log);
    await write(dir, log, typo(original));
    await reflect(ws, { since: "2026-01-10" });
    const withTypo = (await opinionsByEntity(dir)).get("Ana")!;
    expect(withTypo.evidence.some((e) => e.content?.includes("ovr cofee"))).toBe(true);

    // Fixed the next day: one entry for the line, its move as recorded, nothing marked gone.
    await write(dir, log, original);
    const report = await reflect(ws, { since: "2026-01-10" });
    expect(report.opinionsChanged).toEqual([]);
    const fixed = (await opinionsByEntity(dir)).get("Ana")!;
    expect(fixed.confidence).toBe(withTypo.confidence);
    expect(fixed.evidence).toHaveLength(withTypo.evidence.length);
    expect(fixed.evidence.some((e) => e.gone)).toBe(false);
    // What a bank built from the logs as they are now says.
    expect(await read(dir, "bank/opinions.md")).toBe(fresh);
  });

  it("an edit that turns an evidence line around is new evidence, and the old entry is kept, marked", async () => {
    const { dir, ws } = await reflected();
    const log = "memory/2026-01-10.md";
    const before = (await opinionsByEntity(dir)).get("Ana")!;
    const text = await read(dir, log);
    await write(dir, log, text.replace("Prefers tea over coffee", "No longer prefers tea over coffee"));
    await reflect(ws, { since: "2026-01-10" });
    const after = (await opinionsByEntity(dir)).get("Ana")!;
    expect(after.evidence).toHaveLength(before.evidence.length + 1);
    expect(after.evidence.filter((e) => e.gone).map((e) => e.source.path)).toEqual([log]);
    expect(after.evidence.at(-1)?.stance).toBe("contradict");
    expect(after.confidence).toBeLessThan(before.confidence);
  });

  it("keeps an opinion region it cannot read, reports it, and never re-creates the opinion", async () => {
    const { dir, ws } = await reflected({ logs: (n) => n < "2026-01-08" });
    const text = await read(dir, "bank/opinions.md");
    await write(dir, "bank/opinions.md", text.replace("- confidence: 0.80\n", "- confidence: pretty sure\n"));
    const report = await reflect(ws);
    expect(report.conflicts).toHaveLength(1);
    expect(report.conflicts[0]!.path).toBe("bank/opinions.md");
    expect(report.conflicts[0]!.reason).toMatch(/confidence must be a number/);
    const after = await read(dir, "bank/opinions.md");
    expect(after).toContain("- confidence: pretty sure\n");
    expect(after.match(/The bridge project ships in June/g)).toHaveLength(2); // heading + its one evidence line
  });
});

describe("git safety", () => {
  it("commits only its own files in a dirty working tree and leaves the user's changes as they were", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    await appendFile(path.join(dir, "MEMORY.md"), "- unstaged edit by the user\n");
    await write(dir, "notes.txt", "staged by the user\n");
    git(dir, "add", "notes.txt");
    await write(dir, "scratch.md", "untracked\n");
    const statusBefore = git(dir, "status", "--porcelain");

    const report = await reflect(ws);
    expect(report.commit).toBeDefined();
    const files = git(dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort();
    expect(files).toEqual(report.pagesWritten);
    expect(files.every((f) => f.startsWith("bank/"))).toBe(true);
    expect(git(dir, "status", "--porcelain")).toBe(statusBefore);
    expect(git(dir, "diff", "--cached", "--name-only").trim()).toBe("notes.txt");
  });

  it("commits the pages an interrupted run wrote but did not commit, and nothing else", async () => {
    const { dir, ws } = await reflected({ logs: (n) => n < "2026-01-12" });
    // As if a run died between writing its pages and committing them: its pages are on disk
    // and recorded in the pending journal (path, hash before, hash written), as reflect does.
    await copyLog(dir, "2026-01-12.md");
    const crashed = await reflect(ws, { commit: false });
    expect(crashed.pagesWritten.length).toBeGreaterThan(0);
    const pages = await Promise.all(crashed.pagesWritten.map(async (p) => ({ path: p, content: await read(dir, p) })));
    git(dir, "checkout", "-q", "--", "bank");
    git(dir, "clean", "-qfd", "--", "bank");
    await writeOwnedFiles(ws, pages, { record: true });
    // A tampered journal naming files membank never writes is ignored.
    await appendFile(
      path.join(dir, ".memory/pending-writes.jsonl"),
      `${JSON.stringify({ path: "MEMORY.md", base: null, sha: "x" })}\n${JSON.stringify({ path: "bank/../x.md", base: null, sha: "y" })}\n`,
    );
    await appendFile(path.join(dir, "MEMORY.md"), "- the user's own unstaged line\n");

    const report = await reflect(ws);
    expect(report.pagesWritten).toEqual([]);
    expect(report.warnings[0]).toMatch(/^committed \d+ file\(s\) an interrupted run wrote: bank\//);
    expect(git(dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(
      crashed.pagesWritten,
    );
    expect(git(dir, "log", "-1", "--format=%an <%ae>")).toBe("membank <membank@localhost>\n");
    // MEMORY.md and the new log stay the user's, unstaged.
    expect(git(dir, "status", "--porcelain").trimEnd().split("\n").sort()).toEqual([
      " M MEMORY.md",
      "?? memory/2026-01-12.md",
    ]);
    expect(existsSync(path.join(dir, ".memory/pending-writes.jsonl"))).toBe(false);
  });

  it("--dry-run prints the diff and writes nothing", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    const head = git(dir, "rev-parse", "HEAD");
    const report = await reflect(ws, { dryRun: true });
    expect(report.diff).toContain("+++ b/bank/opinions.md");
    expect(report.diff).toContain("+### The bridge project ships in June.");
    expect(report.pagesWritten).toContain("bank/entities/Ana.md");
    expect(existsSync(path.join(dir, "bank"))).toBe(false);
    expect(existsSync(path.join(dir, ".memory"))).toBe(false);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);

    // On an existing bank the diff shows the change in place.
    await reflect(ws, { since: "2026-01-01" });
    await mkdir(path.join(dir, "memory"), { recursive: true });
    await write(
      dir,
      "memory/2026-01-20.md",
      "# 2026-01-20\n\n## Retain\n- W @Cy: Started on the bridge parser rewrite.\n",
    );
    const dry = await reflect(ws, { dryRun: true, since: "2026-01-20" });
    expect(dry.diff).toContain("--- a/bank/entities/Cy.md\n+++ b/bank/entities/Cy.md");
    expect(dry.diff).toContain("+- 2026-01-20 — Started on the bridge parser rewrite.");
    expect(await read(dir, "bank/entities/Cy.md")).not.toContain("parser rewrite");
  });

  it("writes pages but says commits are off outside a repository; --git-init makes one", async () => {
    const plain = await workspaceFrom(EVOLVING, { repo: false });
    dirs.push(plain.dir);
    const off = await reflect(plain.ws);
    expect(off.commit).toBeUndefined();
    expect(off.commitsOff).toMatch(/not a git repository/);
    expect(existsSync(path.join(plain.dir, "bank/opinions.md"))).toBe(true);
    expect(existsSync(path.join(plain.dir, ".git"))).toBe(false);

    const init = await workspaceFrom(EVOLVING, { repo: false });
    dirs.push(init.dir);
    const made = await reflect(init.ws, { gitInit: true });
    expect(made.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(init.dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(
      made.pagesWritten,
    );
  });
});

describe("aliases", () => {
  it("files @Benji under Ben when Ben's page lists it as an alias", async () => {
    const { dir, ws } = await reflected();
    const ben = await read(dir, "bank/entities/Ben.md");
    await write(dir, "bank/entities/Ben.md", ben.replace("aliases: []", "aliases: [Benji, '@B-man']"));
    await write(
      dir,
      "memory/2026-01-21.md",
      "# 2026-01-21\n\n## Retain\n- W @Benji: Took over the bridge budget.\n- B @B-man: I sent @B-man the budget sheet.\n",
    );
    const report = await reflect(ws);
    expect(existsSync(path.join(dir, "bank/entities/Benji.md"))).toBe(false);
    expect(existsSync(path.join(dir, "bank/entities/B-man.md"))).toBe(false);
    const after = await read(dir, "bank/entities/Ben.md");
    expect(after).toContain("Took over the bridge budget.");
    expect(after).toContain("I sent @B-man the budget sheet.");
    expect(after.startsWith("---\naliases: [Benji, '@B-man']\n---\n")).toBe(true);
    expect(report.pagesWritten).toContain("bank/entities/Ben.md");
  });
});
