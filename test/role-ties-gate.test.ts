import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineRoleTies, mayTie, roleTies } from "../src/reflect/role-ties.js";

// lineRoleTies tries its eight shapes only on a line holding a role word as a word of its own
// (role-ties.ts mayTie): V8 compiles them on first use, so a MEMORY.md without one never pays.
// Leaving the shapes out must never lose a tie.

const ROLES = [
  "mum",
  "Mum",
  "MUM",
  "sister",
  "Sister",
  "sister-in-law",
  "chef",
  "accountant",
  "co-founder",
  "fiancé",
  "Fiancée",
  "dad",
  "gp",
  "son",
  "nan",
];
const DETS = ["", "my ", "our ", "the ", "My ", "the head ", "our new ", "my little "];
const NAMES = ["Rita", "Huw Pugh", "Cass", "Zoë", "O'Neil", "İlkay", "Ömer", "Tasha", "Mr", "Tuesdays", "\u212Aai"];
const GLUE = [
  "",
  " ",
  "  ",
  ", ",
  " (",
  ")",
  ": ",
  " is ",
  " was ",
  ". ",
  "; ",
  " and ",
  "-",
  "'s ",
  "’",
  "s ",
  "x",
  "1",
  "é",
  "\u0307",
];
const NOISE = [
  "person",
  "season",
  "finance",
  "estimate",
  "Grandson",
  "velvet",
  "cookie",
  "minimum",
  "Jackson",
  "Stockholm",
];

const piece = fc.oneof(
  fc.constantFrom(...ROLES),
  fc.constantFrom(...DETS),
  fc.constantFrom(...NAMES),
  fc.constantFrom(...GLUE),
  fc.constantFrom(...NOISE),
);
const line = fc
  .tuple(fc.constantFrom("", "- ", "* ", "1. ", "**", "  - "), fc.array(piece, { maxLength: 9 }))
  .map(([lead, parts]) => lead + parts.join(""));

describe("role ties: the shapes are tried only where a role word stands", () => {
  it("gives the same ties as trying every shape on every line", () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(lineRoleTies(l)).toEqual(lineRoleTies(l, false));
      }),
      { numRuns: 4000 },
    );
  });

  it("lets every line with a tie through", () => {
    for (const l of [
      "- Mum (Rita) does the till",
      "- Rita (mum)",
      "- My sister Cass does the books",
      "- Kemal is the chef, here since day one",
      "- our accountant, Huw Pugh, files in January",
      "Accountant: Huw Pugh",
      "- Tasha: head barista, four days a week.",
      "- Husband Tomasz (works from home, IT).",
      "- Partner: Jonas. Sister-in-law: Ifeoma.",
    ]) {
      expect(lineRoleTies(l, false).length, l).toBeGreaterThan(0);
      expect(mayTie(l), l).toBe(true);
    }
  });

  it("skips a MEMORY.md whose words only contain role words (person, season, finance)", () => {
    const core = [
      "# MEMORY",
      "- Mara Lindqvist leads the Payments Platform team at Fjordline, Stockholm (CET).",
      "- Team: Priya, Jonas, Zoë, Henrik. Every person on it estimates in points.",
      "- Finance closes the season on the 3rd; Jackson signs off.",
    ];
    for (const l of core) expect(mayTie(l), l).toBe(false);
    expect(roleTies(core.join("\n"))).toEqual(new Map());
  });
});
