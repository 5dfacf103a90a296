import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlm } from "../src/llm/index.js";
import { MembankError } from "../src/workspace/errors.js";
import { openWorkspace } from "../src/workspace/workspace.js";

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
