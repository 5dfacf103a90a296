// A realistic OpenClaw 2026.9 day without an LLM (test/openclaw-new-copy-once.test.ts): the
// agent's daily log, the session-memory hook's copy of a chat on /new, membank's digest of
// OpenClaw's session store holding the same chat, and a /new copy of a chat no digest holds.

export const CHAT = "4f1c2a9e-77b0-4d5e-9a61-0c2b8e1d3f55";
export const MSG = [
  "book us a table at Cervejaria Ramiro in Lisbon for Ife's birthday",
  "Done: a table for four on Friday 3 October at 20:00.",
  "and tell Marisol the fence can wait till after the trip",
];

/** The hook's file on /new (hooks/bundled/session-memory/handler.js, OpenClaw 2026.9.6). */
export const hookCopy = (stamp: string, id: string, source: string, messages: [string, string][]) =>
  `# Session: ${stamp} Europe/Lisbon\n\n` +
  `- **Session Key**: agent:main:${source}:direct:48213\n- **Session ID**: ${id}\n- **Source**: ${source}\n\n` +
  "## Conversation Summary\n\n" +
  messages.map(([role, text]) => `${role}: "${text}"\n`).join("");

/** membank's digest of OpenClaw's store for the day (src/sessions/digest.ts renders it so). */
export const DIGEST =
  "# Sessions of 2026-09-14\n\n" +
  "Transcript digest of the agent's chat sessions of this day, written by membank: user and assistant text only, secrets redacted, times in Europe/Lisbon. Regenerated from the session files; edits inside a message quote are kept.\n\n" +
  `## Session \`${CHAT}\` · agent \`main\` · 14:20:05–14:31:40\n\n` +
  `Source: \`agents/main/sessions/${CHAT}.jsonl\`\n\n` +
  `### 14:20:05 user · L3\n\n> ${MSG[0]}\n\n` +
  `### 14:20:11 assistant · L4\n\n> ${MSG[1]}\n\n` +
  `### 14:31:40 user · L5\n\n> ${MSG[2]}\n`;

export const FILES: Record<string, string> = {
  "MEMORY.md": "# MEMORY.md\n\n- Dana Okafor: the human. Sister: Ife.\n",
  "memory/2026-09-14.md":
    "# Sun 14 Sep\n\nMorning with Dana on the garden plan, raised beds along the south fence.\n" +
    "Dana booked the trip for her sister Ife's birthday.\n",
  "memory/2026-09-14-1432.md": hookCopy("2026-09-14 14:32:07", CHAT, "telegram", [
    ["user", MSG[0]!],
    ["assistant", MSG[1]!],
    ["user", MSG[2]!],
  ]),
  "memory/2026-09-14-sessions.md": DIGEST,
  // No digest holds this chat: its copy is the only record of it, and counts.
  "memory/2026-09-14-vet-appointment.md": hookCopy(
    "2026-09-14 19:03:51",
    "0d2e4c6a-1b3f-4e5d-8c7b-9a1f2e3d4c5b",
    "webchat",
    [
      ["user", "book Biscuit in with Dr Marsh at the Alfama vet on Friday"],
      ["assistant", "Booked: Biscuit with Dr Marsh, Friday 10:00."],
    ],
  ),
  "memory/2026-09-15.md":
    "# Mon 15 Sep\n\nWalked Biscuit by the river, and a call from Marisol: the fence quote is cheaper than expected.\n",
};
