import { describe, expect, it } from "vitest";
import { frontMatterAliases } from "../markdown/frontmatter.js";
import { NO_FACTS_HEADLINE } from "../markdown/pages.js";
import type { Fact } from "../retain/types.js";
import type { Opinion } from "./opinions.js";
import { entitySummary, proposalsBody, typedRegions } from "./pages.js";

let n = 0;
const fact = (date: string, kind: Fact["kind"], entities: string[], content: string): Fact => ({
  id: `f${++n}`,
  kind,
  entities,
  content,
  date,
  source: { path: `memory/${date}.md`, line: 10 + n },
});

const rules = { minConfidence: 0.85, minDays: 3, entityMinDays: 3 };
const op = (id: string, statement: string, confidence: number, days: string[]): Opinion => ({
  id,
  statement,
  entities: ["Peter"],
  confidence,
  created: days[0]!,
  lastUpdated: days.at(-1)!,
  evidence: days.map((date, i) => ({
    factId: `${id}-${i}`,
    date,
    stance: "support" as const,
    source: { path: `memory/${date}.md`, line: 1 },
  })),
});

describe("page bodies", () => {
  it("heads an entity page with counts and first/last day, the same in any input order", () => {
    const facts = [
      fact("2026-01-01", "world", ["Ana"], "Lives in Lisbon."),
      fact("2026-01-03", "experience", ["Ana"], "I met Ana."),
      fact("2026-01-05", "world", ["Ana"], "Moved to Porto."),
    ];
    const text = entitySummary("Ana", facts);
    expect(text).toBe(
      "@Ana: 3 facts on 3 days (2 world, 1 experience), first seen 2026-01-01, last seen 2026-01-05.\n",
    );
    expect(entitySummary("Ana", [...facts].reverse())).toBe(text);
  });

  it("writes a no-facts headline that recall knows as a count (NO_FACTS_HEADLINE), and only then", () => {
    const mentions = [
      { path: "memory/2026-01-02.md", date: "2026-01-02" },
      { path: "memory/2026-01-04.md", date: "2026-01-04" },
    ];
    expect(entitySummary("Ben", [], mentions)).toMatch(NO_FACTS_HEADLINE);
    expect(entitySummary("Ben", [fact("2026-01-02", "world", ["Ben"], "Fixed the sink.")], mentions)).not.toMatch(
      NO_FACTS_HEADLINE,
    );
  });

  it("puts typed facts into month regions, newest month first", () => {
    const facts = [fact("2025-12-30", "world", [], "old"), fact("2026-01-02", "world", ["Ana"], "new")];
    const { bodies, order } = typedRegions("bank/world.md", facts);
    expect(order).toEqual(["2026-01", "2025-12"]);
    expect(bodies.get("2026-01")).toBe(
      `## January 2026\n\n- 2026-01-02 — @Ana: new ([memory/2026-01-02.md#L${facts[1]!.source.line}](../memory/2026-01-02.md#L${facts[1]!.source.line}))\n`,
    );
  });

  it("proposes durable opinions and frequent entities that MEMORY.md does not have yet", () => {
    const days = ["2026-01-01", "2026-01-02", "2026-01-03"];
    const ops = [
      op("op-a", "Prefers concise replies.", 0.9, days),
      op("op-b", "Likes long calls.", 0.95, days.slice(0, 2)), // too few days
      op("op-c", "Hates meetings.", 0.6, days), // too unsure
      op("op-d", "Drinks tea.", 0.9, days), // already in MEMORY.md
    ];
    const byEntity = new Map([
      ["Peter", days.map((d) => fact(d, "world", ["Peter"], "x"))],
      ["Ana", days.map((d) => fact(d, "world", ["Ana"], "x"))],
      ["Ben", days.slice(0, 2).map((d) => fact(d, "world", ["Ben"], "x"))],
    ]);
    const body = proposalsBody(ops, byEntity, rules, "# Core\n- @Peter drinks tea.\n");
    // The first line pastes as it is; the why follows, indented.
    expect(body).toContain(
      "- @Peter: Prefers concise replies.\n  - why: confidence 0.90, supported on 3 days (2026-01-01 … 2026-01-03), `op-a`",
    );
    expect(body).not.toMatch(/Likes long calls|Hates meetings|Drinks tea/);
    expect(body).toContain("- @Ana — mentioned on 3 days");
    expect(body).not.toContain("@Peter —"); // MEMORY.md mentions Peter
    expect(body).not.toContain("@Ben —");
  });
});

describe("front matter aliases", () => {
  it.each([
    ["---\naliases: [Jo, '@Jonas B', \"JB\"]\n---\n# Jonas\n", ["Jo", "Jonas B", "JB"]],
    ["---\ntitle: x\naliases:\n  - Jo\n  - '@J'\nother: 1\n---\n", ["Jo", "J"]],
    ["---\naliases: Jo\n---\n", ["Jo"]],
    ["---\naliases: []\n---\n", []],
    ["# No front matter\naliases: [Jo]\n", []],
  ])("%j", (text, expected) => {
    expect(frontMatterAliases(text).map((a) => a.alias)).toEqual(expected);
  });
});
