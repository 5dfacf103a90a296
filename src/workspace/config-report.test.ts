import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { configSchema } from "./config.js";
import { describeJsonError, jsonErrorOffset, keysAt, nearest } from "./config-report.js";

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonError(text, error as Error);
  }
  throw new Error("parsed");
}

describe("config errors", () => {
  it("JSON syntax errors give line and column, whatever V8 says", () => {
    expect(jsonError('{\n  "search": {\n    "maxResults": 3,\n  }\n}\n')).toBe(
      "line 4, column 3: Expected double-quoted property name",
    );
    // V8 gives no position for this one.
    expect(jsonError('{\n  "reflect": tru\n}')).toBe("line 2, column 17: Unexpected token '\\n'");
    expect(jsonError("{'a': 1}")).toMatch(/^line 1, column 2: /);
    expect(jsonError('{"a": 1')).toMatch(/^line 1, column 8: /);
    expect(jsonError('{"a": 1}\n}')).toMatch(/^line 2, column 1: Unexpected non-whitespace/);
    expect(jsonError('{"a": "x\\q"}')).toMatch(/^line 1, column 10: Bad escaped character/);
  });

  it("property: the scanner accepts exactly what JSON.parse accepts", () => {
    const texts = fc.oneof(
      fc.json(),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
      fc.string({ unit: fc.constantFrom("{", "}", "[", "]", '"', ":", ",", "1", "-", "e", ".", " ", "\\", "u", "t") }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        expect(jsonErrorOffset(text) === undefined).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  it("knows the keys at a nested path and suggests the nearest one", () => {
    expect(keysAt(configSchema, ["reflect", "git"])).toEqual(["commit", "authorName", "authorEmail"]);
    expect(keysAt(configSchema, ["embedding", "openai", "headers"])).toEqual([]);
    expect(nearest("comit", ["commit", "authorName", "authorEmail"])).toBe("commit");
    expect(nearest("maxResult", keysAt(configSchema, ["search"]))).toBe("maxResults");
    expect(nearest("bogus", keysAt(configSchema, ["embedding"]))).toBeUndefined();
  });
});
