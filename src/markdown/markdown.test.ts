import { describe, expect, it } from "vitest";
import { nodeEndLine, nodeLine, nodeSource, parseMarkdown, stringifyMarkdown } from "./parse.js";
import { readRegions, regionMarkers, replaceRegion } from "./regions.js";
import { scanHeadings } from "./scan.js";
import { findSections, headingText } from "./sections.js";

describe("parseMarkdown and line helpers", () => {
  it("gives every node its 1-based source line, also after a BOM and with CRLF", () => {
    const tree = parseMarkdown("\uFEFF# Title\r\n\r\nPara one\r\nstill one\r\n\r\n- item\r\n");
    const [h, p, list] = tree.children;
    expect(h?.type).toBe("heading");
    expect(nodeLine(h!)).toBe(1);
    expect(nodeLine(p!)).toBe(3);
    expect(nodeEndLine(p!)).toBe(4);
    expect(nodeLine(list!)).toBe(6);
    expect(nodeSource("\uFEFF# Title\r\n\r\nPara one\r\nstill one\r\n", p!)).toBe("Para one\r\nstill one");
  });

  it("stringifies back to Markdown", () => {
    expect(stringifyMarkdown(parseMarkdown("# A\n\n* x\n* y\n"))).toBe("# A\n\n- x\n- y\n");
  });
});

describe("findSections", () => {
  const doc = [
    "# Day", // 1
    "", // 2
    "## Retain", // 3
    "- W: a", // 4
    "### Sub", // 5
    "- W: b", // 6
    "## Notes", // 7
    "text", // 8
    "### retain", // 9
    "- S: c", // 10
    "# Next", // 11
  ].join("\n");
  const tree = parseMarkdown(doc);

  it("matches heading text case-insensitively and runs to the next same-or-higher heading", () => {
    const s = findSections(tree, "Retain");
    expect(s.map((x) => [x.depth, x.startLine, x.endLine])).toEqual([
      [2, 3, 6],
      [3, 9, 10],
    ]);
    expect(s[0]!.nodes.map((n) => n.type)).toEqual(["list", "heading", "list"]);
    expect(headingText(s[0]!.heading)).toBe("Retain");
  });

  it("accepts a RegExp or a predicate, and gives an empty section its heading line", () => {
    expect(findSections(tree, /^Not/).map((x) => x.startLine)).toEqual([7]);
    const empty = findSections(parseMarkdown("## Empty\n## Other\n"), (t) => t === "Empty");
    expect(empty[0]).toMatchObject({ startLine: 1, endLine: 1, nodes: [] });
  });
});

describe("scanHeadings", () => {
  it("finds ATX headings with lines and depth, skipping fenced code and closing hashes", () => {
    const lines = [
      "# One #",
      "```md",
      "## Not a heading",
      "```",
      "~~~",
      "# nope",
      "~~~",
      "###   Three  ",
      "#5 no",
      "```js x```",
      "## After inline code",
    ];
    expect(scanHeadings(lines)).toEqual([
      { line: 1, depth: 1, text: "One" },
      { line: 8, depth: 3, text: "Three" },
      { line: 11, depth: 2, text: "After inline code" },
    ]);
  });
});

describe("managed regions", () => {
  const doc =
    "\uFEFFTop text\r\n<!-- membank:begin facts -->\r\nold 1\r\nold 2\r\n<!-- membank:end facts -->\r\nmiddle\r\n<!-- membank:begin empty -->\r\n<!-- membank:end empty -->\r\ntail without newline";

  it("reads regions with exact bodies and marker lines", () => {
    expect(readRegions(doc)).toEqual([
      { name: "facts", body: "old 1\r\nold 2\r\n", startLine: 2, endLine: 5 },
      { name: "empty", body: "", startLine: 7, endLine: 8 },
    ]);
  });

  it("replaces one body, converting to the file's line endings, bytes outside unchanged", () => {
    const out = replaceRegion(doc, "facts", "new a\nnew b");
    expect(out).toBe(doc.replace("old 1\r\nold 2\r\n", "new a\r\nnew b\r\n"));
    expect(replaceRegion(out, "empty", "x\n")).toBe(out.replace("empty -->\r\n<!--", "empty -->\r\nx\r\n<!--"));
    // Writing back what was read changes nothing.
    for (const r of readRegions(doc)) expect(replaceRegion(doc, r.name, r.body)).toBe(doc);
    expect(replaceRegion(doc, "facts", "")).toBe(doc.replace("old 1\r\nold 2\r\n", ""));
  });

  it("ignores markers shown inside fenced code", () => {
    const text = "```\n<!-- membank:begin shown -->\n```\n";
    expect(readRegions(text)).toEqual([]);
  });

  it("fails clearly on unknown names and unbalanced markers", () => {
    expect(() => replaceRegion(doc, "nope", "x", "bank/a.md")).toThrow(/bank\/a\.md: no managed region "nope"/);
    expect(() => readRegions("a\n<!-- membank:begin x -->\nb\n", "bank/p.md")).toThrow(
      /bank\/p\.md:2: region "x" has no end marker/,
    );
    expect(() => readRegions("<!-- membank:end x -->\n")).toThrow(/line 1: end marker of region "x" without a begin/);
    expect(() => readRegions("<!-- membank:begin a -->\n<!-- membank:begin b -->\n")).toThrow(/cannot nest/);
    expect(() => readRegions("<!-- membank:begin a -->\n<!-- membank:end b -->\n")).toThrow(/region "a" .* is open/);
    expect(() =>
      readRegions(
        "<!-- membank:begin a -->\n<!-- membank:end a -->\n<!-- membank:begin a -->\n<!-- membank:end a -->\n",
      ),
    ).toThrow(/appears twice/);
  });

  it("builds markers for new documents", () => {
    expect(regionMarkers("facts")).toEqual({
      begin: "<!-- membank:begin facts -->",
      end: "<!-- membank:end facts -->",
    });
    expect(() => regionMarkers("bad name")).toThrow(/invalid region name/);
  });
});
