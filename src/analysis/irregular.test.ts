import { describe, expect, it } from "vitest";
import { irregularBase, verbForms } from "./irregular.js";
import { porterStem } from "./stem.js";

describe("irregular verbs", () => {
  it("a present-tense word asks for its past forms, and a past form for the present", () => {
    expect(verbForms("bring")).toEqual(["brought"]);
    expect(verbForms("brought")).toEqual(["bring"]);
    expect(verbForms("ran")).toEqual(["run"]);
    expect(verbForms("drive")).toEqual(["drove", "driven"]);
    expect(verbForms("Bought")).toEqual(["buy"]);
    // the third person is the verb too
    expect(verbForms("teaches")).toEqual(["taught"]);
    expect(verbForms("sells")).toEqual(["sold"]);
  });

  it("never lists a form Porter already joins to the word", () => {
    for (const w of ["pay", "paid", "take", "taken", "write", "written", "eat", "swim"]) {
      const own = porterStem(w);
      for (const f of verbForms(w)) expect(porterStem(f), `${w} -> ${f}`).not.toBe(own);
    }
  });

  it("never lists a form Porter stems into a stop word ('ate' is indexed as 'at')", () => {
    expect(verbForms("eat")).toEqual(["eaten"]);
    expect(verbForms("eaten")).toEqual(["eat"]);
    // "show" is a stop word as written, not by stemming: "shown" still asks for it.
    expect(verbForms("shown")).toEqual(["show"]);
  });

  it("leaves other words alone, and forms that are mostly other words", () => {
    for (const w of ["bike", "spoke", "bit", "sat", "left", "saw", "meeting", "building", "rings", "flood"])
      expect(verbForms(w), w).toEqual([]);
  });

  it("gives the base form of a past form only", () => {
    expect(irregularBase("brought")).toBe("bring");
    expect(irregularBase("thought")).toBe("think");
    expect(irregularBase("bring")).toBeUndefined();
    expect(irregularBase("walked")).toBeUndefined();
  });
});
