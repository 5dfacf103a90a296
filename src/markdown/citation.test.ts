import { describe, expect, it } from "vitest";
import { citedLabels, citeLine } from "./citation.js";
import { relLink } from "./links.js";

describe("citations", () => {
  it("a bank page's link label reads back as the citation it was written from", () => {
    const src = { path: "memory/2026-03-09-trip.md", line: 19 };
    const page = `- 2026-03-09 — Flew to Lisbon ([${citeLine(src)}](${relLink("bank/entities/Mara.md", src)}))\n`;
    expect(citeLine(src)).toBe("memory/2026-03-09-trip.md#L19");
    expect(citedLabels(page)).toEqual([citeLine(src)]);
    const plain = { path: "memory/2026-03-09.md", line: 7 };
    expect(citedLabels(`see [${citeLine(plain)}](x) and [bank/world.md#L2](y), not [#L3]`)).toEqual([
      "memory/2026-03-09.md#L7",
      "bank/world.md#L2",
    ]);
  });
});
