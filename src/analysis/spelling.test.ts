import { describe, expect, it } from "vitest";
import { oneEditAway } from "./spelling.js";

describe("oneEditAway", () => {
  it("holds a dropped, swapped, changed or extra letter's fix", () => {
    expect(oneEditAway("cluch")).toContain("clutch");
    expect(oneEditAway("ceasarean")).toContain("caesarean");
    expect(oneEditAway("helth")).toContain("health");
    expect(oneEditAway("vaccinne")).toContain("vaccine");
    expect(oneEditAway("recipt")).toContain("receipt");
    expect(oneEditAway("frmer")).toContain("farmer");
  });

  it("leaves out the word itself and words two edits away, and reads only a-z words", () => {
    expect(oneEditAway("clutch")).not.toContain("clutch");
    expect(oneEditAway("cluch")).not.toContain("clutches");
    expect(oneEditAway("café")).toEqual([]);
    expect(oneEditAway("ab")).toEqual([...new Set(oneEditAway("ab"))].sort());
  });
});
