import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entityToken, extractedComment, extractedSection, formatRetainLine, hasOwnRetain } from "../src/llm/index.js";
import type { ExtractedFact } from "../src/llm/types.js";
import { dropInvalidMentions } from "../src/retain/entities.js";
import { parseRetain } from "../src/retain/parse.js";
import type { FactKind } from "../src/retain/types.js";

const PATH = "memory/2026-03-04.md";
const LOG = "# 2026-03-04\n\nLunch with Priya.\n";

const kinds: FactKind[] = ["world", "experience", "opinion", "observation"];
const word = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" });
const fact: fc.Arbitrary<ExtractedFact> = fc
  .record({
    kind: fc.constantFrom(...kinds),
    entities: fc.array(fc.oneof(word, fc.constantFrom("Priya Sharma", "@Jonas", "Node.js", "Zoë", "東京")), {
      maxLength: 3,
    }),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    content: fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 80, unit: "grapheme" }),
        // Markdown's special characters, where a parser is most likely to read more than text.
        fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(..."*_`<>[]()#\\!-a &|@:.=\t\n") }),
      )
      .filter((s) => s.replace(/\s+/g, "") !== ""),
    citation: fc.option(fc.constantFrom("session abc123#L42", "session 9f/x.jsonl#L7"), { nil: undefined }),
  })
  .map((r) => {
    const f: ExtractedFact = { kind: r.kind, entities: r.entities, content: r.content };
    if (r.confidence !== undefined) f.confidence = r.confidence;
    if (r.citation !== undefined) f.citation = r.citation;
    return f;
  });

describe("formatRetainLine round-trips through the retain parser", () => {
  it("examples", () => {
    const facts: ExtractedFact[] = [
      { kind: "opinion", entities: ["Priya"], confidence: 0.7, content: "Prefers async stand-ups." },
      { kind: "world", entities: ["Jonas", "ledger sync"], content: "Owns the rollout (see @Mara's notes)." },
      { kind: "observation", entities: [], content: "Meeting moved to 10:30." },
      { kind: "experience", entities: [], content: "I fixed it.", citation: "session abc#L4" },
    ];
    const text = LOG + extractedSection(LOG, facts, { model: "m" });
    const { facts: parsed, diagnostics } = parseRetain(PATH, text);
    expect(diagnostics).toEqual([]);
    expect(parsed.map((f) => [f.kind, f.entities, f.confidence, f.content, f.extracted, f.source.line])).toEqual([
      ["opinion", ["Priya"], 0.7, "Prefers async stand-ups.", true, 7],
      ["world", ["Jonas", "ledger-sync", "Mara"], undefined, "Owns the rollout (see @Mara's notes).", true, 8],
      ["observation", [], undefined, "Meeting moved to 10:30.", true, 9],
      ["experience", [], undefined, "I fixed it. (session abc#L4)", true, 10],
    ]);
    expect(hasOwnRetain(text)).toBe(true);
  });

  it("an opinion without confidence gets the configured default", () => {
    const text = LOG + extractedSection(LOG, [{ kind: "opinion", entities: [], content: "Tea beats coffee." }]);
    expect(parseRetain(PATH, text, { defaultConfidence: 0.6 }).facts[0]!.confidence).toBe(0.6);
  });

  it("drops facts already in the file or repeated (the parser would call them duplicates)", () => {
    const f: ExtractedFact = { kind: "opinion", entities: ["Priya"], confidence: 0.7, content: "Likes tea." };
    const first = LOG + extractedSection(LOG, [f, { ...f, confidence: 0.9 }]);
    expect(parseRetain(PATH, first).facts).toHaveLength(1);
    expect(extractedSection(first, [f])).toBe("");
    const sessions = extractedSection(first, [{ ...f, content: "Likes green tea." }], { source: "sessions" });
    expect(sessions).toContain(extractedComment({ source: "sessions" }));
    const both = parseRetain(PATH, first + sessions);
    expect(both.diagnostics).toEqual([]);
    expect(both.facts.map((x) => x.content)).toEqual(["Likes tea.", "Likes green tea."]);
  });

  it("property: any extracted fact parses back to itself, with no diagnostics", () => {
    fc.assert(
      fc.property(fact, fc.constantFrom("\n", "\r\n"), (f, eol) => {
        const log = LOG.replace(/\n/g, eol);
        const line = formatRetainLine(f);
        const text = log + extractedSection(log, [f], { model: "claude-test" });
        const { facts, diagnostics } = parseRetain(PATH, text, { defaultConfidence: 0.7 });
        expect(diagnostics).toEqual([]);
        expect(facts).toHaveLength(1);
        const back = facts[0]!;
        expect(back.kind).toBe(f.kind);
        expect(back.extracted).toBe(true);
        // A malformed @mention loses its @ (the parser would refuse the line otherwise).
        const content =
          dropInvalidMentions(f.content.replace(/\s+/g, " ").trim()) + (f.citation ? ` (${f.citation})` : "");
        expect(back.content).toBe(content);
        const tokens = [...new Set(f.entities.map(entityToken).filter((t) => t !== ""))];
        expect(back.entities.slice(0, tokens.length)).toEqual(tokens);
        if (f.kind === "opinion") {
          expect(back.confidence).toBe(f.confidence === undefined ? 0.7 : Number(f.confidence.toFixed(2)));
        } else {
          expect(back.confidence).toBeUndefined();
        }
        expect(line).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 300 },
    );
  });
});
