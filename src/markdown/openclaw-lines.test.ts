import { describe, expect, it } from "vitest";
import { narrativeText } from "../llm/retain-sections.js";
import { openclawBookkeeping, openclawBookkeepingLines, sessionMemoryId } from "./openclaw-lines.js";

// As OpenClaw 2026.9.6's session-memory hook writes them (hooks/bundled/session-memory/handler.js).
const HOOK_FILE = [
  "# Session: 2026-09-14 14:32:07 Europe/Lisbon",
  "",
  "- **Session Key**: agent:main:telegram:direct:48213",
  "- **Session ID**: 4f1c2a9e-77b0-4d5e-9a61-0c2b8e1d3f55",
  "- **Source**: telegram",
  "",
  "## Conversation Summary",
  "",
  'user: "my sister Ife turns 30 on October 3rd"',
  'assistant: "Noted."',
];

const lines = (text: string) => text.split("\n");

describe("OpenClaw's bookkeeping lines in a log", () => {
  it("the session-memory hook's header fields, not its heading nor the messages", () => {
    expect([...openclawBookkeepingLines(HOOK_FILE)]).toEqual([2, 3, 4]);
  });

  it("the hook's note that the transcript was unavailable, and a daily or idle reset's Reason", () => {
    const file = [
      "# Session: 2026-09-14 19:10:44 UTC",
      "",
      "- **Session Key**: agent:main:main",
      "- **Session ID**: unknown",
      "- **Reason**: idle",
      "",
      "## Conversation Summary",
      "",
      '> Transcript content was unavailable: "session store busy"',
    ];
    expect([...openclawBookkeepingLines(file)]).toEqual([2, 3, 4, 8]);
  });

  it("a person's own log with the same bullets is read whole", () => {
    const own = ["# 2026-09-14", "", "- **Source**: Marta, over coffee", "- **Reason**: the lease ends in May"];
    expect(openclawBookkeepingLines(own).size).toBe(0);
    expect(openclawBookkeeping(own.join("\n"), own)).toBeUndefined();
  });

  it("dreaming's inline block, markers included; an unclosed start marker marks nothing", () => {
    const log = lines(
      "# 2026-09-16\nCalled Marisol.\n\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n" +
        "- Candidate: Ife turns 30.\n  - confidence: 0.58\n<!-- openclaw:dreaming:light:end -->\nAfter the block.",
    );
    expect([...openclawBookkeepingLines(log)]).toEqual([4, 5, 6, 7]);
    const edited = log.filter((l) => !l.includes(":end -->"));
    expect(openclawBookkeepingLines(edited).size).toBe(0);
  });

  it("what an LLM extraction reads of a hook file: the messages, not the header", () => {
    expect(narrativeText(HOOK_FILE.join("\r\n"))).toBe(
      [
        "# Session: 2026-09-14 14:32:07 Europe/Lisbon",
        "",
        "",
        "## Conversation Summary",
        "",
        'user: "my sister Ife turns 30 on October 3rd"',
        'assistant: "Noted."',
      ].join("\n"),
    );
  });
  it("the chat a hook file copies: its Session ID, not the hook's 'unknown', and none for a person's log", () => {
    expect(sessionMemoryId(`\uFEFF${HOOK_FILE.join("\r\n")}`)).toBe("4f1c2a9e-77b0-4d5e-9a61-0c2b8e1d3f55");
    expect(
      sessionMemoryId(HOOK_FILE.join("\n").replace(/Session ID\*\*: \S+/, "Session ID**: unknown")),
    ).toBeUndefined();
    expect(sessionMemoryId("# 2026-09-14\n\n- **Session ID**: 4f1c2a9e\n")).toBeUndefined();
  });
});
