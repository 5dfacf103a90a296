// Reflect end to end on real git repositories: gradual confidence over days, incremental
// runs equal a full run, one commit of only reflect's files, idempotence.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { bankFiles, copyLog, EVOLVING, git, logNames, opinionsByEntity, workspaceFrom } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("reflect over days", () => {
  it("moves confidence gradually, day by day, and incremental runs equal one full run", async () => {
    const names = await logNames();
    // Day by day, as the nightly job would: each run reads only the new day's log.
    const daily = await workspaceFrom(EVOLVING, { logs: () => false });
    dirs.push(daily.dir);
    const history = new Map<string, number[]>();
    for (const name of names) {
      await copyLog(daily.dir, name);
      const report = await reflect(daily.ws, { since: name.slice(0, 10) });
      // The first run has no snapshot of older facts yet, so it reads everything.
      expect(report.mode).toBe(name === names[0] ? "full" : "incremental");
      expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
      for (const [entity, op] of await opinionsByEntity(daily.dir)) {
        history.set(entity, [...(history.get(entity) ?? []), op.confidence]);
      }
    }
    // Ana: supported on 01-06, 01-08 and 01-10 -> rises on each of those days, in small steps.
    const ana = history.get("Ana")!;
    expect(ana[0]).toBe(0.6);
    for (let i = 1; i < ana.length; i++) expect(ana[i]!).toBeGreaterThanOrEqual(ana[i - 1]!);
    expect(new Set(ana).size).toBeGreaterThanOrEqual(4); // it moved on three different days
    for (let i = 1; i < ana.length; i++) expect(ana[i]! - ana[i - 1]!).toBeLessThanOrEqual(0.12);
    expect(ana.at(-1)!).toBeLessThan(0.85);
    // Ben: contradicted on 01-08 and 01-10 -> falls twice, stays above a coin flip.
    const ben = history.get("Ben")!;
    expect(ben[0]).toBe(0.8);
    expect(new Set(ben).size).toBe(3);
    for (let i = 1; i < ben.length; i++) expect(ben[i]!).toBeLessThanOrEqual(ben[i - 1]!);
    expect(ben.at(-1)!).toBeLessThan(0.7);
    expect(ben.at(-1)!).toBeGreaterThan(0.5);
    // Cy: never mentioned again -> untouched.
    expect(new Set(history.get("Cy"))).toEqual(new Set([0.75]));

    const ops = await opinionsByEntity(daily.dir);
    const benOp = ops.get("Ben")!;
    expect(benOp.evidence.filter((e) => e.stance === "contradict").map((e) => e.date)).toEqual([
      "2026-01-08",
      "2026-01-10",
    ]);
    expect(benOp.previous).toBe([...new Set(ben)].at(-2)); // the value before the last change
    // A restating O fact is evidence, not a second opinion.
    expect([...ops.keys()].sort()).toEqual(["Ana", "Ben", "Cy"]);

    // One full run over all logs from scratch gives the same bytes.
    const full = await workspaceFrom(EVOLVING);
    dirs.push(full.dir);
    const report = await reflect(full.ws, { all: true });
    expect(report.mode).toBe("full");
    expect(await bankFiles(full.dir)).toEqual(await bankFiles(daily.dir));
    // And a full run on top of the day-by-day bank changes nothing.
    const again = await reflect(daily.ws, { all: true });
    expect(again.pagesWritten).toEqual([]);
    expect(again.commit).toBeUndefined();
  });

  it("makes one commit of only its own files, authored by membank, and a second run makes none", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING, { logs: (name) => name < "2026-01-08" });
    dirs.push(dir);
    const head = git(dir, "rev-parse", "HEAD").trim();
    const first = await reflect(ws);
    expect(first.commit).toBeDefined();
    expect(git(dir, "rev-list", "--count", `${head}..HEAD`).trim()).toBe("1");
    expect(git(dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>").trim()).toBe(
      "membank <membank@localhost>|membank <membank@localhost>",
    );
    const files = git(dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort();
    expect(files).toEqual(first.pagesWritten);
    expect(files).toContain("bank/opinions.md");
    expect(files).toContain("bank/entities/Ana.md");
    const message = git(dir, "log", "-1", "--format=%B");
    expect(message.split("\n")[0]).toMatch(
      /^reflect: 6 new facts, \d+ pages, (?:[1-9]\d* confidence changes?, )?3 new opinions$/,
    );
    expect(message).toContain(
      "Facts added:\n- 2026-01-05 O @Ana: Prefers tea over coffee in the morning. (memory/2026-01-05.md#L6)",
    );
    expect(message).toContain("Pages changed:\n- bank/entities/Ana.md");
    expect(git(dir, "status", "--porcelain").trim()).toBe("");

    const second = await reflect(ws);
    expect(second.pagesWritten).toEqual([]);
    expect(second.commit).toBeUndefined();
    expect(git(dir, "rev-list", "--count", `${head}..HEAD`).trim()).toBe("1");

    // The next days arrive: the commit body lists each confidence change.
    for (const name of ["2026-01-08.md", "2026-01-10.md"]) await copyLog(dir, name);
    const third = await reflect(ws, { since: "2026-01-08" });
    const body = git(dir, "log", "-1", "--format=%B");
    const ben = third.opinionsChanged.find((c) => c.entities[0] === "Ben")!;
    expect(ben.from).toBe(0.8);
    expect(body).toContain(`- @Ben: The bridge project ships in June. 0.80 -> ${ben.to.toFixed(2)}`);
    expect(body).toMatch(/- @Ana: Prefers tea over coffee in the morning\. 0\.\d\d -> 0\.\d\d/);
    expect(body).toContain(
      "- 2026-01-10 O @Ben: The bridge project no longer ships in June. (memory/2026-01-10.md#L5)",
    );
    expect(git(dir, "show", "--name-only", "--format=", "HEAD").trim().split("\n").sort()).toEqual(third.pagesWritten);
    // The user's new logs are theirs to commit: reflect never adds them.
    expect(git(dir, "status", "--porcelain").trim().split("\n").sort()).toEqual([
      "?? memory/2026-01-08.md",
      "?? memory/2026-01-10.md",
    ]);
  });

  it("reports bad Retain lines with file and line, and skips them", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    const report = await reflect(ws, { commit: false });
    expect(report.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual([
      "memory/2026-01-10.md:6",
      "memory/2026-01-10.md:7",
    ]);
    expect(report.commitsOff).toBe("--no-commit");
    const bank = [...(await bankFiles(dir)).values()].join("\n");
    expect(bank).not.toContain("unknown type letter");
    expect(bank).not.toContain("confidence out of range");
    // Pages were written, nothing committed.
    expect(git(dir, "status", "--porcelain")).toContain("?? bank/");
  });

  it("links every fact to its source line, relative to the page", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING);
    dirs.push(dir);
    await reflect(ws);
    const ana = await readFile(path.join(dir, "bank/entities/Ana.md"), "utf8");
    expect(ana).toContain("- 2026-01-05 — Lives in Lisbon. ([memory/2026-01-05.md#L9](../../memory/2026-01-05.md#L9))");
    expect(ana).toMatch(/- \[Ben\]\(Ben\.md\) — 1 shared fact/);
    const world = await readFile(path.join(dir, "bank/world.md"), "utf8");
    expect(world).toContain("## January 2026");
    expect(world).toContain(
      "- 2026-01-12 — @Cy: Moved to the Porto office. ([memory/2026-01-12.md#L5](../memory/2026-01-12.md#L5))",
    );
  });
});
