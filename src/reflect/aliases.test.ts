import { describe, expect, it } from "vitest";
import { aliasTable, renamedPages } from "./aliases.js";

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

describe("pages renamed by hand", () => {
  const made = (file: string, title: string, summaryName = title) => ({
    slug: file,
    path: `bank/entities/${file}.md`,
    text: `---\naliases: []\n---\n# ${title}\n\n<!-- membank:begin summary -->\n@${summaryName}: 2 facts on 1 day.\n<!-- membank:end summary -->\n\nmy notes\n`,
  });

  it("follow a page whose title names another entity, once per old name, and say it until membank rewrites it", () => {
    const found = renamedPages([made("Priya-Shah", "Priya"), made("Mara", "Mara")], new Map());
    expect(found).toEqual([{ from: "Priya", slug: "Priya-Shah", path: "bank/entities/Priya-Shah.md", fresh: true }]);
    expect(renamedPages([made("Priya-Shah", "Priya", "Priya-Shah")], new Map())[0]?.fresh).toBe(false);
  });

  it("are no rename: a case-only rename, a cut file name, an old name with a page of its own or an alias, a page with no region", () => {
    expect(renamedPages([made("priya", "Priya")], new Map())).toEqual([]);
    expect(renamedPages([made("CON~1143da2bc5", "CON")], new Map())).toEqual([]);
    expect(renamedPages([made("Priya-Shah", "Priya"), made("Priya", "Priya")], new Map())).toEqual([]);
    expect(renamedPages([made("Priya-Shah", "Priya")], new Map([["priya", "Ana"]]))).toEqual([]);
    expect(
      renamedPages(
        [page("Jonas", "aliases: []")].map((p) => ({ ...p, text: "# Jo\n" })),
        new Map(),
      ),
    ).toEqual([]);
  });
});
