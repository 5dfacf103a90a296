// Which side a comparison takes, so two comparisons of the same things agree or disagree
// though both praise something and neither says "not".
import { describe, expect, it } from "vitest";
import { backToClaim, favouredSide, turnsRound } from "./sides.js";

const won = (text: string) => [...(favouredSide(text)?.won ?? [])];

describe("favouredSide", () => {
  it.each([
    ["Kotlin is nicer than Java for the Android app", ["kotlin"]],
    ["Java is more painful than Kotlin", ["kotlin"]],
    ["honestly Java might be less painful than Kotlin here", ["java"]],
    ["Caddy beats Nginx for a box this small", ["caddi"]],
    ["we picked Caddy over Nginx", ["caddi"]],
  ])("%s -> %j", (text, side) => {
    expect(won(text)).toEqual(side);
  });

  it("says nothing of a text that names no rival or does not judge", () => {
    expect(favouredSide("Kotlin is nice")).toBeUndefined();
    expect(favouredSide("Kotlin has more modules than Java")).toBeUndefined();
  });
});

describe("turnsRound: an answer put in place of the claim's", () => {
  it("reads '..., not <what the claim said>' as turning the claim round, and only that", () => {
    const claim = "Noor suspects the damp in the bedroom is rising damp from the garden";
    expect(turnsRound(claim, "Noor now says the damp is condensation from drying laundry, not rising damp")).toBe(true);
    expect(turnsRound(claim, "surveyor says it's condensation rather than rising damp")).toBe(true);
    // Sets aside something the claim never said: no turn.
    expect(turnsRound(claim, "the damp is rising damp from the garden, not the gutters")).toBeUndefined();
    expect(turnsRound(claim, "rising damp from the garden, not a leak")).toBeUndefined();
  });
});

describe("turnsRound", () => {
  const claim = "Postgres is a better fit than Mongo for the ledger";
  it("reads a comparison favouring the rival as turned, one favouring the same side as not", () => {
    expect(turnsRound(claim, "starting to think Mongo might be less of a pain than Postgres")).toBe(true);
    expect(turnsRound(claim, "Mongo is simpler than Postgres for this")).toBe(true);
    expect(turnsRound(claim, "Mongo is worse than Postgres, no contest")).toBe(false);
    expect(turnsRound(claim, "Postgres is great")).toBeUndefined();
  });
});

describe("backToClaim", () => {
  const claim = "Postgres is a better fit than Mongo for the ledger";
  const recants = (c: string) => /scratch that|was wrong/i.test(c);
  it("reads a take-back of a turn to the rival, with the claim's side winning, as the claim held", () => {
    expect(backToClaim(claim, ["I was wrong about Mongo", " Postgres wins for the ledger"], recants)).toBe(
      "Postgres wins for the ledger",
    );
  });
  it("leaves a take-back of the claim itself, or one with no side named again, alone", () => {
    expect(backToClaim(claim, ["I was wrong about Postgres", " Mongo wins"], recants)).toBeUndefined();
    expect(backToClaim(claim, ["scratch that about Mongo"], recants)).toBeUndefined();
    expect(backToClaim(claim, ["I was wrong about Mongo", " Postgres is painful too"], recants)).toBeUndefined();
  });
});
