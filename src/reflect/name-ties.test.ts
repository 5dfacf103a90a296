import { describe, expect, it } from "vitest";
import { accentTies, initialTies, surnameTies } from "./name-ties.js";
import { scanProse } from "./prose.js";

const uses = (entries: [string, number][]) =>
  new Map(entries.map(([name, count]) => [name.toLowerCase(), { name, count }]));

describe("accentTies", () => {
  it("ties the plain spelling of a name to the accented one the logs use more", () => {
    const ties = accentTies(
      uses([
        ["Chloé", 5],
        ["Chloe", 2],
        ["Renée", 1],
        ["Renee", 4],
      ]),
      new Map(),
    );
    expect(ties).toEqual(
      new Map([
        ["chloe", "Chloé"],
        ["renée", "Renee"],
      ]),
    );
  });

  it("an entity with facts wins over the logs' counts; two with facts stay two", () => {
    expect(accentTies(uses([["Noël", 9]]), new Map([["noel", "Noel"]]))).toEqual(new Map([["noël", "Noel"]]));
    const both = new Map([
      ["noel", "Noel"],
      ["noël", "Noël"],
    ]);
    expect(accentTies(uses([["Noel", 3]]), both)).toEqual(new Map());
  });

  it("names that differ by more than accents are not tied", () => {
    expect(
      accentTies(
        uses([
          ["Lena", 3],
          ["Léa", 2],
          ["Lea", 1],
        ]),
        new Map(),
      ),
    ).toEqual(new Map([["lea", "Léa"]]));
  });
});

describe("surnameTies", () => {
  const core = scanProse(
    [
      "- Landlady: Mrs Gwendolyn Pryce-Owen, lives downstairs",
      "- Physio is Tomasz Wierzbicki, Tuesdays",
      "- Grew up in New York, moved 2019",
      "- the twins: Aoife Brennan and Cian Brennan",
    ].join("\n"),
  );
  it("a surname the logs use after a title names the person MEMORY.md gives in full", () => {
    const logs = scanProse("Mr Wierzbicki says the knee is fine\nasked Mrs Pryce-Owen about the bins");
    const titled = new Set(logs.flatMap((l) => l.t ?? []).map((n) => n.toLowerCase()));
    expect(titled).toEqual(new Set(["wierzbicki", "pryce-owen"]));
    expect(surnameTies(core, titled)).toEqual(
      new Map([
        ["pryce-owen", "Gwendolyn"],
        ["wierzbicki", "Tomasz"],
      ]),
    );
  });

  it("no tie for a second word never seen after a title, or a surname two people share", () => {
    expect(surnameTies(core, new Set(["brennan"]))).toEqual(new Map());
    expect(surnameTies(core, new Set())).toEqual(new Map());
  });
});

describe("initialTies", () => {
  const titled = (text: string) =>
    new Set(
      scanProse(text)
        .flatMap((l) => l.t ?? [])
        .map((n) => n.toLowerCase()),
    );
  it('"Mr K" and "Dr N" are the one titled surname with that initial', () => {
    const t = titled("Mr Kowalski moved him\nMr K said solid, but\nDr N's receptionist rang\nbook Dr Nwosu");
    expect(t).toEqual(new Set(["kowalski", "mr k", "dr n", "nwosu"]));
    expect(initialTies(t)).toEqual(
      new Map([
        ["mr k", "kowalski"],
        ["dr n", "nwosu"],
      ]),
    );
  });
  it("ties no initial two surnames share, none no surname has, and no first initial", () => {
    expect(initialTies(titled("Mr Kowalski\nMrs Kaur\nMr K said"))).toEqual(new Map());
    expect(initialTies(titled("Dr B said rest"))).toEqual(new Map());
    expect(titled("Mr J Smith came").has("mr j")).toBe(false);
  });
});
