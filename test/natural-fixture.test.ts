// End to end on fixtures/natural, a workspace written the way people write (restatements in
// other words, hedges, reversals, outcome facts tagged with the project, case and accent
// variants, chat logs without a Retain section): one nightly run through the built CLI, no
// model, then the behaviour fixtures/natural-expectations.json states. The expectations name
// behaviour (one belief per holder and topic, its direction and band, who someone is, dates),
// not the page's wording, so that they hold for text the heuristics never saw.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRegions } from "../src/markdown/index.js";
import { type Opinion, parseOpinion } from "../src/reflect/index.js";
import { fixtureAfterNightly } from "./prose-fixture-support.js";
import { git, membank, repoRoot } from "./reflect-support.js";

interface Belief {
  holder: string | string[];
  topicAny: string[];
  exactlyOne?: boolean;
  first: number;
  direction: "down" | "up-or-flat" | "down-or-flat";
  finalMax?: number;
  finalMin?: number;
  statusAny?: string[];
}
interface Expectations {
  opinions: { countMin: number; countMax: number; beliefs: Belief[] };
  entities: {
    pages: string[];
    onePageFor: string[][];
    aliasSuggestions: [string, string][];
    currentState: { entity: string; includes: string; supersededIncludes?: string }[];
    sharedFact: { entity: string; contentIncludes: string; mustName: string };
    proseSpeakers: string[];
  };
  dates: {
    path: string;
    contentIncludes: string;
    validFrom?: string;
    validTo?: string;
    validFromNot?: string;
    validToFrom?: string;
    validToUntil?: string;
  }[];
  logsWithoutRetain: string[];
}
interface JsonFact {
  content: string;
  validFrom?: string;
  validTo?: string;
  source: { path: string; line: number };
}

const expected = JSON.parse(
  await readFile(path.join(repoRoot, "fixtures/natural-expectations.json"), "utf8"),
) as Expectations;

let dir: string;
let runOut: string;
let opinions: Opinion[];
// The page a person reads: status lines are checked there.
let opinionsText: string;
let pageNames: string[];
const page = async (name: string) => {
  const file = pageNames.find((p) => p.normalize("NFC").toLowerCase() === `${name.normalize("NFC").toLowerCase()}.md`);
  expect(file, `a page for ${name} among ${pageNames.join(", ")}`).toBeDefined();
  return readFile(path.join(dir, "bank/entities", file!), "utf8");
};
/** The part of an entity page above its timeline: who or what it is now. */
const stateOf = (text: string) => text.slice(0, Math.max(0, text.indexOf("## Facts")) || text.length);
const lower = (s: string) => s.toLowerCase();

beforeAll(async () => {
  ({ dir, output: runOut } = await fixtureAfterNightly("natural"));
  opinionsText = await readFile(path.join(dir, "bank/opinions.md"), "utf8");
  opinions = readRegions(opinionsText).map((r) => {
    const op = parseOpinion(r.name, r.body);
    if (typeof op === "string") throw new Error(op);
    return op;
  });
  pageNames = await readdir(path.join(dir, "bank/entities"));
}, 120_000);

describe("fixtures/natural: opinions, one per belief, with a trajectory", () => {
  it("has one opinion per holder and topic, not one per restatement", () => {
    expect(opinions.length).toBeGreaterThanOrEqual(expected.opinions.countMin);
    expect(opinions.length).toBeLessThanOrEqual(expected.opinions.countMax);
  });

  for (const b of expected.opinions.beliefs) {
    const holders = [b.holder].flat();
    it(`${holders.join("/")} on ${b.topicAny[0]}: ${b.direction}, ${b.statusAny?.join(" or ") ?? "any status"}`, () => {
      const mine = opinions.filter(
        (o) =>
          holders.some((h) => lower(o.entities[0] ?? "") === lower(h)) &&
          b.topicAny.some((t) => lower(o.statement).includes(lower(t))),
      );
      if (b.exactlyOne) expect(mine.map((o) => o.statement)).toHaveLength(1);
      expect(mine.length).toBeGreaterThan(0);
      const op = mine[0]!;
      const first = op.path?.[0]?.confidence ?? op.confidence;
      expect(first).toBeCloseTo(b.first, 2);
      if (b.direction === "down") expect(op.confidence).toBeLessThan(first);
      if (b.direction === "down-or-flat") expect(op.confidence).toBeLessThanOrEqual(first);
      if (b.direction === "up-or-flat") expect(op.confidence).toBeGreaterThanOrEqual(first);
      if (b.finalMax !== undefined) expect(op.confidence).toBeLessThanOrEqual(b.finalMax);
      if (b.finalMin !== undefined) expect(op.confidence).toBeGreaterThanOrEqual(b.finalMin);
      if (b.statusAny) {
        // Status as the page a person reads shows it.
        const region = readRegions(opinionsText).find((r) => r.name === op.id)!;
        const status = /^- status: (\w+)/m.exec(region.body)?.[1];
        expect(b.statusAny).toContain(status);
      }
    });
  }
});

describe("fixtures/natural: entity pages say who someone is", () => {
  it("has a page for each person and project, one whatever the case", () => {
    for (const name of expected.entities.pages)
      expect(pageNames.some((p) => lower(p) === lower(`${name}.md`))).toBe(true);
    for (const group of expected.entities.onePageFor) {
      const pages = pageNames.filter((p) => group.some((g) => p.normalize("NFC") === `${g}.md`));
      expect(pages, group.join("/")).toHaveLength(1);
    }
  });

  it("suggests the aliases MEMORY.md or accents imply, without merging them", async () => {
    for (const [a, b] of expected.entities.aliasSuggestions) {
      const text = (await page(a)).normalize("NFC");
      const line = text.split("\n").find((l) => l.includes(`@${b}`) && /alias/i.test(l));
      expect(line, `${a}'s page suggests ${b}`).toBeDefined();
      await page(b); // still its own page
    }
  });

  for (const s of expected.entities.currentState) {
    it(`${s.entity}'s page says ${JSON.stringify(s.includes)} before its timeline`, async () => {
      const state = stateOf(await page(s.entity));
      expect(state).toContain(s.includes);
      if (s.supersededIncludes) {
        const line = state.split("\n").find((l) => l.includes(s.supersededIncludes!) && /supersed/i.test(l));
        expect(line, `a superseded line naming ${s.supersededIncludes}`).toBeDefined();
      }
    });
  }

  it("keeps the other subject of a shared fact", async () => {
    const { entity, contentIncludes, mustName } = expected.entities.sharedFact;
    const line = (await page(entity)).split("\n").find((l) => l.includes(contentIncludes));
    expect(line).toContain(mustName);
  });

  it("gives chat speakers of logs without Retain a page that links to those logs", async () => {
    for (const name of expected.entities.proseSpeakers) {
      const text = await page(name);
      expect(
        expected.logsWithoutRetain.some((log) => text.includes(log)),
        name,
      ).toBe(true);
    }
  });
});

describe("fixtures/natural: dates and nothing silently missing", () => {
  let facts: JsonFact[];
  let noRetain: string[];
  beforeAll(async () => {
    const out = await membank("facts", "--json", "--workspace", dir);
    ({ facts, logsWithoutRetain: noRetain } = JSON.parse(out.stdout) as {
      facts: JsonFact[];
      logsWithoutRetain: string[];
    });
  });

  for (const d of expected.dates) {
    it(`${d.path}: "${d.contentIncludes}"`, () => {
      const fact = facts.find((f) => f.source.path === d.path && f.content.includes(d.contentIncludes));
      expect(fact).toBeDefined();
      if (d.validFrom) expect(fact!.validFrom).toBe(d.validFrom);
      if (d.validTo) expect(fact!.validTo).toBe(d.validTo);
      if (d.validFromNot) expect(fact!.validFrom).not.toBe(d.validFromNot);
      if (d.validToFrom) expect(fact!.validTo! >= d.validToFrom).toBe(true);
      if (d.validToUntil) expect(fact!.validTo! <= d.validToUntil).toBe(true);
    });
  }

  it("names the logs that have no Retain section, in facts and in the run", () => {
    expect(noRetain).toEqual(expected.logsWithoutRetain);
    const n = expected.logsWithoutRetain.length;
    expect(runOut).toMatch(new RegExp(`${n} of \\d+ logs have no ## Retain section`));
  });

  it("a second run changes nothing and commits nothing", async () => {
    const head = git(dir, "rev-parse", "HEAD");
    const again = await membank("run", "nightly", "--workspace", dir);
    expect(again.code, again.stderr).toBe(3);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(git(dir, "status", "--porcelain")).toBe("");
  });
});
