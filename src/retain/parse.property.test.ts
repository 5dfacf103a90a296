import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetain, scanRetain } from "./parse.js";

const P = "memory/2025-11-27.md";

// Free text: any Unicode except line breaks (which would make new lines the generator does not track).
const text = fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => s.replace(/[\r\n\u2028\u2029]/g, " "));
const word = fc.constantFrom("Peter", "Zoë", "张伟", "The-Castle", "ledger-sync", "Andy's", "x");
const bullet = fc.constantFrom("-", "*", "+", "1.", "2)");
const indent = fc.constantFrom("", "", "", "  ", "    ", " ", "\t");
const letter = fc.constantFrom("W", "B", "O", "S", "X", "w", "Q");
const conf = fc.constantFrom("", "(c=0.9)", "(c=1.5)", "(c=abc)", "(c=0.5", "(p=1)", "(c=0)");
const entities = fc
  .array(
    word.map((w) => `@${w}`),
    { maxLength: 3 },
  )
  .map((a) => a.join(" "));

// A list item: a fact-shaped line, valid or not.
const item = fc
  .tuple(indent, bullet, letter, conf, entities, fc.constantFrom(":", ": ", " ", ""), text, text)
  .map(
    ([ind, b, l, c, e, colon, t, tail]) =>
      `${ind}${b} ${l}${c}${e ? ` ${e}` : ""}${colon}${t}${tail ? ` @${tail}` : ""}`,
  );
// Other lines a person might leave in a Retain section.
const other = fc.oneof(
  fc.tuple(indent, fc.constantFrom("*", "+")).map(([i, b]) => `${i}${b}`), // empty item
  text.map((t) => `Paragraph ${t}`), // not a list item (or a lazy continuation)
  text.map((t) => `  continued ${t}`),
  text.map((t) => `> quoted ${t}`),
  fc.constant(""),
  fc.constant("   "),
);
const section = fc.array(fc.oneof({ weight: 3, arbitrary: item }, { weight: 2, arbitrary: other }), {
  minLength: 1,
  maxLength: 25,
});
const eol = fc.constantFrom("\n", "\r\n");

function build(lines: string[], eols: string[], bom: boolean): string {
  const all = ["# 2025-11-27", "", "Narrative.", "", "### Retain", ...lines];
  return (
    (bom ? "\uFEFF" : "") + all.map((l, i) => l + (i < all.length - 1 ? (eols[i % eols.length] ?? "\n") : "")).join("")
  );
}

describe("parseRetain properties", () => {
  it("accounts for every non-blank line of a Retain section exactly once and never throws", () => {
    fc.assert(
      fc.property(section, fc.array(eol, { minLength: 1, maxLength: 5 }), fc.boolean(), (lines, eols, bom) => {
        const doc = build(lines, eols, bom);
        const scan = scanRetain(P, doc);
        const all = doc.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
        expect(scan.sections).toHaveLength(1);
        // Nothing in the generated lines can end the section early.
        expect(scan.sections[0]!.endLine).toBe(all.length);
        const count = new Map<number, number>();
        for (const o of scan.outcomes) {
          expect(Boolean(o.fact) !== Boolean(o.diagnostic)).toBe(true);
          for (let l = o.line; l <= o.endLine; l++) count.set(l, (count.get(l) ?? 0) + 1);
        }
        for (const l of scan.ignoredLines) count.set(l, (count.get(l) ?? 0) + 1);
        for (let l = 6; l <= all.length; l++) {
          const blank = /^\s*$/.test(all[l - 1]!);
          expect(count.get(l) ?? 0, `line ${l} ${JSON.stringify(all[l - 1])}`).toBe(blank ? 0 : 1);
        }
        expect(scan.facts.length + scan.diagnostics.length).toBe(scan.outcomes.length);
        for (const f of scan.facts) {
          expect(f.id).toMatch(/^[0-9a-f]{12}$/);
          expect(f.content).not.toMatch(/[\r\n]/);
          expect(f.source).toEqual({ path: P, line: expect.any(Number) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same result with and without the fast path, and for LF vs CRLF", () => {
    fc.assert(
      fc.property(section, eol, (lines, e) => {
        const doc = build(lines, [e], false);
        const fast = parseRetain(P, doc);
        expect(parseRetain(P, doc, { fastPath: false })).toEqual(fast);
        expect(parseRetain(P, doc.replace(/\r\n/g, "\n"))).toEqual(fast);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (body) => {
        const r = parseRetain(P, `## Retain\n${body}`);
        expect(Array.isArray(r.facts) && Array.isArray(r.diagnostics)).toBe(true);
        expect(r.diagnostics.every((d) => !d.reason.startsWith("internal parser error"))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
