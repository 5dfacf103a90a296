import { describe, expect, it } from "vitest";
import { dedupe, type Fused } from "./fuse.js";
import { type ChatFiles, oneResultPerChatLine } from "./same-chat.js";

const COPY = "memory/2026-09-14-1432.md";
const DIGEST = "memory/2026-09-14-sessions.md";
const CHAT = "4f1c2a9e";
// The digest's lines as src/sessions/digest.ts renders them (1-based: L5 is the first quote).
const DIGEST_LINES = [
  "# Sessions of 2026-09-14",
  "",
  `## Session \`${CHAT}\` · agent \`main\` · 14:20:05–14:31:40`,
  "",
  "> book us a table at Cervejaria Ramiro in Lisbon",
  "",
  "### 14:20:11 assistant · L4",
  "",
  "> Done: a table for four on Friday at 20:00.",
];

const files = (sessions = [CHAT]): ChatFiles => ({
  sessionOf: (p) => (p === COPY ? CHAT : undefined),
  digest: (p) => (p === DIGEST ? { sessions: new Set(sessions), lines: DIGEST_LINES } : undefined),
});
const item = (path: string, start: number, end: number, content: string, score: number): Fused => ({
  cand: {
    key: `lines:${path}#${start}-${end}`,
    kind: "note",
    path,
    startLine: start,
    endLine: end,
    entities: [],
    content,
  },
  score,
  arms: [{ arm: "bm25", rank: 1, score }],
});
const cites = (items: Fused[]) => items.map((f) => `${f.cand.path}#${f.cand.startLine}-${f.cand.endLine}`);

describe("a chat line from OpenClaw's /new copy and from the digest holding the chat", () => {
  it("is one result, cited from the digest, at the better of the two ranks", () => {
    const copy = item(
      COPY,
      9,
      10,
      'user: "book us a table at Cervejaria Ramiro in Lisbon"\nassistant: "Done: a table for four on Friday at 20:00."',
      0.9,
    );
    const digest = item(DIGEST, 5, 5, "> book us a table at Cervejaria Ramiro in Lisbon", 0.5);
    const out = dedupe(oneResultPerChatLine([copy, digest], files()));
    expect(cites(out)).toEqual([`${DIGEST}#5-9`]);
    expect(out[0]!.score).toBe(0.9);
    expect(out[0]!.cand.content).toContain("> Done: a table for four");
  });

  it("two lines that share words stay two results: a word apart, or a chat the digest does not hold", () => {
    const copy = item(COPY, 9, 9, 'user: "book us a table at Cervejaria Ramiro in Porto"', 0.9);
    const digest = item(DIGEST, 5, 5, "> book us a table at Cervejaria Ramiro in Lisbon", 0.5);
    expect(cites(dedupe(oneResultPerChatLine([copy, digest], files())))).toEqual([`${COPY}#9-9`, `${DIGEST}#5-5`]);
    const same = item(COPY, 9, 9, 'user: "book us a table at Cervejaria Ramiro in Lisbon"', 0.9);
    expect(cites(dedupe(oneResultPerChatLine([same, digest], files(["another-chat"]))))).toEqual([
      `${COPY}#9-9`,
      `${DIGEST}#5-5`,
    ]);
  });
});
