import { describe, expect, it } from "vitest";
import { entitySlug, findMentions } from "./entities.js";
import { factId, normaliseContent } from "./id.js";
import { parseFactLine } from "./line.js";

describe("parseFactLine: the grammar", () => {
  it("reads each type letter", () => {
    for (const letter of ["W", "B", "O", "S"]) {
      const r = parseFactLine(`${letter}: text`);
      expect(r).toEqual({ ok: true, value: { letter, prefixEntities: [], content: "text", mentions: [] } });
    }
  });

  it("reads O(c=...) with optional spaces", () => {
    expect(parseFactLine("O(c=0.95) @Peter: Prefers short replies")).toEqual({
      ok: true,
      value: {
        letter: "O",
        confidence: 0.95,
        prefixEntities: ["Peter"],
        content: "Prefers short replies",
        mentions: [],
      },
    });
    for (const [c, v] of [
      ["1", 1],
      ["0", 0],
      [".5", 0.5],
      [" 0.25 ", 0.25],
    ] as const) {
      const r = parseFactLine(`O( c = ${c} ): x`);
      expect(r.ok && r.value.confidence).toBe(v);
    }
  });

  it("reads several entities before the colon, commas allowed, deduplicated", () => {
    const r = parseFactLine("W @Peter @Andy, @Peter: Went to Marrakech");
    expect(r).toEqual({
      ok: true,
      value: { letter: "W", prefixEntities: ["Peter", "Andy"], content: "Went to Marrakech", mentions: [] },
    });
  });

  it("keeps the content as written, including markup and later colons", () => {
    const r = parseFactLine("S:   Meeting at 10:30 with **@Andy**  ");
    expect(r.ok && r.value.content).toBe("Meeting at 10:30 with **@Andy**");
  });

  it.each([
    ["w @Ben: lower-case type", "W", undefined, ["Ben"], "lower-case type"],
    ["O (c=0.6) @Sam: space before the paren", "O", 0.6, ["Sam"], "space before the paren"],
    ["O(c=70%) @Sam: percent", "O", 0.7, ["Sam"], "percent"],
    ["O(0.8) @Sam: a bare number", "O", 0.8, ["Sam"], "a bare number"],
    ["O(c=.7): leading dot", "O", 0.7, [], "leading dot"],
    ["W @Priya — an em dash for the colon", "W", undefined, ["Priya"], "an em dash for the colon"],
    ["B @Sam - a hyphen for the colon", "B", undefined, ["Sam"], "a hyphen for the colon"],
    ["O(c=0.4) Hamid reckons the ferry will be late", "O", 0.4, [], "Hamid reckons the ferry will be late"],
    ["O(70%) @Lou the roof needs redoing", "O", 0.7, ["Lou"], "the roof needs redoing"],
  ])("reads %j as typed", (line, letter, confidence, entities, content) => {
    const r = parseFactLine(line);
    expect(r.ok, r.ok ? "" : r.reason).toBe(true);
    if (!r.ok) return;
    expect(r.value.letter).toBe(letter);
    expect(r.value.confidence).toBe(confidence);
    expect(r.value.prefixEntities).toEqual(entities);
    expect(r.value.content).toBe(content);
  });

  const bad: Array<[string, RegExp]> = [
    ["", /^empty list item$/],
    ["   ", /^empty list item$/],
    ["X @Peter: text", /unknown type letter "X"/],
    ["x: lower case", /unknown type letter "x"/],
    ["O(c=150%): x", /confidence 150% is outside 0\.\.1/],
    ["Note: a label", /missing type letter \(found "Note"\)/],
    [": no letter", /missing type letter: expected/],
    ["W @Peter text without colon", /missing colon after the entities/],
    ["W text without colon", /missing colon after "W"/],
    ["W", /missing colon after "W"/],
    ["W:", /empty fact: no text after the colon/],
    ["O @Peter:   ", /empty fact/],
    ["O(c=1.5): x", /confidence 1.5 is outside 0\.\.1/],
    ["O(c=-0.1): x", /confidence -0.1 is outside 0\.\.1/],
    ["O(c=high): x", /confidence "high" is not a number/],
    ["O(c=): x", /confidence "" is not a number/],
    ["O(c=0.5: x", /unclosed "\(" after O/],
    ["O(p=0.5): x", /unknown option "\(p=0.5\)"/],
    ["W(c=0.5): x", /confidence is only for opinions \(O\), not for W/],
    ["W @: x", /invalid entity "@"/],
  ];
  it.each(bad)("diagnoses %j", (line, reason) => {
    const r = parseFactLine(line);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe("entities", () => {
  it("slugs strip @, trailing punctuation and possessives, keep hyphens and Unicode", () => {
    expect(entitySlug("@The-Castle")).toBe("The-Castle");
    expect(entitySlug("@Peter.")).toBe("Peter");
    expect(entitySlug("@Peter's")).toBe("Peter");
    expect(entitySlug("@Peter’s")).toBe("Peter");
    expect(entitySlug("@ledger-sync,")).toBe("ledger-sync");
    expect(entitySlug("@Zoe\u0308")).toBe("Zoë"); // NFC
    expect(entitySlug("@张伟")).toBe("张伟");
    expect(entitySlug("@-x")).toBe("");
  });

  it("finds inline mentions but not e-mail addresses or @ inside words", () => {
    expect(findMentions("Ask @Peter. Then (@Andy's) and @Zoë, @ledger-sync; @The-Castle!")).toEqual([
      "Peter",
      "Andy",
      "Zoë",
      "ledger-sync",
      "The-Castle",
    ]);
    expect(findMentions("mail peter@example.com or a@b, path x/@y, foo-@bar, @@z")).toEqual([]);
    expect(findMentions("@Peter then @Peter again and 和@张伟")).toEqual(["Peter"]);
    expect(findMentions("和 @张伟 谈话")).toEqual(["张伟"]);
  });
});

describe("ids", () => {
  it("are 12 hex digits from date + normalised content", () => {
    const id = factId("2025-11-27", "W @Peter: In Marrakech");
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(factId("2025-11-27", "  w @peter:   in   MARRAKECH ")).toBe(id);
    expect(factId("2025-11-28", "W @Peter: In Marrakech")).not.toBe(id);
    expect(factId("2025-11-27", "B @Peter: In Marrakech")).not.toBe(id);
    expect(normaliseContent("Zoe\u0308  X")).toBe("zoë x");
  });
});
