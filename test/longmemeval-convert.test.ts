// bench/convert-longmemeval.mjs (issue 14): a LongMemEval file in its real format
// (test/fixtures/longmemeval/mini.json: sessions out of order as in the oracle file, two on
// one day, multi-line assistant turns, an abstention question, a question with no marked
// turn) becomes daily-log workspaces whose gold lines are the marked turns.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..");
const script = path.join(repoRoot, "bench/convert-longmemeval.mjs");
const fixture = path.join(repoRoot, "test/fixtures/longmemeval/mini.json");

interface Query {
  id: string;
  workspace: string;
  question: string;
  category: string;
  answer: string;
  asOf?: string;
  evidence: { path: string; line: number }[];
}

function convert(input: string, out: string) {
  const r = spawnSync(process.execPath, [script, "--in", input, "--out", out], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = await readFile(p, "utf8");
  }
  return out;
}

let tmp: string;
let queries: Query[];
const lineOf = async (q: Query, rel: string, line: number) =>
  (await readFile(path.join(tmp, "out", q.workspace, rel), "utf8")).split("\n")[line - 1];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-lme-"));
  const r = convert(fixture, path.join(tmp, "out"));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  queries = (await readFile(path.join(tmp, "out/queries.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Query);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("convert-longmemeval", () => {
  it("keeps the questions with marked evidence, leaves out abstention and unmarked ones", () => {
    expect(queries.map((q) => [q.id, q.category])).toEqual([
      ["7f3a91c2", "single-session-user"],
      ["b2e04d17", "multi-session"],
      ["0e9d44aa", "knowledge-update"],
    ]);
    // A numeric answer stays readable; the question's date becomes "today" for recall.
    expect(queries[1]?.answer).toBe("31");
    expect(queries[1]?.asOf).toBe("2023-10-01T20:30:00Z");
  });

  it("writes one log per session date, sessions in time order, one line per turn", async () => {
    const ws = path.join(tmp, "out/workspaces/7f3a91c2/memory");
    expect((await readdir(ws)).sort()).toEqual(["2023-05-02.md", "2023-05-20.md"]);
    const may20 = (await readFile(path.join(ws, "2023-05-20.md"), "utf8")).split("\n");
    // Two sessions on 20 May: the 08:55 one first although the input lists it last.
    expect(may20[0]).toBe("# 2023-05-20");
    expect(may20[2]).toMatch(/^## Session 2 \(08:55 on 20 May 2023\)/);
    expect(may20[7]).toMatch(/^## Session 3 \(14:03 on 20 May 2023\)/);
    // A multi-paragraph assistant turn is one line; session ids (answer_...) never reach the text.
    expect(may20[10]).toMatch(
      /^- \*\*Assistant\*\* \(14:03\): Congratulations on adopting Pepper! A few tips .* 3\. Go slow/,
    );
    expect(Object.values(await tree(path.join(tmp, "out/workspaces"))).join("\n")).not.toMatch(/answer_/);
    // The oracle-style haystack listed newest first is written oldest first, one file per day.
    expect((await readdir(path.join(tmp, "out/workspaces/b2e04d17/memory"))).sort()).toEqual([
      "2023-04-09.md",
      "2023-08-30.md",
      "2023-09-17.md",
    ]);
  });

  it("points each evidence entry at the marked turn's line", async () => {
    const [dog, races, key] = queries as [Query, Query, Query];
    expect(dog.evidence).toEqual([{ path: "memory/2023-05-20.md", line: 10 }]);
    expect(await lineOf(dog, "memory/2023-05-20.md", 10)).toMatch(
      /^- \*\*User\*\* \(14:03\): We finally adopted .*beagle mix/,
    );
    expect(races.evidence).toEqual([
      { path: "memory/2023-04-09.md", line: 5 },
      { path: "memory/2023-09-17.md", line: 5 },
    ]);
    expect(await lineOf(races, "memory/2023-04-09.md", 5)).toContain("first 10K");
    expect(await lineOf(races, "memory/2023-09-17.md", 5)).toContain("half marathon today, 21 km");
    // An assistant turn before the marked user turn shifts it to line 6.
    expect(key.evidence.map((e) => e.line)).toEqual([5, 6]);
    expect(await lineOf(key, "memory/2023-12-24.md", 6)).toContain("lockbox by the back door");
  });

  it("gives the same bytes on a second run into the same folder", async () => {
    const first = await tree(path.join(tmp, "out"));
    expect(convert(fixture, path.join(tmp, "out")).code).toBe(0);
    expect(await tree(path.join(tmp, "out"))).toEqual(first);
  });

  it("stops on bad input with one line naming the file and the instance, writing nothing", async () => {
    const raw = JSON.parse(await readFile(fixture, "utf8")) as Record<string, unknown>[];
    const badDate = path.join(tmp, "bad-date.json");
    const broken = structuredClone(raw);
    (broken[1] as { haystack_dates: string[] }).haystack_dates[2] = "April 9th";
    await writeFile(badDate, JSON.stringify(broken));
    let r = convert(badDate, path.join(tmp, "bad1"));
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${badDate}: instance 1 (question_id b2e04d17): haystack_dates[2] "April 9th"`);
    expect(await readFile(path.join(tmp, "bad1/queries.jsonl"), "utf8").catch(() => "none")).toBe("none");

    // A download cut short.
    const cut = path.join(tmp, "cut.json");
    await writeFile(cut, (await readFile(fixture, "utf8")).slice(0, 3000));
    r = convert(cut, path.join(tmp, "bad2"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${cut}: end of file: the JSON list is cut short`);

    // Not LongMemEval at all (a LoCoMo file is an object per conversation inside a list; this is an object).
    const other = path.join(tmp, "other.json");
    await writeFile(other, '{"conversation": {}}');
    r = convert(other, path.join(tmp, "bad3"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${other}: byte 0: is not a JSON list of LongMemEval instances`);

    // An --out folder holding something else is left alone.
    const mine = path.join(tmp, "my-notes");
    await mkdir(mine);
    await writeFile(path.join(mine, "todo.md"), "- buy milk\n");
    r = convert(fixture, mine);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not an earlier conversion");
    expect(await readdir(mine)).toEqual(["todo.md"]);
  });
});
