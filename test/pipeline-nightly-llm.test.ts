import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { createLlm } from "../src/llm/index.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { type MessagesServer, startMessagesServer } from "./llm-messages-server.js";

const exec = promisify(execFile);
const NOW = new Date("2026-03-16T03:00:00Z");
let tmp: string;
let server: MessagesServer;
let ws: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-nightly-llm-"));
  server = await startMessagesServer();
  const root = path.join(tmp, "ws");
  await cp(path.resolve(import.meta.dirname, "../bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({
      embedding: { provider: "none" },
      llm: {
        provider: "anthropic",
        anthropic: { baseUrl: server.baseUrl, model: "claude-test", apiKeyEnv: "MEMBANK_TEST_KEY" },
      },
    }),
  );
  await exec("git", ["init", "-q"], { cwd: root });
  await exec("git", ["add", "-A"], { cwd: root });
  await exec("git", ["-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "logs"], { cwd: root });
  ws = await openWorkspace(root);
});
afterEach(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("nightly pipeline with an LLM (real Anthropic SDK, local Messages API)", () => {
  it("extracts facts from past logs without a Retain section, reflects them and commits the log with the bank", async () => {
    server.fallback = (req) => {
      const text = JSON.stringify(req.body.messages);
      if (text.includes("Fönsterfabriken") && /extract/i.test(JSON.stringify(req.body))) {
        return {
          text: JSON.stringify({
            facts: [
              {
                kind: "W",
                entities: ["The-Castle"],
                confidence: null,
                content: "A local joiner quoted 18% more than Fönsterfabriken to restore the original windows.",
              },
            ],
          }),
        };
      }
      if (text.includes('"stance"') || /stance/i.test(JSON.stringify(req.body.system ?? ""))) {
        return { text: JSON.stringify({ stance: "unrelated", strength: 0, reason: "test" }) };
      }
      return { text: JSON.stringify({ facts: [] }) };
    };
    const llm = await createLlm(ws, { env: { MEMBANK_TEST_KEY: "test-key" } });
    const record = await runPipeline(ws, "nightly", { llm, now: NOW });
    expect(record.status).toBe("done");

    const log = await readFile(path.join(ws.root, "memory/2026-03-07.md"), "utf8");
    expect(log).toContain("## Retain (extracted)");
    expect(log).toContain("- W @The-Castle: A local joiner quoted 18% more than Fönsterfabriken");
    // The extracted log is committed together with the bank, and its fact reached the entity page.
    const committed = (
      await exec("git", ["show", "--name-only", "--format=", record.commit ?? "HEAD"], { cwd: ws.root })
    ).stdout;
    expect(committed).toContain("memory/2026-03-07.md");
    expect(committed).toContain("bank/entities/The-Castle.md");
    const page = await readFile(path.join(ws.root, "bank/entities/The-Castle.md"), "utf8");
    expect(page).toContain("A local joiner quoted 18% more than Fönsterfabriken");
    expect(page).toContain("../../memory/2026-03-07.md#L");
    expect((await exec("git", ["status", "--porcelain", "memory"], { cwd: ws.root })).stdout).toBe("");
  });
});
