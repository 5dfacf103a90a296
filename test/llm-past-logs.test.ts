import { appendFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlm, extractFromPastLogs, hasOwnRetain } from "../src/llm/index.js";
import type { LlmServices } from "../src/llm/types.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { type MessagesServer, type RecordedRequest, startMessagesServer } from "./llm-messages-server.js";

const ENV = { ANTHROPIC_API_KEY: "sk-ant-test-past-logs-0123456789" };

let dir: string;
let server: MessagesServer;
let ws: Workspace;

const LOGS: Record<string, string> = {
  "memory/2026-03-01.md": "# 2026-03-01\n\nLunch with Priya. She said she can't stand long meetings.\n",
  "memory/2026-03-02.md": "# 2026-03-02\n\nShipped.\n\n## Retain\n- B @warelay: I shipped v2.\n",
  "memory/2026-03-03-sessions.md": "# Sessions of 2026-03-03\n\nuser: hi\n",
  "memory/2026-03-04.md": "# 2026-03-04\r\n\r\nNothing much. Rain.\r\n",
  "memory/2026-03-05.md": "# 2026-03-05\n",
  "memory/2026-03-06.md": "# 2026-03-06\n\nToday is still being written.\n",
};

function logOf(request: RecordedRequest): string {
  return /Memory log of (\d{4}-\d{2}-\d{2})/.exec(request.body.messages[0]!.content)?.[1] ?? "";
}

const answers: Record<string, string> = {
  "2026-03-01": JSON.stringify({
    facts: [
      { kind: "O", entities: ["Priya"], confidence: 0.75, content: "Priya dislikes long meetings." },
      { kind: "B", entities: [], confidence: null, content: "I had lunch with Priya on 2026-03-01." },
    ],
  }),
  "2026-03-04": '{"facts": []}',
};

async function llm(): Promise<LlmServices> {
  return createLlm(ws, { env: ENV, maxRetries: 0 });
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-past-"));
  await mkdir(path.join(dir, "memory"));
  for (const [rel, text] of Object.entries(LOGS)) await writeFile(path.join(dir, rel), text);
  server = await startMessagesServer();
  server.fallback = (req) => ({ text: answers[logOf(req)] ?? '{"facts": []}' });
  await writeFile(
    path.join(dir, "membank.config.json"),
    JSON.stringify({ llm: { provider: "anthropic", anthropic: { baseUrl: server.baseUrl, model: "claude-test" } } }),
  );
  ws = await openWorkspace(dir);
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("extractFromPastLogs", () => {
  it("extracts past logs without a Retain section, once", async () => {
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-06" });
    // 03-02 has Retain, 03-03 is a session digest, 03-06 is not in the past.
    expect(server.requests.map(logOf)).toEqual(["2026-03-01", "2026-03-04"]);
    expect(report).toEqual({
      examined: 3,
      changed: ["memory/2026-03-01.md"],
      factsAdded: 2,
      skipped: [
        { path: "memory/2026-03-04.md", reason: "no facts found" },
        { path: "memory/2026-03-05.md", reason: "no narrative text" },
      ],
      warnings: [],
    });
    const text = await readFile(path.join(dir, "memory/2026-03-01.md"), "utf8");
    expect(text).toBe(
      `${LOGS["memory/2026-03-01.md"]}\n## Retain (extracted)\n` +
        "<!-- Extracted by membank (claude-test) from this log. Correct or delete lines freely; while this heading stays, the log is not extracted again. -->\n" +
        "- O(c=0.75) @Priya: Priya dislikes long meetings.\n" +
        "- B: I had lunch with Priya on 2026-03-01.\n",
    );
    for (const rel of ["memory/2026-03-02.md", "memory/2026-03-04.md", "memory/2026-03-06.md"]) {
      expect(await readFile(path.join(dir, rel), "utf8")).toBe(LOGS[rel]);
    }

    // Second run: nothing is asked again (03-01 has its section, 03-04 yielded nothing and is unchanged).
    const again = await extractFromPastLogs(ws, await llm(), { before: "2026-03-06" });
    expect(again).toMatchObject({ changed: [], factsAdded: 0, warnings: [] });
    expect(server.requests).toHaveLength(2);

    // A log that changes is asked about again.
    await writeFile(path.join(dir, "memory/2026-03-04.md"), `${LOGS["memory/2026-03-04.md"]}Met Jonas.\r\n`);
    await extractFromPastLogs(ws, await llm(), { before: "2026-03-06" });
    expect(server.requests.map(logOf)).toEqual(["2026-03-01", "2026-03-04", "2026-03-04"]);
  });

  it("leaves a log alone when it changes while its facts are being extracted", async () => {
    const file = path.join(dir, "memory/2026-03-01.md");
    server.fallback = (req) => {
      if (logOf(req) === "2026-03-01") appendFileSync(file, "A late note.\n");
      return { text: answers[logOf(req)] ?? '{"facts": []}' };
    };
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-02" });
    expect(report.changed).toEqual([]);
    expect(report.skipped).toEqual([
      { path: "memory/2026-03-01.md", reason: "file changed while extracting; will retry next run" },
    ]);
    expect(await readFile(file, "utf8")).toBe(`${LOGS["memory/2026-03-01.md"]}A late note.\n`);
  });

  it("skips a log whose answers are invalid twice, reporting the warning, and writes nothing", async () => {
    server.fallback = { text: '{"facts":[{"kind":"W"}]}' };
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-02" });
    expect(server.requests).toHaveLength(2);
    expect(report.skipped).toEqual([{ path: "memory/2026-03-01.md", reason: "no valid LLM answer" }]);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(/^extract 2026-03-01: invalid LLM answer twice/);
    expect(hasOwnRetain(await readFile(path.join(dir, "memory/2026-03-01.md"), "utf8"))).toBe(false);
  });

  it("appends in CRLF to a CRLF log, and does nothing without an LLM", async () => {
    answers["2026-03-04"] = '{"facts":[{"kind":"S","entities":[],"confidence":null,"content":"A rainy, quiet day."}]}';
    try {
      const none = await createLlm(ws, { provider: "none" });
      expect(await extractFromPastLogs(ws, none, { before: "2026-03-06" })).toMatchObject({ examined: 0, changed: [] });
      expect(server.requests).toHaveLength(0);
      const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-06", since: "2026-03-04" });
      expect(report.changed).toEqual(["memory/2026-03-04.md"]);
      const text = await readFile(path.join(dir, "memory/2026-03-04.md"), "utf8");
      expect(text.startsWith(LOGS["memory/2026-03-04.md"]!)).toBe(true);
      expect(text.endsWith("- S: A rainy, quiet day.\r\n")).toBe(true);
      expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    } finally {
      answers["2026-03-04"] = '{"facts": []}';
    }
  });
  it("never rewrites a log that is not UTF-8 (Latin-1 from an old editor, UTF-16 from Notepad): its bytes stay, the report says why", async () => {
    // "Café with Zoë" in Latin-1, and a UTF-16LE log with its byte order mark.
    const latin1 = Buffer.from("# 2026-03-01\n\nCaf\xe9 with Zo\xeb; she can't stand long meetings.\n", "latin1");
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("# 2026-03-04\r\n\r\nLunch with Priya, she hates long meetings.\r\n", "utf16le"),
    ]);
    await writeFile(path.join(dir, "memory/2026-03-01.md"), latin1);
    await writeFile(path.join(dir, "memory/2026-03-04.md"), utf16);
    server.fallback = () => ({ text: answers["2026-03-01"]! });
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-06" });
    expect(await readFile(path.join(dir, "memory/2026-03-01.md"))).toEqual(latin1);
    expect(await readFile(path.join(dir, "memory/2026-03-04.md"))).toEqual(utf16);
    expect(report.changed).toEqual([]);
    expect(report.skipped).toContainEqual({
      path: "memory/2026-03-01.md",
      reason: "not valid UTF-8: not extracted, so its bytes are not rewritten; save it as UTF-8",
    });
    expect(report.skipped.map((s) => s.path)).toContain("memory/2026-03-04.md");
  });
  it("never rewrites a log its user made read-only: not sent to the LLM, its bytes stay, the report says how to hand it back", async () => {
    const log = path.join(dir, "memory/2026-03-01.md");
    const before = await readFile(log);
    await chmod(log, 0o444);
    server.fallback = () => ({ text: answers["2026-03-01"]! });
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-06" });
    expect(await readFile(log)).toEqual(before);
    expect(report.changed).not.toContain("memory/2026-03-01.md");
    expect(server.requests.map(logOf)).not.toContain("2026-03-01");
    expect(report.skipped).toContainEqual({
      path: "memory/2026-03-01.md",
      reason:
        "read-only: not extracted, so it is not rewritten; chmod u+w memory/2026-03-01.md to let membank add facts",
    });
  });
  it("OpenClaw's session-memory file of a chat a digest holds is not extracted again; one of a chat no digest holds is", async () => {
    // What OpenClaw 2026.9's session-memory hook writes on /new (hooks/bundled/session-memory).
    const hook = (time: string, id: string, said: string) =>
      `# Session: 2026-03-03 ${time} Europe/Berlin\n\n- **Session Key**: agent:main:main\n- **Session ID**: ${id}\n` +
      `- **Source**: telegram\n\n## Conversation Summary\n\nuser: ${JSON.stringify(said)}\nassistant: "Noted."\n`;
    const inDigest = hook("11:40:02", "4f1c2a9e-77b0", "Priya moved the offsite to Lisbon");
    const notInDigest = hook("18:05:31", "9a0b7c11-2d3e", "Jonas starts on the platform team Monday");
    await writeFile(path.join(dir, "memory/2026-03-03-1140.md"), inDigest);
    await writeFile(path.join(dir, "memory/2026-03-03-1805.md"), notInDigest);
    // membank's digest of OpenClaw's store for that day holds the first chat whole.
    await writeFile(
      path.join(dir, "memory/2026-03-03-sessions.md"),
      "# Sessions of 2026-03-03\n\n## Session `4f1c2a9e-77b0` · agent `main` · 11:02:10–11:39:55\n\n" +
        "Source: `main/4f1c2a9e-77b0.jsonl`\n\n### 11:02:10 user · L3\n\n> Priya moved the offsite to Lisbon\n",
    );
    server.fallback = (req) => ({
      text: req.body.messages[0]!.content.includes("Jonas")
        ? JSON.stringify({
            facts: [{ kind: "W", entities: ["Jonas"], confidence: null, content: "Jonas joins the platform team." }],
          })
        : '{"facts": []}',
    });
    const report = await extractFromPastLogs(ws, await llm(), { before: "2026-03-04", since: "2026-03-03" });
    expect(report.changed).toEqual(["memory/2026-03-03-1805.md"]);
    expect(report.skipped).toContainEqual({
      path: "memory/2026-03-03-1140.md",
      reason:
        "OpenClaw's copy of chat 4f1c2a9e-77b0, which memory/2026-03-03-sessions.md holds whole: its facts are extracted from there",
    });
    expect(await readFile(path.join(dir, "memory/2026-03-03-1140.md"), "utf8")).toBe(inDigest);
    // What the LLM was sent of the other: the chat, not the hook's header.
    const sent = server.requests.map((r) => r.body.messages[0]!.content).join("\n");
    expect(sent).toContain("Jonas starts on the platform team Monday");
    expect(sent).not.toContain("Priya moved the offsite");
    expect(sent).not.toContain("Session Key");
  });
});
