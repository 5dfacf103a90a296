import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportedNameOf } from "../src/reflect/holder.js";

// reportedNameOf tries a report pattern only on a text holding one of its words (holder.ts
// NEEDED_*): V8 compiles each pattern on its first use, so a night whose statements hold none
// of a pattern's words never pays for it. Leaving a pattern out must never change a holder.

const LEADS = ["", "apparently ", "Btw, ", "and ", '"', "so, ", "even ", "ſo, ", " “Honestly, "];
const DESCRIBED = ["", "my manager ", "our new CTO ", "the ", "The ", "our "];
const NAMES = [
  "Rosa",
  "@Priya",
  "Rao uncle",
  "Sharma ji",
  "Dev",
  "Zoë",
  "O'Neil",
  "everyone",
  "Finance",
  "ſam",
  "\u212Aai",
  "Li",
  "J",
  // kin and roles, lower-case names, and none ("Thinks the plan will work", as O facts are written)
  "mum",
  "Mum",
  "gran",
  "chef",
  "head chef",
  "landlord",
  "priya",
  "tasha, to be fair,",
  "still",
  "",
];
const VERBS = [
  "thinks",
  "THINKS",
  "thin\u212As",
  "believes",
  "reckons",
  "reckoned",
  "figures",
  "figured out",
  "insists",
  "argues",
  "suspects",
  "maintains",
  "swears",
  "keeps saying",
  "was arguing",
  "is insisting",
  "is telling that",
  "keeps telling everyone that",
  "is agreeing now that",
  "was also agreeing with",
  "admits",
  "admitted",
  "concedes",
  "conceded",
  "doubled down",
  "came around",
  "has come round",
  "changed her mind",
  "backtracked",
  "backpedalled",
  "u-turned",
  "still stands by",
  "doesn't think",
  "no longer believe",
  "'s come round",
  "’s doubled down",
  "is convinced",
  "was adamant",
  "'s pretty sure",
  "is 100% certain",
  "is positive",
  "is confident",
  "feels",
  "says",
  "said",
  "claims",
  "expects",
  "predicts",
  "mentioned",
  "told me",
  "told the team",
  "pointed out",
  "felt",
  "and Dev both think",
  "& Rosa agree",
  "has gone quiet about it, says",
  "went silent, and said",
];
const OPENERS = [
  "according to",
  "According To",
  "per",
  "in the words of",
  "as",
  "heard from",
  "learned via",
  "hear from",
];
const CLOSERS = [
  "puts it",
  "put it",
  "says",
  "said",
  "sees it",
  "would say",
  "'s view",
  "’s take",
  "'s opinion",
  "'s position",
  "'s feeling",
  "'s belief",
  "'s words",
  "'s read",
];
const REST = [
  "",
  " that the grant is dead",
  " the plan will work",
  ", bless her,",
  " it's probably fine",
  " he was wrong",
  ": ship it",
  ", the rollout is late",
  " we should wait.",
];
const TAILS = [
  "",
  ", says Rosa",
  " — Rosa thought",
  " — Priya thinks",
  " (per Dev)",
  "; according to @Li.",
  ", Zoë reckoned!",
  " - said Dev",
];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const statement = fc.oneof(
  fc
    .tuple(pick(LEADS), pick(DESCRIBED), pick(NAMES), pick(VERBS), pick(REST), pick(TAILS))
    .map(([l, d, n, v, r, t]) => `${l}${d}${n} ${v}${r}${t}`),
  fc
    .tuple(pick(LEADS), pick(OPENERS), pick(NAMES), pick(CLOSERS), pick(REST), pick(TAILS))
    .map(([l, o, n, c, r, t]) => `${l}${o} ${n}${c.startsWith("'") || c.startsWith("’") ? "" : " "}${c}${r}${t}`),
  fc
    .tuple(pick(LEADS), pick(NAMES), pick(CLOSERS), pick(REST), pick(TAILS))
    .map(([l, n, c, r, t]) => `${l}${n}${c.startsWith("'") || c.startsWith("’") ? "" : " "}${c}${r}${t}`),
  fc.tuple(pick(REST), pick(TAILS)).map(([r, t]) => `The release slipped${r}${t}`),
  fc.tuple(pick(VERBS), pick(REST), pick(TAILS)).map(([v, r, t]) => `${v[0]!.toUpperCase()}${v.slice(1)}${r}${t}`),
);
const entities = fc.subarray(["Rosa", "Priya", "Dev", "Zoë", "O'Neil", "Li", "Kai", "sam", "J"]);

describe("report patterns tried only on texts holding their words", () => {
  it("name the same holder as trying every pattern", () => {
    fc.assert(
      fc.property(entities, statement, (ents, text) => {
        expect(reportedNameOf(ents, text)?.name).toBe(reportedNameOf(ents, text, false)?.name);
      }),
      { numRuns: 10000, seed: 16 },
    );
  });

  it("name the same holder for every report word, name and form, tagged or not", () => {
    const texts: string[] = [];
    for (const n of NAMES)
      for (const r of ["", " that the grant is dead", ", bless her, it's fine"]) {
        for (const v of VERBS) texts.push(`${n} ${v}${r}`, `my manager ${n}, to be fair, ${v}${r}`);
        for (const o of OPENERS)
          for (const c of CLOSERS) texts.push(`${o} ${n}${c.startsWith("'") ? "" : " "}${c}${r}`);
        for (const o of OPENERS) texts.push(`${o} ${n}${r}`);
        for (const t of TAILS) texts.push(`The plan will work${r}${t}`);
      }
    let found = 0;
    for (const text of texts)
      for (const ents of [[], ["Rosa", "Priya", "Dev", "Zoë", "O'Neil", "Li", "Kai", "sam", "J"]]) {
        const all = reportedNameOf(ents, text, false)?.name;
        if (all !== undefined) found++;
        expect(reportedNameOf(ents, text)?.name, text).toBe(all);
      }
    expect(found).toBeGreaterThan(texts.length / 2); // most of these do report someone
  });

  it("still find the reports people write", () => {
    expect(reportedNameOf(["Rosa"], "my manager Rosa thinks we should ship it")?.name).toBe("Rosa");
    expect(reportedNameOf([], "Apparently Dev is pretty sure the grant is dead")?.name).toBe("Dev");
    expect(reportedNameOf(["Priya"], "in the words of @Priya, ship it")?.name).toBe("Priya");
    expect(reportedNameOf([], "The release slipped, says Rosa")?.name).toBe("Rosa");
    expect(reportedNameOf([], "Ash has gone quiet about the grant, says it's probably dead")?.name).toBe("Ash");
    expect(reportedNameOf(["Kai"], "\u212Aai thin\u212As the plan will work")?.name).toBe("Kai");
  });
});
