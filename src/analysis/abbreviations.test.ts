import { describe, expect, it } from "vitest";
import { otherSpellings } from "./abbreviations.js";

describe("short forms people write for common words", () => {
  it("gives a word its short forms and a short form its word, plurals included", () => {
    expect(otherSpellings("Doctor")).toEqual(["dr"]);
    expect(otherSpellings("appts")).toEqual(["appointment"]);
    expect(otherSpellings("certificates")).toEqual(["cert", "certs"]);
    expect(otherSpellings("mins")).toEqual(["minute", "min"]);
    expect(otherSpellings("Kubernetes")).toEqual(["k8s"]);
    expect(otherSpellings("k8s")).toEqual(["kubernetes"]);
  });

  it("gives nothing for other words, nor for short forms that are mostly another word", () => {
    for (const w of ["number", "no", "document", "app", "street", "garden"]) expect(otherSpellings(w)).toEqual([]);
  });
});
