import { describe, expect, it } from "vitest";
import { otherSpellings, sameThing } from "./abbreviations.js";

describe("short forms people write for common words", () => {
  it("gives a word its short forms and a short form its word, plurals included", () => {
    expect(otherSpellings("Doctor")).toEqual(["dr"]);
    expect(otherSpellings("appts")).toEqual(["appointment"]);
    expect(otherSpellings("genny")).toEqual(["generator"]);
    expect(otherSpellings("certificates")).toEqual(["cert", "certs"]);
    expect(otherSpellings("mins")).toEqual(["minute", "min"]);
    expect(otherSpellings("Kubernetes")).toEqual(["k8s", "kube"]);
    expect(otherSpellings("k8s")).toEqual(["kubernetes", "kube"]);
  });

  it("gives nothing for other words, nor for short forms that are mostly another word", () => {
    for (const w of ["number", "no", "document", "app", "street", "garden"]) expect(otherSpellings(w)).toEqual([]);
  });
});

describe("sameThing: the one word matching reads for a thing's spellings", () => {
  it("reads a short form, a plural and an interchangeable noun as one word", () => {
    expect(sameThing("k8s")).toBe(sameThing("kubernetes"));
    expect(sameThing("veggies")).toBe(sameThing("vegetables"));
    expect(sameThing("repos")).toBe(sameThing("repository"));
    expect(sameThing("lecs")).toBe(sameThing("lecture"));
    expect(sameThing("roster")).toBe(sameThing("rota"));
    expect(sameThing("schedule")).toBe(sameThing("rota"));
    expect(sameThing("garden")).toBe("garden");
  });
});
