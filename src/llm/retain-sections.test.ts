import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetain } from "../retain/parse.js";
import { findRetainSections, hasOwnRetain, narrativeText } from "./retain-sections.js";

const P = "memory/2026-03-04.md";

describe("where a Retain section ends: extraction and the parser agree", () => {
  it("on a messy log (BOM, CRLF, fenced heading, sub-heading, a second section)", () => {
    const log = [
      "\uFEFF## Retain",
      "- W @Mara: Moved the standup to 9:30.",
      "### notes",
      "- S: sub-heading stays inside",
      "```",
      "# not a heading",
      "```",
      "## Later",
      "Lunch with Wei, talked about the ledger-sync rewrite.",
      "# Retain (extracted)",
      "- O(c=0.6) @Wei: Thinks the rewrite slips to May.",
    ].join("\r\n");
    expect(findRetainSections(log).map((s) => [s.start, s.end])).toEqual([
      [0, 7],
      [9, 11],
    ]);
    expect(parseRetain(P, log).facts.map((f) => f.source.line)).toEqual([2, 4, 11]);
    expect(hasOwnRetain(log)).toBe(true);
    expect(narrativeText(log)).toBe("## Later\nLunch with Wei, talked about the ledger-sync rewrite.");
  });

  const line = fc.constantFrom(
    "## Retain",
    "# Retain",
    "### Retain (extracted)",
    "## Notes",
    "### sub",
    "- W @Mara: a fact",
    "- S: another",
    "```",
    "<!-- ## Retain -->",
    "",
    "plain prose",
  );
  it("the facts the parser reads all lie inside the spans extraction sees (property)", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (ls) => {
        const text = ls.join("\n");
        const spans = findRetainSections(text);
        for (const f of parseRetain(P, text).facts) {
          expect(spans.some((s) => f.source.line - 1 > s.start && f.source.line - 1 < s.end)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
