import { describe, expect, it } from "vitest";
import { noRetainNote } from "./no-retain.js";

describe("noRetainNote", () => {
  it("says nothing when every log has a Retain section", () => {
    expect(noRetainNote([], 12, { llm: false })).toBeUndefined();
  });
  it("names the logs without one, the list capped", () => {
    const logs = Array.from({ length: 15 }, (_, i) => `memory/2026-01-${String(i + 1).padStart(2, "0")}.md`);
    expect(noRetainNote(logs.slice(0, 1), 20, { llm: false })).toBe(
      "1 of 20 logs has no ## Retain section: memory/2026-01-01.md",
    );
    const note = noRetainNote(logs, 40, { llm: false })!;
    expect(note).toMatch(/^15 of 40 logs have no ## Retain section: memory\/2026-01-01\.md, /);
    expect(note).toContain("memory/2026-01-10.md, ... and 5 more");
    expect(note).not.toContain("2026-01-11");
  });
  it("says what to do when no log has one and no LLM can extract facts", () => {
    expect(noRetainNote(["memory/a.md", "memory/b.md"], 2, { llm: false })).toBe(
      "2 of 2 logs have no ## Retain section: add one (README) or set llm.provider to extract facts",
    );
    // With an LLM the logs get an extracted section: the note lists them instead.
    expect(noRetainNote(["memory/a.md"], 1, { llm: true })).toBe("1 of 1 log has no ## Retain section: memory/a.md");
  });
});
