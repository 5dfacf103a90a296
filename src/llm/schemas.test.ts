import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractionAnswer, extractJson, judgementAnswer, summaryAnswer, validateAnswer } from "./schemas.js";

describe("extractJson", () => {
  it("reads bare JSON, fenced JSON and JSON inside prose", () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
    expect(extractJson('```json\n{"a": [1, 2]}\n```')).toEqual({ a: [1, 2] });
    expect(extractJson('Here you go: {"a": "}"} Hope that helps.')).toEqual({ a: "}" });
    expect(extractJson("no json here")).toBeUndefined();
    expect(extractJson("{broken")).toBeUndefined();
  });

  it("property: any JSON object survives surrounding prose without braces", () => {
    const prose = fc.string({ unit: fc.constantFrom(..."abc .,:\n`") });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), prose, prose, (obj, before, after) => {
        expect(extractJson(`${before}${JSON.stringify(obj)}${after}`)).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
  });
});

describe("answer schemas", () => {
  it("accepts a judgement and normalises its reason to one line", () => {
    expect(validateAnswer(judgementAnswer, '{"stance":"support","strength":1,"reason":" a\\n b "}')).toEqual({
      ok: true,
      value: { stance: "support", strength: 1, reason: "a b" },
    });
  });

  it("rejects judgements out of range or of an unknown stance, saying where", () => {
    const bad = [
      ['{"stance":"support","strength":1.5,"reason":"x"}', /^strength: /],
      ['{"stance":"maybe","strength":0.5,"reason":"x"}', /^stance: /],
      ['{"stance":"support","strength":"high","reason":"x"}', /^strength: /],
      ['{"stance":"support","strength":0.5,"reason":""}', /^reason: /],
      ['{"stance":"support","strength":0.5}', /^reason: /],
      ["[1,2]", /expected object/i],
      ["nope", /^answer is not JSON$/],
    ] as const;
    for (const [text, reason] of bad) {
      const result = validateAnswer(judgementAnswer, text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
    }
  });

  it("limits summaries to 1-3 sentences", () => {
    expect(validateAnswer(summaryAnswer, '{"summary":"One. Two! Three?"}').ok).toBe(true);
    const four = validateAnswer(summaryAnswer, '{"summary":"One. Two. Three. Four."}');
    expect(four).toEqual({ ok: false, reason: "summary: summary must be 1-3 sentences" });
    expect(validateAnswer(summaryAnswer, '{"summary":"   "}').ok).toBe(false);
  });

  it("validates extracted facts: kind letters, entity names, confidence range, one-line content", () => {
    const ok = validateAnswer(
      extractionAnswer,
      JSON.stringify({
        facts: [
          { kind: "O", entities: [" @Priya "], confidence: 0.4, content: "Likes\ntea." },
          { kind: "W", entities: [], content: "No confidence key at all." },
        ],
      }),
    );
    expect(ok).toEqual({
      ok: true,
      value: {
        facts: [
          { kind: "O", entities: ["Priya"], confidence: 0.4, content: "Likes tea." },
          { kind: "W", entities: [], content: "No confidence key at all." },
        ],
      },
    });
    const bad = [
      { kind: "X", entities: [], confidence: null, content: "c" },
      { kind: "O", entities: [], confidence: 2, content: "c" },
      { kind: "W", entities: ["@"], confidence: null, content: "c" },
      { kind: "W", entities: [], confidence: null, content: "x".repeat(501) },
    ];
    for (const f of bad) expect(validateAnswer(extractionAnswer, JSON.stringify({ facts: [f] })).ok).toBe(false);
    expect(validateAnswer(extractionAnswer, '{"facts":[]}')).toEqual({ ok: true, value: { facts: [] } });
  });
});
