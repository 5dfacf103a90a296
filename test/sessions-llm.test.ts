import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlm } from "../src/llm/index.js";
import { ingestSessions } from "../src/sessions/ingest.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { type MessagesServer, startMessagesServer } from "./llm-messages-server.js";

const FIX = path.resolve(import.meta.dirname, "../fixtures/sessions");
const NOW = new Date("2026-03-06T15:00:00Z");
let tmp: string;
let server: MessagesServer;
let ws: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-sessions-llm-"));
  server = await startMessagesServer();
  const root = path.join(tmp, "ws");
  await cp(path.resolve(import.meta.dirname, "../bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({
      sessions: { dir: path.join(FIX, "agents"), tz: "UTC" },
      llm: {
        provider: "anthropic",
        anthropic: { baseUrl: server.baseUrl, model: "claude-test", apiKeyEnv: "MEMBANK_TEST_KEY" },
      },
    }),
  );
  ws = await openWorkspace(root);
});
afterEach(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("session facts with an LLM (real Anthropic SDK, local Messages API)", () => {
  it("appends extracted Retain facts citing session file and line; secrets never reach the LLM; a rerun asks nothing", async () => {
    server.fallback = (req) => {
      const text = req.body.messages.map((m) => m.content).join("\n");
      if (text.includes("ledger-sync rollout")) {
        return {
          text: JSON.stringify({
            facts: [
              {
                kind: "W",
                entities: ["Priya"],
                confidence: null,
                content: "Priya decided to ship ledger-sync in March behind a flag.",
              },
            ],
          }),
        };
      }
      return { text: JSON.stringify({ facts: [] }) };
    };
    const llm = await createLlm(ws, { env: { MEMBANK_TEST_KEY: "test-key" } });
    const r = await ingestSessions(ws, { llm, now: NOW });
    expect(r.factsExtracted).toBe(1);
    expect(r.written).toContain("memory/2026-03-04.md");
    const log = await readFile(path.join(ws.root, "memory/2026-03-04.md"), "utf8");
    expect(log).toContain("## Retain (extracted)");
    expect(log).toContain("from chat sessions");
    expect(log).toContain(
      "- W @Priya: Priya decided to ship ledger-sync in March behind a flag. (session main/sessions/s-alpha.jsonl#L3)",
    );
    const sent = JSON.stringify(server.requests.map((q) => q.body.messages));
    expect(sent).not.toMatch(/sk-proj|hunter2|AKIAABCD|ghp_abc/);
    expect(sent).toContain("[REDACTED:api-key]");
    const asked = server.requests.length;
    const again = await ingestSessions(ws, { llm, now: NOW });
    expect(again.factsExtracted).toBe(0);
    expect(server.requests.length).toBe(asked);
  });
});
