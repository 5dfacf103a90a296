import { describe, expect, it } from "vitest";
import { porterStem, stemFamily } from "./stem.js";

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

describe("stemFamily: one stem for a verb in -nd and its noun in -nse/-nce", () => {
  it("joins defend/defence/defense/defensive, expand/expansion, respond/response", () => {
    const family = (w: string) => stemFamily(porterStem(w));
    for (const w of ["defence", "defense", "defensive", "defending", "defended"]) expect(family(w), w).toBe("defend");
    expect(family("expansion")).toBe(family("expanding"));
    expect(family("response")).toBe(family("respond"));
    expect(family("offensive")).toBe(family("offended"));
  });

  it("keeps short stems and look-alikes apart: sense/send, intense/intend, tense/tend", () => {
    const family = (w: string) => stemFamily(porterStem(w));
    expect(family("sense")).not.toBe(family("send"));
    expect(family("intense")).not.toBe(family("intend"));
    expect(family("tense")).not.toBe(family("tend"));
    expect(family("commence")).not.toBe(family("commend"));
  });
});
