// End to end on fixtures/household: two months of prose-only logs (no `## Retain` anywhere)
// written the way people write (headings, lists, quotes, code fences, links, emoji, typos),
// one nightly run through the built CLI with no model, then natural questions whose words
// differ from the log's. Checks that the people get pages citing their lines, that
// surnames, streets and sentence openers get none, and that recall puts the line that
// answers each question in the top 3.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Membank, openMembank } from "../src/membank.js";
import { git, membank, repoRoot, workspaceFrom } from "./reflect-support.js";

interface Question {
  q: string;
  /** `path#Lline`: a result whose `path#Lstart-Lend` covers that line answers the question. */
  expect: string[];
  /** Why recall still misses it: run as an expected failure, so a fix shows up as this test failing. */
  knownMiss?: string;
}
const questions = JSON.parse(
  await readFile(path.join(repoRoot, "fixtures/household-questions.json"), "utf8"),
) as Question[];

let dir: string;
let pages: string[];
let mb: Membank;
const page = (name: string) => readFile(path.join(dir, "bank/entities", `${name}.md`), "utf8");

beforeAll(async () => {
  ({ dir } = await workspaceFrom(path.join(repoRoot, "fixtures/household"), { repo: false }));
  await writeFile(path.join(dir, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: my notes");
  const run = await membank("run", "nightly", "--workspace", dir);
  expect(run.code, run.stderr).toBe(0);
  pages = (await readdir(path.join(dir, "bank/entities"))).map((f) => f.replace(/\.md$/u, "")).sort();
  mb = await openMembank(dir);
}, 60_000);

afterAll(async () => {
  await mb?.close();
});

describe("entity pages from prose alone", () => {
  it("the people and places the logs keep naming get pages", () => {
    for (const name of ["Ify", "Jonas", "Biscuit", "Northwind", "Brightwell"]) expect(pages).toContain(name);
  });

  it("a page lists the lines that name it, with their path#Lline", async () => {
    const ify = await page("Ify");
    for (const src of ["memory/2026-01-05.md#L5", "memory/2026-02-02.md#L3", "memory/2026-03-10.md#L3"])
      expect(ify).toContain(`[${src}](../../${src})`);
  });

  it("no page for headings' words, list openers or text in code", () => {
    for (const junk of ["Vet", "Other", "Prep", "Quiet", "Valentine", "Petplan", "Mon", "Thu", "Sat"])
      expect(pages).not.toContain(junk);
  });

  it("a full name opening a clause is its first name's page, a title or role none", async () => {
    // "(Rosa Lind)", "today: Rosa Lind", "Rosa said", "reports to Rosa"; "Uncle Tunde"; "Senior Analyst".
    expect(pages).toEqual(expect.arrayContaining(["Rosa", "Tunde"]));
    for (const junk of ["Lind", "Uncle", "Senior", "Analyst"]) expect(pages).not.toContain(junk);
    const rosa = await page("Rosa");
    for (const src of ["memory/2026-01-29.md#L3", "memory/2026-02-19.md#L3", "memory/2026-03-02.md#L7"])
      expect(rosa).toContain(`[${src}](../../${src})`);
  });
});

describe("recall finds the line for natural questions (no model)", () => {
  const covers = (source: string, want: string) => {
    const [p, l] = want.split("#L");
    const m = /^(.*)#L(\d+)-L(\d+)$/u.exec(source);
    return !!m && m[1] === p && Number(m[2]) <= Number(l) && Number(l) <= Number(m[3]);
  };
  const check = async ({ q, expect: want }: Question) => {
    const res = await mb.recall(q);
    const top = res.results.slice(0, 3).map((r) => r.source);
    expect(
      top.some((s) => want.some((w) => covers(s, w))),
      `${want.join(" or ")} in top 3 of ${top.join(", ")}`,
    ).toBe(true);
  };
  it.each(questions.filter((q) => !q.knownMiss))("$q", check);
  it.fails.each(questions.filter((q) => q.knownMiss))("still missed: $q ($knownMiss)", check);
});
