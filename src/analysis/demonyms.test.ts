import { describe, expect, it } from "vitest";
import { demonymPair } from "./demonyms.js";

describe("country and people's adjective", () => {
  it("a country asks for its adjective and the adjective for its country", () => {
    expect(demonymPair("Portugal")).toEqual(["portuguese"]);
    expect(demonymPair("spanish")).toEqual(["spain"]);
    expect(demonymPair("dutch")).toEqual(["netherlands", "holland"]);
  });

  it("leaves other words alone, and countries whose name is mostly another word", () => {
    for (const w of ["turkey", "china", "polish", "border", "porto"]) expect(demonymPair(w), w).toEqual([]);
  });
});
