import { describe, expect, it } from "vitest";
import { nodeEndLine, nodeLine, nodeSource, parseMarkdown, stringifyMarkdown } from "./parse.js";
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
