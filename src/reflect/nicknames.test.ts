import { describe, expect, it } from "vitest";
import { nicknameTies } from "./nicknames.js";

describe("nicknames a line ties to a name", () => {
  it.each([
    ["- Work bestie is Rachel Stein (Rach).", [["Rachel", "Rach"]]],
    ['- Daughter Lucía ("Lulu"), 4, at nursery.', [["Lucía", "Lulu", "Daughter"]]],
    ["- Husband Tomás Reyes, I call him Tom.", [["Tomás", "Tom", "Husband"]]],
    // The word before a nearest name that may be a surname: the caller picks the one the logs use.
    ["- Rebecca Shaw (Bex), best friend since Year 7.", [["Shaw", "Bex", "Rebecca"]]],
    ["- Sister: Ifeoma (everyone calls her Ify)", [["Ifeoma", "Ify"]]],
    ["Lunch with Kwabena aka Kobby and Efua.", [["Kwabena", "Kobby"]]],
  ])("%j", (line, ties) => {
    expect(nicknameTies(line)).toEqual(ties);
  });

  it("ties nothing across a sentence, nor a parenthesis that is no nickname", () => {
    expect(nicknameTies("Met Dana. Everyone calls her boss Jo.")).toEqual([]);
    expect(nicknameTies("Dinner with Priya (at Nando's).")).toEqual([]);
    expect(nicknameTies("Paid Sal (Tuesday)")).toEqual([]);
  });
});

it("ties no full name in parentheses to the word before it", () => {
  expect(nicknameTies("Call went fine (Dana Whitfield ran it).")).toEqual([]);
  expect(nicknameTies("Met the new lead today (Rosa Lind)")).toEqual([]);
  expect(nicknameTies("Coffee with Marta after work (Bea)")).toEqual([]);
});
