import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlm } from "../src/llm/index.js";
import { createLocalCompleter } from "../src/llm/local.js";
import { judgePrompt } from "../src/llm/prompts.js";
import type { Fact } from "../src/retain/types.js";
import { MembankError } from "../src/workspace/errors.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { writeTinyLlamaGguf } from "./llm-tiny-llama.js";

const opinion = { statement: "Priya prefers async stand-ups", entities: ["Priya"], confidence: 0.7 };
const fact: Fact = {
  id: "f1",
  kind: "world",
  entities: ["Priya"],
  content: "Priya asked to cancel the daily meeting.",
  date: "2026-03-04",
  source: { path: "memory/2026-03-04.md", line: 3 },
};

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-local-llm-"));
  await mkdir(path.join(dir, "memory"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function localWs(local: object = {}) {
  await writeFile(path.join(dir, "membank.config.json"), JSON.stringify({ llm: { provider: "local", local } }));
  return openWorkspace(dir);
}

describe("local provider", () => {
  it("names the missing default model path, resolved in the workspace", async () => {
    const error = await createLlm(await localWs()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MembankError);
    expect((error as MembankError).code).toBe("ELLMMODEL");
    expect((error as Error).message).toContain(path.join(dir, ".memory/models/chat.gguf"));
    expect((error as Error).message).toContain('llm.local.modelPath = ".memory/models/chat.gguf"');
  });

  it("names a configured path that is missing or is a folder", async () => {
    const missing = path.join(dir, "models", "nope.gguf");
    await expect(createLlm(await localWs({ modelPath: missing }))).rejects.toThrow(missing);
    await mkdir(path.join(dir, "models", "folder.gguf"), { recursive: true });
    await expect(createLlm(await localWs({ modelPath: "models/folder.gguf" }))).rejects.toThrow(
      path.join(dir, "models", "folder.gguf"),
    );
  });
});

/**
 * The real node-llama-cpp path with a generated, untrained Llama model: it proves the
 * plumbing (lazy load, chat session, JSON-schema grammar, validation, retry, skip), not
 * answer quality — no trained chat model can be generated cheaply inside a test.
 */
describe("local provider with a generated tiny Llama model", () => {
  it("constrains the output to the answer's JSON shape, and validates it like any answer", async () => {
    const modelPath = writeTinyLlamaGguf(path.join(dir, "tiny-chat.gguf"));
    const completer = createLocalCompleter({ modelPath, configuredPath: "tiny-chat.gguf", threads: 1 });
    try {
      const request = judgePrompt(opinion, fact);
      const raw = await completer.complete({ ...request, maxTokens: 60 });
      // The grammar forces the schema's first key and one of its enum values, whatever the weights.
      expect(raw).toMatch(/^\{\s*"stance"\s*:\s*"(support|contradict|unrelated)"\s*,\s*"strength"\s*:\s*-?\d/);
      // Greedy decoding of seeded weights: the same request gives the same text.
      expect(await completer.complete({ ...request, maxTokens: 60 })).toBe(raw);
    } finally {
      await completer.close?.();
    }
  });

  it("runs judging through createLlm: a valid judgement, or a skip with a warning after one retry", async () => {
    writeTinyLlamaGguf(path.join(dir, "tiny-chat.gguf"));
    const llm = await createLlm(await localWs({ modelPath: "tiny-chat.gguf" }), { threads: 1 });
    try {
      expect(llm.provider).toBe("local");
      expect(llm.model).toBe("tiny-chat.gguf");
      const judgement = await llm.judge!.judge(opinion, fact);
      expect(["support", "contradict", "unrelated"]).toContain(judgement.stance);
      expect(judgement.strength).toBeGreaterThanOrEqual(0);
      expect(judgement.strength).toBeLessThanOrEqual(1);
      if (judgement.skipped) {
        expect(llm.warnings).toHaveLength(1);
        expect(llm.warnings![0]).toMatch(/^judge memory\/2026-03-04\.md#L3: invalid LLM answer twice \(/);
      } else {
        expect(llm.warnings).toEqual([]);
      }
    } finally {
      await llm.close?.();
    }
  });
});

describe("local provider with a file that is not a model", () => {
  it("refuses a file without a GGUF header, naming it", async () => {
    await writeFile(path.join(dir, "notes.gguf"), "just some notes, not a model");
    await expect(createLlm(await localWs({ modelPath: "notes.gguf" }))).rejects.toThrow(
      `${path.join(dir, "notes.gguf")} (config llm.local.modelPath = "notes.gguf") is not a GGUF v2/v3 model file (no GGUF header).`,
    );
    await writeFile(path.join(dir, "v9.gguf"), Buffer.from("GGUF\x09\x00\x00\x00", "latin1"));
    await expect(createLlm(await localWs({ modelPath: "v9.gguf" }))).rejects.toThrow(/\(GGUF version 9\)/);
  });

  it("reports a load failure once, naming the file, and stops asking", async () => {
    // A well-formed GGUF header with no tensors and no metadata: llama.cpp refuses it quickly.
    const empty = Buffer.alloc(24);
    empty.write("GGUF", 0, "latin1");
    empty.writeUInt32LE(3, 4);
    await writeFile(path.join(dir, "empty.gguf"), empty);
    const llm = await createLlm(await localWs({ modelPath: "empty.gguf" }), { threads: 1 });
    try {
      expect(await llm.judge!.judge(opinion, fact)).toMatchObject({ skipped: true });
      expect(await llm.summarizeEntity!("Priya", [fact])).toBeNull();
      expect(llm.warnings).toHaveLength(1);
      expect(llm.warnings![0]).toContain(`Cannot load the local chat model ${path.join(dir, "empty.gguf")}`);
      expect(llm.warnings![0]).toContain("no further LLM calls this run");
    } finally {
      await llm.close?.();
    }
  }, 20_000);
});
