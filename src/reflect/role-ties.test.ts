import { describe, expect, it } from "vitest";
import { holderOf, reportedName } from "./holder.js";
import { lineRoleTies, roleTies, tiedEntities } from "./role-ties.js";

describe("roleTies: the person MEMORY.md says a kin or role word names", () => {
  it("reads the ways people write the tie", () => {
    const cases: [string, [string, string][]][] = [
      ["- Mum (Rita) does the till on Saturdays and Sundays.", [["mum", "Rita"]]],
      ["- Rita (mum) does the till", [["mum", "Rita"]]],
      ["- My sister Cass does the books every other Monday.", [["sister", "Cass"]]],
      ["- Kemal is the chef, here since day one; everyone calls him the chef.", [["chef", "Kemal"]]],
      ["- our accountant, Huw Pugh, files in January", [["accountant", "Huw"]]],
      ["- Huw Pugh (our accountant)", [["accountant", "Huw"]]],
      ["- Cass, my little sister, does the books", [["sister", "Cass"]]],
      ["Accountant: Huw Pugh", [["accountant", "Huw"]]],
      ["- Tasha: head barista, four days a week.", [["barista", "Tasha"]]],
      ["- the head chef is new; Jude is the head chef now", [["chef", "Jude"]]],
      ["- **Dad** (Ken) retired in May", [["dad", "Ken"]]],
      [
        "- Partner: Jonas. Sister: Ifeoma (everyone calls her Ify).",
        [
          ["partner", "Jonas"],
          ["sister", "Ifeoma"],
        ],
      ],
      ["- Husband Tomasz (works from home, IT).", [["husband", "Tomasz"]]],
      ["- Owen is the CTO.", [["cto", "Owen"]]],
      ["- Marta is our PM, ex-consultant", [["pm", "Marta"]]],
    ];
    for (const [line, ties] of cases) expect(lineRoleTies(line), line).toEqual(ties);
  });

  it("ties no one where the words only sit near each other", () => {
    for (const line of [
      "- Mum and Rita went to the market",
      "- the chef at Rita's place does a great brunch",
      "- Kemal is the chef's brother",
      "- my sister and Cass are both at uni",
      "- Dad drove. Rita sat in the back",
      "- Kemal is the chef at the Crown",
      "- Landlord: Mr Osei. Rent due on the 1st.",
      "- Dr. Okafor — my physio, Tuesdays.",
      "- Builder Bob came round",
    ])
      expect(lineRoleTies(line), line).toEqual([]);
  });

  it("leaves a word two names share untied, and keeps the rest", () => {
    const ties = roleTies(
      "- my sister Cass does the books\n- my sister Jo lives in Leeds\n- Mum (Rita) does the till\n- Rita, my mum, hates Sundays",
    );
    expect(ties).toEqual(new Map([["mum", "Rita"]]));
    // Two Sams: "the physio" is Sam Okoro, but a page "Sam" would say not which.
    expect(roleTies("- Sam Whitlock is our keeper; Sam Okoro is the club physio, Tuesday nights only.")).toEqual(
      new Map(),
    );
  });
});

describe("a holder named by kin or role is the person tied to the word", () => {
  const roles = roleTies("- Mum (Rita) does the till\n- Kemal is the chef\n- my sister Cass does the books");

  it("gives the belief to the person, however the word is written", () => {
    expect(holderOf(["Dom"], "mum reckons opening on sundays isnt worth it", roles)).toBe("rita");
    expect(holderOf(["Dom"], "Mum still says sundays are dead", roles)).toBe("rita");
    expect(holderOf(["Dom"], "the head chef says the brunch menu will flop", roles)).toBe("kemal");
    expect(reportedName(["Dom"], "my sister thinks the card fees are robbery", roles)).toBe("Cass");
  });

  it("keeps the word when no one is tied to it, or no tie is given", () => {
    expect(holderOf(["Dom"], "dad reckons the parking scheme is a joke", roles)).toBe("dad");
    expect(holderOf(["Dom"], "mum reckons opening on sundays isnt worth it")).toBe("mum");
    expect(holderOf(["Dom"], "the card machine is rubbish", roles)).toBe("dom");
  });

  it("reads a work role, and a person MEMORY.md names written in lower case, 'says' included", () => {
    const work = roleTies("- Owen is the CTO.\n- Marta is our PM.\n- my partner Luis works in events");
    expect(holderOf(["Ines"], "our cto is convinced rewriting billing in rust will pay off", work)).toBe("owen");
    expect(reportedName(["Ines"], "marta thinks nobody cares about dark mode", work)).toBe("Marta");
    expect(reportedName(["Ines"], "marta says still nobody is asking for dark mode", work)).toBe("Marta");
    expect(reportedName(["Ines"], "owen has gone a bit cold on the rust rewrite", work)).toBe("Owen");
    // Not a person MEMORY.md names: "recipe says" and "sat nav said" report no one.
    expect(holderOf(["Ines"], "the recipe says two eggs is plenty", work)).toBe("ines");
    expect(holderOf(["Ines"], "recipe says two eggs is plenty", work)).toBe("ines");
  });

  it("moves an opinion made before the tie to the person, and leaves others alone", () => {
    const sundays = "mum reckons opening on sundays isnt worth it";
    expect(tiedEntities(["Dom", "mum"], sundays, roles)).toEqual(["Dom", "Rita"]);
    expect(tiedEntities(["Dom", "Rita"], sundays, roles)).toEqual(["Dom", "Rita"]);
    expect(tiedEntities(["Dom", "dad"], "dad reckons the parking scheme is a joke", roles)).toEqual(["Dom", "dad"]);
    // "mum" as a topic, not the holder: the opinion is Dom's.
    expect(tiedEntities(["Dom", "mum"], "the till is easier for mum now", roles)).toEqual(["Dom", "mum"]);
  });
});
