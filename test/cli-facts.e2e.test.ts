// End to end: the BUILT CLI (`pnpm test` builds first) parses a copy of bank.example, and its
// JSON must match fixtures/example-expectations.json, which was written by hand from the logs.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;

interface JsonFact {
  id: string;
  kind: string;
  entities: string[];
  confidence?: number;
  content: string;
  date: string;
  validFrom?: string;
  validTo?: string;
  source: { path: string; line: number };
}
interface JsonDiagnostic {
  path: string;
  line: number;
  reason: string;
}
interface ExpectedFact {
  path: string;
  line: number;
  kind: string;
  entities: string[];
  contentIncludes: string;
  date: string;
  confidence?: number;
  validFrom?: string;
  validTo?: string;
  validFromBefore?: string;
}
interface Expectations {
  memoryFiles: number;
  logsWithoutRetain: string[];
  counts: { facts: number; diagnostics: number };
  diagnostics: { path: string; line: number; reason: string; reasonPattern: string; text: string }[];
  facts: ExpectedFact[];
  tokens: { token: string; path: string; line: number }[];
}

const expectations = JSON.parse(
  await readFile(path.join(repoRoot, "fixtures/example-expectations.json"), "utf8"),
) as Expectations;

let ws: string;
let facts: JsonFact[];
let diagnostics: JsonDiagnostic[];
const at = (p: string, line: number) => `${p}:${line}`;

beforeAll(async () => {
  // A copy, so nothing the CLI might write can touch the example itself.
  ws = await mkdtemp(path.join(tmpdir(), "membank-facts-e2e-"));
  await cp(path.join(repoRoot, "bank.example"), ws, { recursive: true });
  const { stdout } = await run(process.execPath, [cli, "facts", "--workspace", ws, "--json"]);
  ({ facts, diagnostics } = JSON.parse(stdout) as { facts: JsonFact[]; diagnostics: JsonDiagnostic[] });
});
afterAll(async () => {
  await rm(ws, { recursive: true, force: true });
});

/** Every list-item line inside a Retain section of a file, read straight from the Markdown. */
function retainLines(text: string): number[] {
  const out: number[] = [];
  let inRetain = false;
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) inRetain = heading[1]!.toLowerCase() === "retain";
    else if (inRetain && /^[-*+](\s|$)/.test(line)) out.push(i + 1);
  });
  return out;
}

describe("membank facts --json on bank.example", () => {
  it("has the expected number of facts and diagnostics", () => {
    expect(diagnostics).toHaveLength(expectations.counts.diagnostics);
    expect(facts).toHaveLength(expectations.counts.facts);
  });

  it("reports every malformed Retain line as a diagnostic on its line with the right reason", () => {
    for (const want of expectations.diagnostics) {
      const got = diagnostics.filter((d) => d.path === want.path && d.line === want.line);
      expect(got, `diagnostic at ${at(want.path, want.line)} (${want.text})`).toHaveLength(1);
      expect(got[0]!.reason, `reason at ${at(want.path, want.line)}`).toMatch(new RegExp(want.reasonPattern, "i"));
      expect(facts.some((f) => f.source.path === want.path && f.source.line === want.line)).toBe(false);
    }
  });

  it("gives the known facts their kind, entities, confidence, date, validity and line", () => {
    // Soft assertions: one run lists every mismatching fact, not only the first.
    for (const want of expectations.facts) {
      const where = at(want.path, want.line);
      const got = facts.filter((f) => f.source.path === want.path && f.source.line === want.line);
      expect.soft(got, `fact at ${where}`).toHaveLength(1);
      if (got.length !== 1) continue;
      const fact = got[0]!;
      expect.soft(fact.kind, `kind at ${where}`).toBe(want.kind);
      expect.soft(fact.entities, `entities at ${where}`).toEqual(want.entities);
      expect.soft(fact.date, `date at ${where}`).toBe(want.date);
      expect.soft(fact.content, `content at ${where}`).toContain(want.contentIncludes);
      if (want.confidence !== undefined) expect.soft(fact.confidence, `confidence at ${where}`).toBe(want.confidence);
      if (want.validFrom !== undefined) expect.soft(fact.validFrom, `validFrom at ${where}`).toBe(want.validFrom);
      if (want.validTo !== undefined) expect.soft(fact.validTo, `validTo at ${where}`).toBe(want.validTo);
      if (want.validFromBefore !== undefined) {
        expect.soft(fact.validFrom, `validFrom at ${where}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect
          .soft(fact.validFrom! < want.validFromBefore, `validFrom at ${where} before ${want.validFromBefore}`)
          .toBe(true);
      }
    }
  });

  it("accounts for every Retain line exactly once, as a fact or a diagnostic", async () => {
    const files = (await readdir(path.join(ws, "memory"))).filter((f) => f.endsWith(".md")).sort();
    expect(files).toHaveLength(expectations.memoryFiles);
    const seen = new Map<string, number>();
    for (const f of facts)
      seen.set(at(f.source.path, f.source.line), (seen.get(at(f.source.path, f.source.line)) ?? 0) + 1);
    for (const d of diagnostics) seen.set(at(d.path, d.line), (seen.get(at(d.path, d.line)) ?? 0) + 1);
    const expected: string[] = [];
    for (const name of files) {
      const rel = `memory/${name}`;
      const lines = retainLines(await readFile(path.join(ws, rel), "utf8"));
      if (expectations.logsWithoutRetain.includes(rel)) expect(lines, rel).toEqual([]);
      for (const line of lines) expected.push(at(rel, line));
    }
    expect([...seen.keys()].sort()).toEqual(expected.sort());
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it("keeps the fact invariants: unique ids, the log's date, confidence only on opinions", () => {
    expect(new Set(facts.map((f) => f.id)).size).toBe(facts.length);
    for (const f of facts) {
      const where = at(f.source.path, f.source.line);
      expect(f.source.path, where).toMatch(/^memory\/\d{4}-\d{2}-\d{2}(-[^/]+)?\.md$/);
      expect(f.date, where).toBe(f.source.path.slice("memory/".length, "memory/".length + 10));
      if (f.kind === "opinion") {
        expect(f.confidence, where).toBeGreaterThanOrEqual(0);
        expect(f.confidence, where).toBeLessThanOrEqual(1);
      } else {
        expect(f.confidence, where).toBeUndefined();
      }
      for (const e of f.entities) expect(e.startsWith("@"), `${where} entity ${e}`).toBe(false);
      if (f.validFrom !== undefined && f.validTo !== undefined) expect(f.validFrom <= f.validTo, where).toBe(true);
    }
  });

  it("the opinion storyline: one reinforced, one contradicted on two days, one untouched", () => {
    const opinions = facts.filter((f) => f.kind === "opinion");
    const about = (entity: string, words: string) =>
      opinions.filter((f) => f.entities.includes(entity) && f.content.includes(words)).map((f) => f.date);
    expect(about("Mara", "Prefers async written status updates")).toEqual([
      "2026-03-02",
      "2026-03-04",
      "2026-03-09",
      "2026-03-12",
    ]);
    expect(about("Jonas", "ship")).toEqual(["2026-03-03", "2026-03-09", "2026-03-13"]);
    expect(about("Zoë", "Lime plaster")).toEqual(["2026-03-06"]);
  });
});

describe("bank.example fixture self-check", () => {
  it("has each exact search token on the line the fixture names", async () => {
    for (const t of expectations.tokens) {
      const lines = (await readFile(path.join(ws, t.path), "utf8")).split("\n");
      expect(lines[t.line - 1], `${t.token} at ${at(t.path, t.line)}`).toContain(t.token);
    }
  });
});

describe("membank facts, human form", () => {
  it("prints the table on stdout and each diagnostic as path:line on stderr; --strict exits 1", async () => {
    const result = await run(process.execPath, [cli, "facts", "--workspace", ws, "--strict"]).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${expectations.counts.facts} facts`);
    for (const d of expectations.diagnostics) expect(result.stderr).toContain(at(d.path, d.line));
  });
});
