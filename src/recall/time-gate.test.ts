import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayHoldTimeWord } from "./time-gate.js";
import { MAY_NAME_TIME, mayNameTime } from "./timewindow.js";

// Pieces people type, and pieces that sit next to the pattern's words without being them.
const PIECES = [
  ..."jan january feb mar march marathon mara apr april may maybe jun june junior jul july aug august".split(" "),
  ..."sep sept sepember september septic oct october octavia nov november dec december decker".split(" "),
  ..."sun sunday sunny mon monday monica tue tues tuesday wed wednesday wedding thu thur thurs thursday".split(" "),
  ..."fri friday fries sat saturday satya now nowhere today tonight tmr tmrw tomorrow overmorrow".split(" "),
  ..."yesterday night nights noon midday midnight morning afternoon evening evenings".split(" "),
  ..."second seconds sec secs minute min mins m h hr hrs hour hourly d day days daily w week weekly weekend".split(" "),
  ..."fortnight mo mon mos month monthly qtr quarter quarterly y yr yrs year yearbook".split(" "),
  ..."this last past next after the these theme few several half couple one two three ten eleven twelve".split(" "),
  ..."a an and about ago before earlier later from henceforth forward out s".split(" "),
  ..."what does Mara prefer for status updates who reviewed migration Priya Jonas Zoë café".split(" "),
  "İ",
  "ſ",
  "K",
  "ı",
  "_",
  "",
];
const SEPS = ["", " ", "  ", "\t", "\n", "-", "+", "'", ", ", "/", ".", "_", "?", "é"];

const text = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SEPS), fc.boolean()), { maxLength: 6 })
  .map((parts) => parts.map(([w, sep, upper]) => (upper ? w.toUpperCase() : w) + sep).join(""));

describe("the time gate's word pre-check", () => {
  it("never turns away a text the gate's pattern matches (glued, spaced, any case)", () => {
    fc.assert(
      fc.property(text, (t) => {
        if (!mayHoldTimeWord(t)) expect(MAY_NAME_TIME.test(t)).toBe(false);
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (t) => {
        if (!mayHoldTimeWord(t)) expect(MAY_NAME_TIME.test(t)).toBe(false);
      }),
      { numRuns: 5_000 },
    );
  });

  it("turns away everyday questions without a time, so the pattern is not compiled for them", () => {
    for (const q of [
      "what does Mara prefer for status updates?",
      "Who is Monica dating?",
      "is Octavia still on the marathon team",
      "what did the wedding planner say about the venue",
      "Tell me about Priya",
    ]) {
      expect(mayHoldTimeWord(q)).toBe(false);
      expect(mayNameTime(q)).toBe(false);
    }
  });

  it("lets through time words however they are written; the pattern then decides", () => {
    for (const q of [
      "what happened lastnight",
      "notes from threedays ago",
      "any update since Tues?",
      "what did we do a few d ago",
      "the sync moved to +2",
      "quarterly numbers",
      "what did Jonas say YESTERDAY",
    ]) {
      expect(mayHoldTimeWord(q)).toBe(true);
      expect(mayNameTime(q)).toBe(MAY_NAME_TIME.test(q));
    }
  });
});
