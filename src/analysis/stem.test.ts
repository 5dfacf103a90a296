import { describe, expect, it } from "vitest";
import { porterStem } from "./stem.js";

describe("porterStem", () => {
  // Reference outputs of Porter's algorithm (the examples of the 1980 paper, and words of our logs).
  it.each([
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["cats", "cat"],
    ["agreed", "agre"],
    ["plastered", "plaster"],
    ["motoring", "motor"],
    ["sing", "sing"],
    ["hopping", "hop"],
    ["filing", "file"],
    ["happy", "happi"],
    ["relational", "relat"],
    ["generalization", "gener"],
    ["hopefulness", "hope"],
    ["adjustment", "adjust"],
    ["adoption", "adopt"],
    ["controll", "control"],
  ])("%s -> %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it("gives inflections of one word one form", () => {
    expect(new Set(["ship", "ships", "shipped", "shipping"].map(porterStem)).size).toBe(1);
    expect(new Set(["believe", "believes", "believed"].map(porterStem)).size).toBe(1);
  });

  it("leaves short words and words with digits alone", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("v2s")).toBe("v2s");
  });
});
