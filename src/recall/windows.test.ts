import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LineHit } from "./lines.js";
import { buildWindows, endsWithQuestion, shiftsForward } from "./windows.js";

const hit = (line: number, score: number, text: string): LineHit => ({
  path: "memory/2023-05-08.md",
  line,
  score,
  text,
});

describe("turn-aware windows", () => {
  it("tells questions from statements, photo notes aside", () => {
    expect(endsWithQuestion("- **Mel** (1:56 pm): What's up with you? Anything new?")).toBe(true);
    expect(endsWithQuestion("- **Mel** (1:56 pm): Did you go? [shares a photo of a dog]")).toBe(true);
    expect(endsWithQuestion("- **Mel** (1:56 pm): Is it? I went anyway.")).toBe(false);
    expect(shiftsForward("- **Caroline** (1:56 pm): I went to a support group.")).toBe(true);
    expect(shiftsForward("- **Caroline** (1:56 pm): Did you go?")).toBe(false);
    // Not a chat turn: a Retain fact or plain note keeps its centred window.
    expect(shiftsForward("- W @Priya: ships the release.")).toBe(false);
  });

  it("moves a statement's window one line forward, keeps a question's centred, same size", () => {
    const opts = { before: 1, after: 1, neighborWeight: 0, max: 10, turnShift: true };
    const [s] = buildWindows([hit(10, 2, "- **Caroline** (1:56 pm): I researched adoption agencies.")], opts);
    expect([s!.startLine, s!.endLine]).toEqual([10, 12]);
    const [q] = buildWindows([hit(10, 2, "- **Melanie** (1:56 pm): What did you research?")], opts);
    expect([q!.startLine, q!.endLine]).toEqual([9, 11]);
    const [off] = buildWindows([hit(10, 2, "- **Caroline** (1:56 pm): I researched adoption agencies.")], {
      ...opts,
      turnShift: false,
    });
    expect([off!.startLine, off!.endLine]).toEqual([9, 11]);
  });

  it("a window with no lines before stays put", () => {
    const [w] = buildWindows([hit(5, 1, "- **A** (1 pm): Yes.")], {
      before: 0,
      after: 2,
      neighborWeight: 0,
      max: 10,
      turnShift: true,
    });
    expect([w!.startLine, w!.endLine]).toEqual([5, 7]);
  });
});

describe("windows of line hits", () => {
  it("do not depend on the order the hits come in, even at equal scores", () => {
    const texts = ["- **Ana** (2 pm): We went hiking.", "- **Ben** (2 pm): Where?", "- note", "- W @Ana: Hiking."];
    const hits = fc.array(
      fc.record({
        path: fc.constantFrom("memory/2023-05-08.md", "memory/2023-05-09.md", "bank/Ana.md"),
        line: fc.integer({ min: 1, max: 30 }),
        score: fc.constantFrom(1, 2, 2, 3),
        text: fc.constantFrom(...texts),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(
        hits.chain((list) => {
          // One hit per line, as the line search gives them.
          const unique = [...new Map(list.map((h) => [`${h.path}#${h.line}`, h])).values()];
          return fc.tuple(fc.constant(unique), fc.shuffledSubarray(unique, { minLength: unique.length }));
        }),
        ([hitsInOrder, shuffled]) => {
          const opts = { before: 1, after: 1, neighborWeight: 0.35, max: 50, turnShift: true };
          expect(buildWindows(shuffled, opts)).toEqual(buildWindows(hitsInOrder, opts));
        },
      ),
    );
  });
});
