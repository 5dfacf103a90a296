// Dictated and thumbed notes (beliefs-13's rules) as reflect reads them, in other writers' words.
import { describe, expect, it } from "vitest";
import { parseRetain } from "../retain/index.js";
import type { Fact } from "../retain/types.js";
import { holderOf } from "./holder.js";
import { judgeSync } from "./judge.js";
import { KnownNames, topicOf, topicScore } from "./topic.js";

function line(text: string, date = "2026-05-12"): Fact {
  const { facts, diagnostics } = parseRetain(`memory/${date}.md`, `# ${date}\n\n## Retain\n${text}\n`);
  expect(diagnostics).toEqual([]);
  return facts[0]!;
}

const k = { restateSimilarity: 0.45 };

describe("topicScore: words of talk", () => {
  const known = new KnownNames([["Rob", "2026-01-01"]]);
  const rob = (s: string) => topicOf(["Rob"], s, known);
  it("does not tie two beliefs by 'like' or 'yeah'", () => {
    const ferry = rob("the ferry is like always late yeah");
    expect(topicScore(ferry, rob("the bakery is like always busy yeah"), k)).toBe(0);
    expect(topicScore(ferry, rob("the ferry is like late again yeah"), k)).toBeGreaterThan(0);
  });
});

describe("topicScore: a name mentioned in passing", () => {
  const known = KnownNames.fromFacts([{ entities: ["Rob", "Noah", "Priya"], date: "2026-01-01" }]);
  const rob = (s: string) => topicOf(["Rob"], s, known, "2026-05-01");
  it("is no anchor when the belief judges someone else", () => {
    const cleaner = topicOf(
      ["Rob", "Priya"],
      "honestly our new cleaner priya is great noah adores her",
      known,
      "2026-05-01",
    );
    expect(topicScore(cleaner, rob("six weeks of piano and noah still wont practise"), k)).toBe(0);
    expect(topicScore(cleaner, rob("priya left the kitchen spotless"), k)).toBeGreaterThan(0);
  });
});

describe("holderOf: 'is coming round to'", () => {
  it("gives the view to whoever is coming round", () => {
    expect(holderOf(["Rob", "Jess"], "jess is finally coming round to the allotment idea")).toBe("jess");
    expect(holderOf(["Rob", "Jess"], "Jess is actually coming round to the camper van")).toBe("jess");
  });
});

describe("judgeSync: forecasts and concessions", () => {
  it("reads the forecast's verb in the past as the forecast come true", () => {
    const library = {
      statement: "I reckon the council will close the library by summer",
      entities: ["Rob"],
      confidence: 0.6,
    };
    expect(judgeSync(library, line("- W @Rob: the library closed for good on friday")).stance).toBe("support");
  });

  it("reads a concession as turning a negated belief", () => {
    const allotment = {
      statement: "dad reckons the allotment isnt worth the rent",
      entities: ["Rob"],
      confidence: 0.6,
    };
    expect(judgeSync(allotment, line("- O @Rob: dad admits the allotment is worth keeping after all")).stance).toBe(
      "contradict",
    );
  });
});
