import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentHash } from "./owned.js";

describe("contentHash", () => {
  it("gives a file's bytes the digest of their text, CRLF read as LF, whatever the bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const buf = Buffer.from(bytes);
        expect(contentHash(buf)).toBe(contentHash(buf.toString("utf8")));
      }),
    );
  });

  it("the same for text people write: accents, emoji, a BOM, CRLF and lone CRs", () => {
    const pieces = ["Zoë", "café ☕", "🙂", "\uFEFF", "\r\n", "\r", "\n", "- W @Mara: ", "ß", "日本語", " "];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(contentHash(Buffer.from(text, "utf8"))).toBe(contentHash(text));
      }),
    );
    expect(contentHash(Buffer.from("a\r\nb\n"))).toBe(contentHash("a\nb\n"));
    expect(contentHash(Buffer.from("a\rb\n"))).not.toBe(contentHash("a\nb\n"));
  });
});
