import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Evidence, Opinion } from "../markdown/opinions.js";
import type { Fact } from "../retain/types.js";
import { relinkEdited } from "./relink.js";
import { editSimilarity } from "./text.js";

const fact = (id: string, line: number, content: string, date = "2026-05-04"): Fact =>
  ({
    id,
    kind: "opinion",
    date,
    entities: ["Ines"],
    content,
    source: { path: `memory/${date}.md`, line },
  }) as Fact;

const gone = (factId: string, line: number, content: string, date = "2026-05-04"): Evidence => ({
  factId,
  date,
  stance: "support",
  source: { path: `memory/${date}.md`, line },
  content,
  gone: true,
  from: 0.6,
  to: 0.64,
});

const opinion = (evidence: Evidence[]): Opinion =>
  ({
    id: "op-1",
    statement: "the night bus is the safest way home",
    entities: ["Ines"],
    evidence,
  }) as unknown as Opinion;

describe("relinkEdited", () => {
  it("takes the line that replaced a gone entry: same log and day, nearly the same words; keeps the move", () => {
    const op = opinion([gone("old", 7, "Ines swears the nigth bus is still the safest way home from the studio")]);
    const edited = fact("new", 7, "Ines swears the night bus is still the safest way home from the studio");
    const taken = relinkEdited([op], [fact("other", 3, "Ines bought a new bike light"), edited]);
    expect([...taken]).toEqual(["new"]);
    expect(op.evidence[0]).toMatchObject({ factId: "new", from: 0.6, to: 0.64, stance: "support" });
    expect(op.evidence[0]!.gone).toBeUndefined();
    expect(op.evidence[0]!.content).toBe(edited.content);
  });

  it("leaves it gone when the edit turns the line around, or the words are others, or it is another day's log", () => {
    const entry = () => gone("old", 7, "Ines swears the night bus is the safest way home from the studio");
    const turned = opinion([entry()]);
    relinkEdited(
      [turned],
      [fact("n1", 7, "Ines no longer swears the night bus is the safest way home from the studio")],
    );
    expect(turned.evidence[0]!.gone).toBe(true);
    const other = opinion([entry()]);
    relinkEdited([other], [fact("n2", 7, "Ines took a taxi home after the gallery opening, rain all evening")]);
    expect(other.evidence[0]!.gone).toBe(true);
    const elsewhere = opinion([entry()]);
    relinkEdited(
      [elsewhere],
      [fact("n3", 7, "Ines swears the night bus is the safest way home from the studio", "2026-05-05")],
    );
    expect(elsewhere.evidence[0]!.gone).toBe(true);
  });

  it("never takes a fact that is already evidence, and gives each edited line to one entry only", () => {
    const live: Evidence = { ...gone("kept", 2, "Ines says the night bus is safest"), gone: undefined } as Evidence;
    delete live.gone;
    const op = opinion([
      live,
      gone("a", 5, "the night bus is safest after ten, says Ines"),
      gone("b", 9, "the night bus is safest after ten, says Ines again"),
    ]);
    relinkEdited(
      [op],
      [
        fact("kept", 2, "Ines says the night bus is safest"),
        fact("c", 9, "the night bus is safest after ten, says Ines again!"),
      ],
    );
    expect(op.evidence.map((e) => [e.factId, e.gone === true])).toEqual([
      ["kept", false],
      ["a", true],
      ["c", false],
    ]);
  });
});

describe("editSimilarity", () => {
  it("is 1 for the same line, symmetric, and high for a fixed typo but low for another sentence", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(editSimilarity(a, b)).toBeCloseTo(editSimilarity(b, a), 10);
        if (a.trim() !== "") expect(editSimilarity(a, a)).toBe(1);
      }),
    );
    expect(
      editSimilarity("Ines swears the nigth bus is safest", "Ines swears the night bus is safest"),
    ).toBeGreaterThan(0.7);
    expect(editSimilarity("Ines swears the night bus is safest", "Rain all evening, took a taxi")).toBeLessThan(0.3);
  });
});
