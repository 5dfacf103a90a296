import { describe, expect, it } from "vitest";
import { aliasTable } from "./aliases.js";

const page = (slug: string, front: string) => ({
  slug,
  path: `bank/entities/${slug}.md`,
  text: `---\n${front}\n---\n# ${slug}\n`,
});

describe("alias table", () => {
  it("maps aliases to their page", () => {
    const t = aliasTable([page("Ben", "aliases: [Benji, '@B-man']"), page("Mara", "aliases: []")]);
    expect([...t.aliases]).toEqual([
      ["benji", "Ben"],
      ["b-man", "Ben"],
    ]);
    expect(t.diagnostics).toEqual([]);
  });

  it("drops a two-page cycle and names both pages and lines", () => {
    const t = aliasTable([page("Jonas", "title: Jonas\naliases:\n  - Mara"), page("Mara", "aliases: [Jonas, Mimi]")]);
    expect([...t.aliases]).toEqual([["mimi", "Mara"]]);
    expect(t.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual([
      "bank/entities/Jonas.md:4",
      "bank/entities/Mara.md:2",
    ]);
    for (const d of t.diagnostics) {
      expect(d.reason).toContain("bank/entities/Jonas.md:4 aliases Mara");
      expect(d.reason).toContain("bank/entities/Mara.md:2 aliases Jonas");
    }
  });

  it("drops a longer cycle but keeps an alias that only leads into it", () => {
    const t = aliasTable([
      page("A", "aliases: [B, Ay]"),
      page("B", "aliases: [C]"),
      page("C", "aliases: [A]"),
      page("D", "aliases: [E]"),
    ]);
    expect([...t.aliases].sort()).toEqual([
      ["ay", "A"],
      ["e", "D"],
    ]);
    expect(t.diagnostics.map((d) => d.path)).toEqual([
      "bank/entities/A.md",
      "bank/entities/B.md",
      "bank/entities/C.md",
    ]);
  });

  it("ignores a page naming itself as its alias, in any case", () => {
    const t = aliasTable([page("Mara", "aliases: [Mara, '@MARA', mara]")]);
    expect(t.aliases.size).toBe(0);
    expect(t.diagnostics).toEqual([]);
  });

  it("is the same whatever order the pages come in", () => {
    const pages = [page("Jonas", "aliases: [Mara]"), page("Mara", "aliases: [Jonas]"), page("Lea", "aliases: [Lele]")];
    const a = aliasTable(pages);
    const b = aliasTable([...pages].reverse());
    expect(b).toEqual(a);
  });
});
