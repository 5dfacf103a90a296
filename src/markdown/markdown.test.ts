import { describe, expect, it } from "vitest";
import { parseMarkdown } from "./parse.js";
import { scanHeadings } from "./scan.js";

describe("parseMarkdown and line helpers", () => {
  it("gives every node its 1-based source line, also after a BOM and with CRLF", () => {
    const tree = parseMarkdown("\uFEFF# Title\r\n\r\nPara one\r\nstill one\r\n\r\n- item\r\n");
    const [h, p, list] = tree.children;
    expect(h?.type).toBe("heading");
    expect(h?.position?.start.line).toBe(1);
    expect(p?.position?.start.line).toBe(3);
    expect(p?.position?.end.line).toBe(4);
    expect(list?.position?.start.line).toBe(6);
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
