import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { configFor, parseModelFileName, parsePullSource, registerModels } from "../src/cli/commands/models.js";
import { MembankError } from "../src/workspace/errors.js";

/**
 * `membank models pull` cannot download here (no internet in tests): only its argument
 * validation is tested, through the real commander program, and nothing may be written.
 */
const dir = mkdtempSync(path.join(tmpdir(), "membank-models-"));
mkdirSync(path.join(dir, "memory"));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function pull(args: string[]): Promise<unknown> {
  const program = new Command().exitOverride();
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerModels(program);
  return program.parseAsync(["node", "membank", "models", "pull", ...args]).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("models pull sources", () => {
  test("accepts hf: URIs and http(s) URLs", () => {
    for (const ok of [
      "hf:ggml-org/embeddinggemma-300M-GGUF:Q8_0",
      "hf:nomic-ai/nomic-embed-text-v1.5-GGUF/nomic-embed-text-v1.5.Q8_0.gguf",
      "https://example.com/models/mini.gguf",
    ]) {
      expect(parsePullSource(ok)).toBe(ok);
    }
  });

  test("refuses local paths, other schemes and malformed URIs with exit code 2", () => {
    for (const bad of [
      "./model.gguf",
      "/tmp/model.gguf",
      "ftp://x/y.gguf",
      "hf:",
      "hf:onlyuser",
      "hf:a b/c",
      "",
      "https://",
    ]) {
      const error = (() => {
        try {
          parsePullSource(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(MembankError);
      expect((error as MembankError).exitCode).toBe(2);
      expect((error as MembankError).message).toContain(JSON.stringify(bad));
    }
  });

  test("property: a string is accepted only if it is an hf: URI or an http(s) URL", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        let accepted = true;
        try {
          parsePullSource(s);
        } catch (e) {
          expect(e).toBeInstanceOf(MembankError);
          accepted = false;
        }
        if (accepted) expect(s.trim()).toMatch(/^(hf:|https?:\/\/)/);
      }),
    );
  });

  test("--name must be a plain .gguf file name", () => {
    expect(parseModelFileName("mini-embed.Q8_0.gguf")).toBe("mini-embed.Q8_0.gguf");
    for (const bad of ["../x.gguf", "a/b.gguf", "model.bin", ".hidden.gguf", ""]) {
      expect(() => parseModelFileName(bad), bad).toThrow(MembankError);
    }
  });

  test("prints the config fragment for embedding or llm", () => {
    expect(configFor("embedding", ".memory/models/e.gguf")).toEqual({
      embedding: { provider: "local", local: { modelPath: ".memory/models/e.gguf" } },
    });
    expect(configFor("llm", ".memory/models/c.gguf")).toEqual({
      llm: { provider: "local", local: { modelPath: ".memory/models/c.gguf" } },
    });
  });
});

describe("models pull command", () => {
  test("bad arguments fail before touching the workspace or the network", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["./local.gguf", "--workspace", dir], /expected a Hugging Face URI/],
      [["hf:user/repo:Q8_0", "--workspace", dir, "--name", "../escape.gguf"], /--name must be a plain file name/],
      [["hf:user/repo:Q8_0", "--workspace", dir, "--for", "chat"], /--for must be one of embedding, llm/],
    ];
    for (const [args, message] of cases) {
      const error = await pull(args);
      expect(error, args.join(" ")).toBeInstanceOf(MembankError);
      expect((error as Error).message).toMatch(message);
      expect((error as MembankError).exitCode).toBe(2);
    }
    expect(readdirSync(dir)).toEqual(["memory"]);
  });

  test("a missing source is a usage error from commander", async () => {
    const error = await pull(["--workspace", dir]);
    expect((error as { code?: string }).code).toBe("commander.missingArgument");
  });
});
