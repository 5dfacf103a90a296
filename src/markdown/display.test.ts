import { describe, expect, it } from "vitest";
import { displaySafe } from "./display.js";

describe("displaySafe", () => {
  it("removes colour, cursor, title and hyperlink sequences but keeps the words", () => {
    expect(displaySafe("\u001b[31mred\u001b[0m and \u001b[2J\u001b[Hcleared")).toBe("red and cleared");
    expect(displaySafe("\u001b]0;pwned title\u0007after")).toBe("after");
    expect(displaySafe("\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\ text")).toBe("link text");
    expect(displaySafe("8-bit \u009b31mcsi\u009b0m")).toBe("8-bit csi");
    expect(displaySafe("unterminated \u001b]2;title to the end\nnext line")).toBe("unterminated \nnext line");
  });

  it("drops other control characters and bidi overrides, keeps tabs, line breaks and Unicode", () => {
    expect(displaySafe("a\u0000b\u0007c\u0008d\u007fe\u0085f")).toBe("abcdef");
    expect(displaySafe("user\u202Egnp.exe")).toBe("usergnp.exe");
    expect(displaySafe("col1\tcol2\r\nZoë 张伟 😀\n")).toBe("col1\tcol2\nZoë 张伟 😀\n");
  });

  it("leaves clean text byte for byte", () => {
    const clean = "- W @Peter: in Marrakech (Nov 27–Dec 1), <1500 chars; [x](y.md) `code` ~~old~~";
    expect(displaySafe(clean)).toBe(clean);
  });
});
