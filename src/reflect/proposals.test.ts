import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Opinion } from "../markdown/opinions.js";
import type { Fact } from "../retain/types.js";
import { hasWholeWord, proposalsBody } from "./proposals.js";

let n = 0;
const fact = (date: string, entities: string[], content: string, kind: Fact["kind"] = "world"): Fact => ({
  id: `f${++n}`,
  kind,
  entities,
  content,
  date,
  source: { path: `memory/${date}.md`, line: 10 + n },
});
const rules = { minConfidence: 0.85, minDays: 3, entityMinDays: 3 };
const DAYS = ["2026-03-02", "2026-03-05", "2026-03-09"];
const op = (id: string, entities: string[], statement: string): Opinion => ({
  id,
  statement,
  entities,
  confidence: 0.9,
  created: DAYS[0]!,
  lastUpdated: DAYS[2]!,
  evidence: DAYS.map((date, i) => ({
    factId: `${id}-${i}`,
    date,
    stance: "support" as const,
    source: { path: `memory/${date}.md`, line: 1 },
  })),
});

const CORE = `# MEMORY

## People
- Mara Lindqvist leads ledger-sync; she likes written async updates better than standups.
* Tomasz: night owl, answers pages fast

## Preferences
- short replies on WhatsApp (Peter)
`;

describe("proposals for MEMORY.md", () => {
  it("does not re-propose what MEMORY.md says in other words", () => {
    const body = proposalsBody(
      [
        op("op-a", ["Mara"], "Prefers async written status updates over standups."),
        op("op-b", ["Peter"], "Prefers short replies on WhatsApp."),
        op("op-c", ["Mara"], "Wants the Berlin offsite moved to April."),
        // Same words, another person: MEMORY.md says it of Mara, not of Jonas.
        op("op-d", ["Jonas"], "Prefers async written status updates over standups."),
      ],
      new Map(),
      rules,
      CORE,
    );
    expect(body).not.toContain("op-a");
    expect(body).not.toContain("op-b");
    expect(body).toContain("- @Mara: Wants the Berlin offsite moved to April.\n  - why: confidence 0.90");
    expect(body).toContain("- @Jonas: Prefers async written status updates over standups.\n");
  });

  it("does not propose an entity MEMORY.md names, in a heading or with spaces for hyphens", () => {
    const days = (e: string) => DAYS.map((d) => fact(d, [e], "x"));
    const core = "# MEMORY\n\n## The Castle\n\n- roof done in May\n- Ledger sync owner: Mara\n";
    const body = proposalsBody(
      [],
      new Map([
        ["The-Castle", days("The-Castle")],
        ["ledger_sync", days("ledger_sync")],
        ["Priya", days("Priya")],
      ]),
      rules,
      core,
    );
    expect(body).not.toContain("@The-Castle");
    expect(body).not.toContain("@ledger_sync");
    expect(body).toContain("- @Priya — mentioned on 3 days");
  });

  it("proposes an update when newer facts contradict a MEMORY.md line", () => {
    const facts = new Map([
      [
        "Mara",
        [
          fact("2026-03-03", ["Mara"], "Runs the ledger-sync standup this week."),
          fact("2026-03-10", ["Mara", "Tomasz"], "Handed ledger-sync over to @Tomasz; she moves to the payments team."),
        ],
      ],
      ["Tomasz", [fact("2026-03-04", ["Tomasz"], "Answers pages fast, even at night.")]],
    ]);
    const body = proposalsBody([], facts, rules, CORE);
    expect(body).toContain("### Updates\n\n- MEMORY.md line 4 says: Mara Lindqvist leads ledger-sync\n");
    expect(body).toContain(
      "  - newer: 2026-03-10 @Mara: Handed ledger-sync over to @Tomasz; she moves to the payments team. ([memory/2026-03-10.md#L",
    );
    expect(body).toContain(
      "  - paste instead: Mara: Handed ledger-sync over to @Tomasz; she moves to the payments team. (since 2026-03-10)",
    );
    // A fact that agrees with its line (no change cue) proposes nothing.
    expect(body).not.toContain("line 5");
  });
});

describe("hasWholeWord", () => {
  // The rule it stands for: the name not touching a letter or digit (code points, as a `u` regex reads them).
  const byRegex = (text: string, word: string) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u").test(text);

  it("finds a name only as a whole word", () => {
    expect(hasWholeWord("team: priya, jonas, zoë", "jonas")).toBe(true);
    expect(hasWholeWord("jonassen runs billing", "jonas")).toBe(false);
    expect(hasWholeWord("zoëlle and zoë", "zoë")).toBe(true);
    expect(hasWholeWord("the castle2 build", "the castle")).toBe(false);
    expect(hasWholeWord("fixing the castle, again", "the castle")).toBe(true);
    expect(hasWholeWord("xthe castle", "the castle")).toBe(false);
    expect(hasWholeWord("𝒜li and li", "li")).toBe(true);
    expect(hasWholeWord("𝒜li", "li")).toBe(false);
  });

  it("agrees with the whole-word regex on any text", () => {
    const piece = fc.constantFrom("li", "Li", "a", " ", "-", "é", "𝒜", "\ud835", "\udc9c", "7", ".", "'", "ß", "中");
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(""));
    // A name is never empty nor half a character (the regex itself differs from the rule there).
    const name = fc
      .array(fc.constantFrom("li", "Li", "a", " ", "-", "é", "𝒜", "7", "'", "ß", "中"), { minLength: 1, maxLength: 4 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(text, name, (t, w) => hasWholeWord(t, w) === byRegex(t, w)),
      { numRuns: 800 },
    );
  });
});
