/**
 * Prose-only fixtures (fixtures/household, fixtures/nightshift): the fixture copied into a git
 * repository and run through the built CLI's nightly with no model, and its natural questions
 * asked through `openMembank().recall`, each expecting a `path#Lline` in the top 3.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { type Membank, openMembank } from "../src/membank.js";
import { git, membank, repoRoot, workspaceFrom } from "./reflect-support.js";

export interface FixtureQuestion {
  q: string;
  /** `path#Lline`: a result whose `path#Lstart-Lend` covers that line answers the question. */
  expect: string[];
  /** Why recall still misses it: run as an expected failure, so a fix shows up as this test failing. */
  knownMiss?: string;
  /** "Today" for the question's relative time words ("last Wednesday"), YYYY-MM-DD. */
  asOf?: string;
}

export async function fixtureQuestions(file: string): Promise<FixtureQuestion[]> {
  return JSON.parse(await readFile(path.join(repoRoot, "fixtures", file), "utf8")) as FixtureQuestion[];
}

export interface NightlyFixture {
  dir: string;
  /** Entity page names (file names without `.md`), sorted. */
  pages: string[];
  mb: Membank;
  page(name: string): Promise<string>;
  /** What the nightly printed (stdout, then stderr). */
  output: string;
}

/** The fixture as a fresh git workspace after one `membank run nightly` (no model). */
export async function fixtureAfterNightly(fixture: string): Promise<NightlyFixture> {
  const { dir } = await workspaceFrom(path.join(repoRoot, "fixtures", fixture), { repo: false });
  await writeFile(path.join(dir, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: my notes");
  const run = await membank("run", "nightly", "--workspace", dir);
  expect(run.code, run.stderr).toBe(0);
  const pages = (await readdir(path.join(dir, "bank/entities"))).map((f) => f.replace(/\.md$/u, "")).sort();
  const mb = await openMembank(dir);
  return {
    dir,
    pages,
    mb,
    page: (name) => readFile(path.join(dir, "bank/entities", `${name}.md`), "utf8"),
    output: run.stdout + run.stderr,
  };
}

const covers = (source: string, want: string) => {
  const [p, l] = want.split("#L");
  const m = /^(.*)#L(\d+)-L(\d+)$/u.exec(source);
  return !!m && m[1] === p && Number(m[2]) <= Number(l) && Number(l) <= Number(m[3]);
};

/** One test per question (inside a describe): the expected line in recall's top 3; known misses as expected failures. */
export function recallTop3(questions: FixtureQuestion[], membank: () => Membank): void {
  const check = async ({ q, expect: want, asOf }: FixtureQuestion) => {
    const res = await membank().recall(q, asOf ? { asOf: new Date(`${asOf}T12:00:00Z`) } : {});
    const top = res.results.slice(0, 3).map((r) => r.source);
    expect(
      top.some((s) => want.some((w) => covers(s, w))),
      `${want.join(" or ")} in top 3 of ${top.join(", ")}`,
    ).toBe(true);
  };
  it.each(questions.filter((q) => !q.knownMiss))("$q", check);
  it.fails.each(questions.filter((q) => q.knownMiss))("still missed: $q ($knownMiss)", check);
}
