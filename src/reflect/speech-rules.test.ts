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
  it("does not tie two beliefs by 'like', 'gonna', 'pretty', 'well' or 'didnt'", () => {
    const ferry = rob("im like pretty sure the ferry is gonna be cancelled well it didnt sail last week");
    expect(topicScore(ferry, rob("the new bakery is like gonna be huge well it didnt open yet"), k)).toBe(0);
    expect(topicScore(ferry, rob("the ferry is definitely gonna be cancelled again"), k)).toBeGreaterThan(0);
  });
});

describe("topicScore: a name mentioned in passing", () => {
  const known = new KnownNames([
    ["Rob", "2026-01-01"],
    ["Sam", "2026-01-01"],
    ["Priya", "2026-01-01"],
  ]);
  const rob = (s: string) => topicOf(["Rob"], s, known);
  it("is no anchor when the belief judges someone else", () => {
    const landlord = rob("our landlord priya is brilliant sam loves her");
    expect(topicScore(landlord, rob("sam still hates the new school"), k)).toBe(0);
    expect(topicScore(landlord, rob("priya fixed the boiler the same day"), k)).toBeGreaterThan(0);
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
