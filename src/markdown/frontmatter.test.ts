import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  frontMatterAliases,
  frontMatterLineCount,
  frontMatterName,
  readFrontMatter,
  writeFrontMatter,
} from "./frontmatter.js";

const PAGE = [
  "---",
  "# kept: a person's note on this page",
  "title: Jonas Berg",
  "aliases:",
  "  - Jo",
  "  - '@JB'",
  "owner: mara   # who keeps it current",
  "---",
  "# Jonas",
  "",
  "<!-- membank:begin facts -->",
  "- 2026-03-02 Moved to the platform team",
  "<!-- membank:end facts -->",
  "",
].join("\n");

describe("front matter through yaml", () => {
  it("reads fields, the body and the block's size", () => {
    const fm = readFrontMatter(PAGE);
    expect(fm.data).toEqual({ title: "Jonas Berg", aliases: ["Jo", "@JB"], owner: "mara" });
    expect(fm.lines).toBe(8);
    expect(fm.body.startsWith("# Jonas\n")).toBe(true);
    expect(frontMatterName(fm.data)).toBe("Jonas Berg");
    expect(frontMatterLineCount("# no front matter\n---\nx\n---\n")).toBe(0);
    expect(readFrontMatter("---\nname: [unclosed\n---\nbody")).toMatchObject({ body: "body", lines: 3 });
  });

  it("reads aliases the ways people write them, with the line of each", () => {
    expect(frontMatterAliases(PAGE)).toEqual([
      { alias: "Jo", line: 5 },
      { alias: "JB", line: 6 },
    ]);
    expect(frontMatterAliases('---\naliases: [@Jo, "J. B."]\n---\n').map((a) => a.alias)).toEqual(["Jo", "J. B."]);
    expect(frontMatterAliases("---\r\nAliases: Jo, JB\r\n---\r\n# x\r\n")).toEqual([
      { alias: "Jo", line: 2 },
      { alias: "JB", line: 2 },
    ]);
    expect(frontMatterAliases("---\naliases: []\nname: Zoë\n---\n")).toEqual([]);
  });

  it("writes one field and keeps the others, the comments and every body byte", () => {
    const out = writeFrontMatter(PAGE, { aliases: ["Jo", "JB", "Jonas B."] });
    expect(out).toContain("# kept: a person's note on this page");
    expect(out).toContain("owner: mara # who keeps it current");
    expect(readFrontMatter(out).data).toEqual({
      title: "Jonas Berg",
      aliases: ["Jo", "JB", "Jonas B."],
      owner: "mara",
    });
    expect(readFrontMatter(out).body).toBe(readFrontMatter(PAGE).body);
    // CRLF pages stay CRLF; a page without front matter gets a block on top.
    const crlf = writeFrontMatter("---\r\nname: A\r\n---\r\nbody\r\n", { name: "B" });
    expect(crlf).toBe("---\r\nname: B\r\n---\r\nbody\r\n");
    expect(writeFrontMatter("# Mara\n", { aliases: ["M"] })).toBe("---\naliases:\n  - M\n---\n# Mara\n");
    // Front matter a person wrote that is no mapping, or broken YAML: never rewritten.
    expect(() => writeFrontMatter("---\n- a list\n---\nbody", { name: "x" })).toThrow(/not a list of `key: value`/);
    expect(() => writeFrontMatter("---\nname: [unclosed\n---\nbody", { name: "x" })).toThrow(/not valid YAML/);
  });

  const key = fc.stringMatching(/^[a-z][a-z_]{0,8}$/).filter((k) => k !== "constructor" && k !== "__proto__");
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
  );
  const fields = fc.dictionary(key, value, { maxKeys: 5 });
  // Bodies as people write them, including lines that look like fences.
  const body = fc
    .array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("---", "# Title", "", "- W @Mara: x", "\r")), {
      maxLength: 8,
    })
    .map((ls) => ls.join("\n"));

  it("write then read gives the same fields; unknown fields and body bytes kept (property)", () => {
    fc.assert(
      fc.property(fields, fields, body, fc.boolean(), (existing, changes, b, hasBlock) => {
        fc.pre(!b.startsWith("---")); // a body that opens with a fence would be front matter itself
        const page = hasBlock ? writeFrontMatter(b, existing) : `# Page\n${b}`;
        const before = readFrontMatter(page);
        const out = writeFrontMatter(page, changes);
        const after = readFrontMatter(out);
        expect(after.data).toEqual({ ...before.data, ...changes });
        expect(after.body).toBe(before.body);
        // Writing the same fields again changes nothing (same input, same bytes).
        expect(writeFrontMatter(out, changes)).toBe(out);
      }),
      { numRuns: 300 },
    );
  });
});

describe("readFrontMatter on the front matter membank writes (read without the yaml library)", () => {
  it.each([
    "---\naliases: []\n---\n# Wei\n\nMoved to platform.\n",
    "---\r\naliases: []  \r\n---\r\n# Jo\r\n",
    "---\naliases:\t[]\n---\n",
    "---\naliases: []\nname: Josephine\n---\n# Jo\n",
    "---\naliases: [ ]\n---\n# Jo\n",
  ])("reads %j as YAML does", (page) => {
    const fm = readFrontMatter(page);
    const yamlText = page.replace(/\r\n/g, "\n").split("---\n")[1]!;
    expect(fm.data).toEqual(parse(yamlText) ?? {});
    expect(page.endsWith(fm.body)).toBe(true);
  });
});

describe('a page saved with a UTF-8 byte order mark (Notepad, VS Code\'s "UTF-8 with BOM")', () => {
  const page = '\uFEFF---\r\naliases: [Hal, "H. Osman"]\r\n---\r\n# Halima\r\n\r\nMy notes.\r\n';

  it("has its front matter read: aliases, line count, body", () => {
    expect(frontMatterAliases(page).map((a) => a.alias)).toEqual(["Hal", "H. Osman"]);
    expect(frontMatterLineCount(page)).toBe(3);
    expect(readFrontMatter(page).body).toBe("# Halima\r\n\r\nMy notes.\r\n");
  });

  it("keeps the mark where it was when a field is written, with a block or without", () => {
    expect(writeFrontMatter(page, { name: "Halima" })).toBe(
      '\uFEFF---\r\naliases: [ Hal, "H. Osman" ]\r\nname: Halima\r\n---\r\n# Halima\r\n\r\nMy notes.\r\n',
    );
    expect(writeFrontMatter("\uFEFF# Odile\n", { aliases: ["Odi"] })).toBe(
      "\uFEFF---\naliases:\n  - Odi\n---\n# Odile\n",
    );
  });
});
