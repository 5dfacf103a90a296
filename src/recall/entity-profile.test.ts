import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { citedSource } from "../markdown/citation.js";
import { currentStateLines, describedEntity, describeWord, editDistance, readCoreMemory } from "./entity-profile.js";

const lines = (text: string) => text.split("\n").map((t, i) => ({ line: i + 1, text: t }));

// Written the way people keep a MEMORY.md: headings, dashes, colons, asides in parentheses.
const MEMORY = lines(`# MEMORY

## People
- Mara Lindqvist — engineering lead, owns the ledger-sync migration. Based in Malmö, prefers Slack over email.
- Zoë Hartmann is our product designer (she signs "Zoe" in Slack, same person).
* Jonas (everyone calls him Jo) runs customer support and the weekly digest.
- Team: Priya Raman (staff engineer, reconciliation), Jonas Berg (product manager).
- Elin Moreau: QA tester, joined from the Lyon office.
- Ines Moreau, VP Engineering

## Mara
- Works 08:00-16:30, no meetings on Friday afternoons.
`);

const ENTITIES = ["Mara", "Zoë", "Jonas", "Jo", "Priya", "Elin", "Ines", "ledger-sync"].map((slug) => ({ slug }));

describe("readCoreMemory", () => {
  const profiles = readCoreMemory(MEMORY, ENTITIES);

  it("files each line under the entities it is about, the subject first", () => {
    const mara = profiles.get("Mara")!;
    expect(mara.lines.map((l) => l.line)).toEqual([4, 12]);
    expect(mara.lines.every((l) => l.subject)).toBe(true);
    const sync = profiles.get("ledger-sync")!;
    expect(sync.lines).toEqual([expect.objectContaining({ line: 4, subject: false })]);
  });

  it("reads nicknames and full names, but not a surname two people share", () => {
    expect(profiles.get("Jonas")!.aliases).toEqual(expect.arrayContaining(["Jo", "Jonas Berg", "Berg"]));
    expect(profiles.get("Zoë")!.aliases).toContain("Zoë Hartmann");
    expect(profiles.get("Mara")!.aliases).toContain("Mara Lindqvist");
    expect(profiles.get("Elin")!.aliases).toContain("Elin Moreau");
    expect(profiles.get("Elin")!.aliases).not.toContain("Moreau");
    expect(profiles.get("Ines")!.aliases).not.toContain("Moreau");
  });

  it("gives each describing word to the entity it describes", () => {
    const has = (slug: string, word: string) => profiles.get(slug)!.words.has(describeWord(word));
    expect(has("Elin", "tester")).toBe(true);
    expect(has("Priya", "reconciliation")).toBe(true);
    expect(has("Priya", "manager")).toBe(false);
    expect(has("Jonas", "manager")).toBe(true);
    expect(has("Jonas", "support")).toBe(true);
    expect(has("Zoë", "designer")).toBe(true);
    // A clause without a name describes the line's subject.
    expect(has("Mara", "Malmö")).toBe(true);
  });
});

describe("describedEntity", () => {
  const profiles = readCoreMemory(MEMORY, ENTITIES);

  it("names the entity a description fits", () => {
    expect(describedEntity(["tester", "france"], profiles)).toBe("Elin");
    expect(describedEntity(["designer"], profiles)).toBe("Zoë");
    expect(describedEntity(["runs", "customer", "support"], profiles)).toBe("Jonas");
  });

  it("strictly, needs two words of the description, all but one", () => {
    expect(describedEntity(["reconciliation", "report"], profiles, { strict: true })).toBeUndefined();
    expect(describedEntity(["tester", "france"], profiles, { strict: true })).toBeUndefined();
    expect(describedEntity(["product", "manager"], profiles, { strict: true })).toBe("Jonas");
  });

  it("names nobody when nothing fits or two fit equally", () => {
    expect(describedEntity(["astronaut"], profiles)).toBeUndefined();
    expect(describedEntity([], profiles)).toBeUndefined();
    const tie = new Map([
      ["A", { words: new Set([describeWord("lead")]) }],
      ["B", { words: new Set([describeWord("lead")]) }],
    ]);
    expect(describedEntity(["lead"], tie)).toBeUndefined();
  });
});

describe("entity page lines", () => {
  const page = lines(`---
aliases: []
---
# Elin

<!-- membank:begin summary -->
@Elin: 3 facts on 3 days.

Current state:

- role: 2026-03-03 — Joins the QA team. ([memory/2026-03-03.md#L6](../../memory/2026-03-03.md#L6))
- problem: 2026-03-20 — Owns the regression suite. ([memory/2026-03-20.md#L7](../../memory/2026-03-20.md#L7))

Latest:

- 2026-03-09 — First day in QA. ([memory/2026-03-09.md#L6](../../memory/2026-03-09.md#L6))
`);

  it("reads the current-state list and the log line each item cites", () => {
    const state = currentStateLines(page);
    expect(state.map((l) => l.line)).toEqual([11, 12]);
    expect(citedSource(state[0]!.text)).toEqual({ path: "memory/2026-03-03.md", line: 6 });
    expect(citedSource("- From MEMORY.md: ([MEMORY.md#L8](../../MEMORY.md#L8))")).toEqual({
      path: "MEMORY.md",
      line: 8,
    });
    expect(citedSource("no citation here")).toBeUndefined();
  });

  it("finds nothing on a page without a current state", () => {
    expect(currentStateLines(lines("# Wei\n\n- 2026-03-12 — Confirmed the migration."))).toEqual([]);
  });
});

describe("editDistance", () => {
  it("counts one edit for a typo or a swap", () => {
    expect(editDistance("prya", "priya")).toBe(1);
    expect(editDistance("elinn", "elin")).toBe(1);
    expect(editDistance("tomsaz", "tomasz")).toBe(1);
    expect(editDistance("mara", "noor")).toBeGreaterThan(2);
  });

  it("is symmetric and zero only for equal words", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 7 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b, 10);
        expect(d).toBe(editDistance(b, a, 10));
        expect(d === 0).toBe(a === b);
      }),
    );
  });
});
