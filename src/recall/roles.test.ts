import { describe, expect, it } from "vitest";
import { readCoreMemory } from "./entity-profile.js";
import { roleEntities } from "./roles.js";

const core = [
  "# Core",
  "- Bookkeeper: Oluwaseun Bello, invoices monthly, did the HMO paperwork.",
  "- my dentist is Dr Farrokh Nazari; the practice nurse is Imelda.",
  "- head of department: Grainne. deputy head of department: Tobias.",
  "- Flat 2 is Imelda's sister Rosa. Flat 3 is Tobias's cousin.",
].map((text, i) => ({ line: i + 1, text }));
const profiles = readCoreMemory(core, [
  { slug: "Oluwaseun", names: ["Oluwaseun"] },
  { slug: "Nazari", names: ["Nazari"] },
  { slug: "Imelda", names: ["Imelda"] },
  { slug: "Grainne", names: ["Grainne"] },
  { slug: "Tobias", names: ["Tobias"] },
]);

describe("roleEntities: the person a question names by the role MEMORY.md gives them", () => {
  it("finds the one entity whose core-memory words hold the role", () => {
    expect(roleEntities("did the bookkeeper send anything last month?", profiles)).toEqual(["Oluwaseun"]);
    expect(roleEntities("what did my dentist say about the crown?", profiles)).toEqual(["Nazari"]);
    // A role right after another determiner's words: "the name of" does not hide "my dentist".
    expect(roleEntities("what's the name of my dentist's receptionist?", profiles)).toEqual(["Nazari"]);
    expect(roleEntities("what did the practice nurse say about the jab", profiles)).toEqual(["Imelda"]);
  });

  it("a longer role wins over a shorter one that several share", () => {
    expect(roleEntities("when does our deputy head of department retire?", profiles)).toEqual(["Tobias"]);
  });

  it("no one for a word several entities share, a capitalised word or a word no role holds", () => {
    expect(roleEntities("who is in the flat upstairs?", profiles)).toEqual([]);
    expect(roleEntities("how much was the HMO paperwork", profiles)).toEqual([]);
    expect(roleEntities("where did I put the ladder?", profiles)).toEqual([]);
  });

  it("a role's words before another noun only describe that noun; before a verb or a time they are the role", () => {
    const garden = readCoreMemory(
      ["- I grow tomatoes and leeks at the allotment, next to Dot's plot.", "- Mechanic: Tomasz Wrona."].map(
        (text, i) => ({ line: i + 1, text }),
      ),
      [
        { slug: "Dot", names: ["Dot"] },
        { slug: "Tomasz", names: ["Tomasz"] },
      ],
    );
    expect(roleEntities("what did the leek judge say?", garden)).toEqual(["Dot"]); // "did" before: "judge" is the verb
    expect(roleEntities("when is the leek auction?", garden)).toEqual([]);
    expect(roleEntities("when is the leek show?", garden)).toEqual([]);
    expect(roleEntities("did the mechanic show up?", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("what did the tomato inspector find?", garden)).toEqual([]);
    expect(roleEntities("did the mechanic finally ring?", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("who won the tomato contest", garden)).toEqual([]);
    expect(roleEntities("what is the mechanic charging?", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("how much did I pay the mechanic last week?", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("what's the mechanic's number", garden)).toEqual(["Tomasz"]);
    // A meeting with the person, or their charge, is theirs; a thing of the same words is not.
    expect(roleEntities("when is my mechanic appointment?", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("how much was the mechanic invoice", garden)).toEqual(["Tomasz"]);
    expect(roleEntities("how big was my leek harvest?", garden)).toEqual([]);
  });
});
