import { describe, expect, it } from "vitest";
import { notTheUsersLines, userProfileForIndex } from "./user-profile.js";

const out = (text: string) => [...notTheUsersLines(text.split("\n"))].map((i) => i + 1);

describe("notTheUsersLines", () => {
  it("leaves a free-form profile whole", () => {
    const text = "# About me\n\nName: Sam\n- Likes short answers...\n- Reading: Dune...\n- **Pronouns:** they/them\n";
    expect(out(text)).toEqual([]);
    expect(userProfileForIndex(text)).toBe(text);
  });

  it("takes out fenced code with its fences, backticks or tildes", () => {
    expect(out("a\n```md\n- Prefer tea.\n```\nb\n~~~\nx\n~~~\n")).toEqual([2, 3, 4, 6, 7, 8]);
  });

  it("takes out placeholder lines: a placeholder date, a word or a label and an ellipsis", () => {
    expect(out("- Prefer ...\n- **Timezone:** …\nName: ...\nseen yyyy-mm-dd\n- Prefer tea ...\n")).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it("takes out a superseded entry with its comment, up to the blank line; an active one stays", () => {
    const text = [
      "<!-- observed: 2026-02-03 | status: superseded -->",
      "",
      "- Always paste the full output,",
      "  even when it is long.",
      "",
      "Kept: said after the entry.",
      "<!-- status: Active | observed: 2026-08-19 -->",
      "- Prefer one line.",
      "<!-- observed: 2026-13-45 | status: active -->",
      "- Not a real date.",
      "<!-- a note -->",
      "- Kept too.",
    ].join("\n");
    expect(out(text)).toEqual([1, 3, 4, 9, 10]);
  });

  it("keeps line numbers and line ends when it blanks lines", () => {
    expect(userProfileForIndex("a\r\n```\r\nb\r\n```\r\nc\r\n")).toBe("a\r\n\r\n\r\n\r\nc\r\n");
  });
});
