// Reflect with an LLM: the real @anthropic-ai/sdk (through createLlm) against a Messages
// API of the test's own on 127.0.0.1. The LLM's stance decides the evidence, its summary
// heads the entity page, an invalid answer falls back to the deterministic path.
import { appendFile, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLlm } from "../src/llm/index.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { type RecordedRequest, type Reply, startMessagesServer } from "./llm-messages-server.js";
import { EVOLVING, git, opinionsByEntity, workspaceFrom } from "./reflect-support.js";

const ENV = { ANTHROPIC_API_KEY: "sk-ant-test-reflect-0000" };
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const task = (r: RecordedRequest) =>
  r.body.system?.includes("You judge evidence")
    ? "judge"
    : r.body.system?.includes("summary line")
      ? "summary"
      : "other";
const userText = (r: RecordedRequest) => r.body.messages.map((m) => m.content).join("\n");

describe("reflect with the anthropic provider", () => {
  it("uses the LLM's stance and summaries, falls back on an invalid answer, and asks nothing twice", async () => {
    const server = await startMessagesServer();
    try {
      const answer = (r: RecordedRequest): Reply => {
        const text = userText(r);
        if (task(r) === "judge") {
          // The LLM reads "she chose tea again" as support, and Ben's slip as a contradiction.
          if (text.includes("slipped")) return { text: '{"stance":"contradict","strength":1,"reason":"It slipped."}' };
          if (text.includes("chose tea")) return { text: '{"stance":"support","strength":0.9,"reason":"Tea again."}' };
          return { text: '{"stance":"unrelated","strength":0,"reason":"Different topic."}' };
        }
        if (task(r) === "summary") {
          if (text.includes("Cy")) return { text: "I cannot summarise this." }; // invalid, twice
          return { text: '{"summary":"A colleague on the bridge project."}' };
        }
        return {
          status: 400,
          body: { type: "error", error: { type: "invalid_request_error", message: "unexpected" } },
        };
      };
      server.fallback = answer;
      const { dir } = await workspaceFrom(EVOLVING, { logs: (n) => n < "2026-01-10" });
      dirs.push(dir);
      await writeFile(
        path.join(dir, "membank.config.json"),
        JSON.stringify({
          llm: { provider: "anthropic", anthropic: { baseUrl: server.baseUrl, model: "claude-test" } },
        }),
      );
      git(dir, "add", "membank.config.json");
      git(dir, "commit", "-q", "-m", "user: llm config");
      const ws = await openWorkspace(dir);
      const llm = await createLlm(ws, { env: ENV, maxRetries: 0 });

      const report = await reflect(ws, { llm });
      expect(report.judge).not.toBe("heuristic-v1");
      const ops = await opinionsByEntity(dir);
      expect(ops.get("Ben")!.evidence.map((e) => `${e.date} ${e.stance}`)).toEqual([
        "2026-01-05 support",
        "2026-01-08 contradict",
      ]);
      expect(ops.get("Ben")!.confidence).toBeLessThan(0.8);
      expect(ops.get("Ana")!.confidence).toBeGreaterThan(0.6);

      const ana = await readFile(path.join(dir, "bank/entities/Ana.md"), "utf8");
      // The LLM's summary heads the region; the deterministic current-state block follows it.
      expect(ana).toContain("<!-- membank:begin summary -->\nA colleague on the bridge project.\n\n");
      expect(ana).toMatch(/A colleague on the bridge project\.\n\n(?:From MEMORY\.md|Current state|Upcoming|Latest):/);
      // Cy's summary answer was invalid: the deterministic summary is used and the run says so.
      const cy = await readFile(path.join(dir, "bank/entities/Cy.md"), "utf8");
      expect(cy).toMatch(/<!-- membank:begin summary -->\n@Cy: \d+ facts? on \d+ days?/);
      expect(report.warnings.some((w) => /summary/i.test(w))).toBe(true);
      expect(report.warnings.join("\n")).not.toContain(ENV.ANTHROPIC_API_KEY);

      // Second run: same bytes, no commit, and no new summary or judge question.
      const asked = server.requests.length;
      const again = await reflect(ws, { llm: await createLlm(ws, { env: ENV, maxRetries: 0 }) });
      expect(again.pagesWritten).toEqual([]);
      expect(again.commit).toBeUndefined();
      const newTasks = server.requests.slice(asked).map(task);
      expect(newTasks.filter((t) => t === "summary" || t === "judge")).toEqual([]);
    } finally {
      await server.close();
    }
  });
  it("extracts facts from a past log without a Retain section and commits that log with the pages", async () => {
    const server = await startMessagesServer();
    try {
      server.fallback = (r: RecordedRequest): Reply => {
        if (task(r) === "judge") return { text: '{"stance":"unrelated","strength":0,"reason":"Different topic."}' };
        if (task(r) === "summary") return { text: '{"summary":"Someone from the logs."}' };
        if (userText(r).includes("ferry to Tallinn")) {
          return {
            text: JSON.stringify({
              facts: [{ kind: "B", entities: ["Ana"], confidence: null, content: "I booked Ana's ferry to Tallinn." }],
            }),
          };
        }
        return { text: '{"facts":[]}' };
      };
      const { dir } = await workspaceFrom(EVOLVING, { repo: false });
      dirs.push(dir);
      await writeFile(path.join(dir, "memory/2026-01-13.md"), "# 2026-01-13\n\nBooked the ferry to Tallinn for Ana.\n");
      await writeFile(
        path.join(dir, "membank.config.json"),
        JSON.stringify({
          llm: { provider: "anthropic", anthropic: { baseUrl: server.baseUrl, model: "claude-test" } },
        }),
      );
      git(dir, "init", "-q", "-b", "main");
      git(dir, "add", "-A");
      git(dir, "commit", "-q", "-m", "user: logs");
      const ws = await openWorkspace(dir);
      const report = await reflect(ws, {
        llm: await createLlm(ws, { env: ENV, maxRetries: 0 }),
        now: new Date("2026-01-20T12:00:00Z"),
      });

      expect(report.extracted).toEqual(["memory/2026-01-13.md"]);
      const log = await readFile(path.join(dir, "memory/2026-01-13.md"), "utf8");
      expect(log.startsWith("# 2026-01-13\n\nBooked the ferry to Tallinn for Ana.\n")).toBe(true);
      expect(log).toContain("## Retain (extracted)");
      expect(log).toContain("- B @Ana: I booked Ana's ferry to Tallinn.");
      expect(git(dir, "show", "--name-only", "--format=", "HEAD")).toContain("memory/2026-01-13.md");
      expect(await readFile(path.join(dir, "bank/entities/Ana.md"), "utf8")).toContain(
        "I booked Ana's ferry to Tallinn.",
      );
      expect(git(dir, "status", "--porcelain")).toBe("");

      // A person appends to the log afterwards: it has its Retain section now, so nothing is extracted again.
      await appendFile(path.join(dir, "memory/2026-01-13.md"), "\nLater: the ferry leaves at 9.\n");
      const again = await reflect(ws, {
        llm: await createLlm(ws, { env: ENV, maxRetries: 0 }),
        now: new Date("2026-01-20T12:00:00Z"),
      });
      expect(again.extracted).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
