import { describe, expect, it } from "vitest";
import { MESSAGE_TEXT_MAX, messageText } from "./format.js";

describe("messageText (a fact as one line of a commit message)", () => {
  it("drops terminal sequences and control bytes, folds lines, keeps the words", () => {
    const raw = "Paid \u001b[31mthe\u001b[0m invoice\u001b]0;pwned\u0007 on\ntime\u0000 — ok";
    expect(messageText(raw)).toBe("Paid the invoice on time — ok");
  });

  it("caps a pasted 200 KB fact so the message stays small", () => {
    const out = messageText(`Pasted: ${"x".repeat(200 * 1024)}`);
    expect([...out]).toHaveLength(MESSAGE_TEXT_MAX);
    expect(out.endsWith("…")).toBe(true);
  });
});
