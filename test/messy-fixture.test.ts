// fixtures/messy: a person who writes the way people do (a CRLF file with a BOM, `*`/`+`/numbered
// bullets, emoji and Dutch, a prose-only day full of capitalised sentence starts, a code fence
// holding "## Retain", tabs, a 4 KB line, wrapped and nested items, "## Retain:", and beliefs
// given up in other words: "was a mistake", "the wrong call", "a bad idea", a switch "from
// Datadog to Grafana Cloud"), run through the CLI.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = MEMBANK_BIN;
const env = { ...process.env, EDITOR: "vi", PAGER: "less", GIT_EDITOR: "vi", LANG: "C", GIT_ASKPASS: "/bin/true" };

let tmp: string;
let ws: string;
let first: { status: number | null; stdout: string; stderr: string };

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, env, encoding: "utf8" });
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args, "--workspace", ws], { env, encoding: "utf8" });

async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = createHash("sha256")
      .update(await readFile(p))
      .digest("hex");
  }
  return out;
}

let logsBefore: Record<string, string>;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-messy-"));
  ws = path.join(tmp, "ws");
  await cp(path.join(ROOT, "fixtures/messy"), ws, { recursive: true });
  await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "my notes");
  logsBefore = await hashTree(path.join(ws, "memory"));
  first = cli("run", "nightly");
}, 120_000);
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface FactOut {
  kind: string;
  entities: string[];
  content: string;
  confidence?: number;
  source: { path: string; line: number };
}

describe("fixtures/messy: nothing written is dropped or garbled", () => {
  it("every fact line becomes one fact with its text, and no line is a diagnostic", () => {
    expect(first.status, first.stderr).toBe(0);
    const res = cli("facts", "--json");
    const out = JSON.parse(res.stdout) as { facts: FactOut[]; diagnostics: unknown[] };
    expect(out.diagnostics).toEqual([]);
    const got = out.facts.map(
      (f) => `${f.source.path}:${f.source.line} ${f.kind} ${f.entities.join(",")} ${f.content}`,
    );
    const spike = "the consumer lag graphs looked fine until the rebalance, then every partition stalled for a minute";
    expect(got).toEqual([
      "memory/2026-04-01.md:6 opinion Ruth Kafka is the right call for the event bus.",
      "memory/2026-04-01.md:7 world Okko Back from parental leave since Monday 🎉",
      "memory/2026-04-01.md:8 experience  Wrote the first draft of the event bus RFC (in Dutch, will translate).",
      "memory/2026-04-01.md:9 world Lena Wil het Berlijnse kantoor in mei openen — wants the Berlin office open in May.",
      "memory/2026-04-01.md:10 opinion Lena The Berlin office move is a good idea for hiring.",
      "memory/2026-04-01.md:11 opinion Dries Datadog is worth the money for monitoring.",
      "memory/2026-04-03.md:11 world Okko Runs the\tKafka spike this week.",
      `memory/2026-04-03.md:12 observation  Spike notes so far — ${Array(45).fill(spike).join(" ")}.`,
      "memory/2026-04-03.md:13 opinion Dries Thinks the budget for a managed Kafka is too high for a team our size.",
      "memory/2026-04-03.md:15 world Lena Asked for a Berlin headcount plan",
      "memory/2026-04-03.md:16 world Okko will help with the Berlin headcount plan.",
      "memory/2026-04-07.md:6 opinion Ruth Kafka was a mistake for the event bus; Postgres LISTEN/NOTIFY would have done.",
      "memory/2026-04-07.md:7 opinion Lena The Berlin office move is a bad idea for hiring after all, the market there is saturated.",
      "memory/2026-04-07.md:8 experience  Rolled the spike back at 03:10 😴",
      "memory/2026-04-07.md:9 world okko Wrote the outage timeline.",
      "memory/2026-04-09.md:4 opinion Ruth Kafka was the wrong call for the event bus, we are moving to Postgres.",
      "memory/2026-04-09.md:5 world Dries Approved the Postgres plan.",
      "memory/2026-04-09.md:6 world Dries Moved our monitoring from Datadog to Grafana Cloud, Datadog got too pricey.",
    ]);
  });

  it("never rewrites a log: the CRLF file with a BOM keeps its bytes", async () => {
    expect(await hashTree(path.join(ws, "memory"))).toEqual(logsBefore);
  });
});

describe("fixtures/messy: the bank says true things", () => {
  it("one page per person, none for sentence starts of the prose day or a fenced example", async () => {
    const pages = (await readdir(path.join(ws, "bank/entities"))).sort();
    expect(pages).toEqual(["Dries.md", "Lena.md", "Okko.md", "Ruth.md"]);
  });

  async function opinion(title: string): Promise<{ confidence: number; status: string; path: number[] }> {
    const text = await readFile(path.join(ws, "bank/opinions.md"), "utf8");
    const block = text.split("\n### ").find((b) => b.startsWith(title));
    expect(block, title).toBeDefined();
    return {
      confidence: Number(/- confidence: ([0-9.]+)/.exec(block!)![1]),
      status: /- status: (\S+)/.exec(block!)![1]!,
      // "path: 0.80 (2026-04-01) -> 0.68 (04-07) -> ...": the value after each day's evidence.
      path: [.../- path: (.*)/.exec(block!)![1]!.matchAll(/([0-9.]+) \(/g)].map((m) => Number(m[1])),
    };
  }

  it('"was a mistake" and then "the wrong call" weaken "Kafka is the right call", never strengthen it', async () => {
    const kafka = await opinion("Kafka is the right call for the event bus.");
    // Each day's evidence moves it down: "a mistake" (no c=) included.
    expect(kafka.path).toHaveLength(3);
    expect(kafka.path[1]).toBeLessThan(kafka.path[0]!);
    expect(kafka.path[2]).toBeLessThan(kafka.path[1]!);
    expect(kafka.confidence).toBeLessThan(0.7);
    expect(["weakened", "reversed", "abandoned"]).toContain(kafka.status);
  });

  it('"a bad idea after all" lowers "a good idea"', async () => {
    const berlin = await opinion("The Berlin office move is a good idea for hiring.");
    expect(berlin.confidence).toBeLessThan(0.7);
    expect(berlin.status).not.toBe("strengthened");
  });

  it('a switch "from Datadog to Grafana Cloud" lowers "Datadog is worth the money"', async () => {
    const datadog = await opinion("Datadog is worth the money for monitoring.");
    expect(datadog.path).toHaveLength(2);
    expect(datadog.path[1]).toBeLessThan(datadog.path[0]!);
  });

  it("a second nightly changes no byte and makes no commit", async () => {
    const head = git("rev-parse", "HEAD");
    const bank = await hashTree(path.join(ws, "bank"));
    const again = cli("run", "nightly");
    expect(again.status, again.stderr).toBe(3);
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(await hashTree(path.join(ws, "bank"))).toEqual(bank);
    expect(git("status", "--porcelain")).toBe("");
  });
});
