import type { Command } from "commander";
import { MembankError } from "../../workspace/errors.js";
import { printJson, workspaceOption } from "../shared.js";

interface PullFlags {
  workspace?: string;
  name?: string;
  for?: string;
  json?: boolean;
}

/** Where a pulled model is configured: the embedding provider or the local LLM. */
const TARGETS = ["embedding", "llm"] as const;
type Target = (typeof TARGETS)[number];

const HF_URI = /^hf:[\w.-]+\/[\w.-]+(?:[:/]\S+)?$/;

/**
 * Validate what `models pull` may fetch: a Hugging Face URI understood by node-llama-cpp
 * (`hf:user/repo:Q8_0`, `hf:user/repo/file.gguf`) or an http(s) URL. Local paths are
 * refused: pull is the one command that downloads, and only what the user names.
 */
export function parsePullSource(source: string): string {
  const s = source.trim();
  if (HF_URI.test(s)) return s;
  if (/^https?:\/\/\S+$/.test(s)) {
    try {
      new URL(s);
      return s;
    } catch {
      // fall through to the error below
    }
  }
  throw new MembankError(
    `models pull: expected a Hugging Face URI (hf:user/repo:Q8_0 or hf:user/repo/file.gguf) or an https:// URL, got ${JSON.stringify(source)}`,
    { code: "EUSAGE", exitCode: 2 },
  );
}

/** A plain file name to save under .memory/models/ (no folders, .gguf). */
export function parseModelFileName(name: string): string {
  if (!/^[\w.-]+\.gguf$/.test(name) || name.startsWith(".")) {
    throw new MembankError(
      `models pull: --name must be a plain file name ending in .gguf, got ${JSON.stringify(name)}`,
      {
        code: "EUSAGE",
        exitCode: 2,
      },
    );
  }
  return name;
}

function parseTarget(value: string | undefined): Target {
  const target = value ?? "embedding";
  if ((TARGETS as readonly string[]).includes(target)) return target as Target;
  throw new MembankError(`models pull: --for must be one of ${TARGETS.join(", ")}, got ${JSON.stringify(target)}`, {
    code: "EUSAGE",
    exitCode: 2,
  });
}

/** The config fragment that makes membank use the pulled file. */
export function configFor(target: Target, modelPath: string): Record<string, unknown> {
  return target === "embedding"
    ? { embedding: { provider: "local", local: { modelPath } } }
    : { llm: { provider: "local", local: { modelPath } } };
}

export function registerModels(program: Command): void {
  const models = program.command("models").description("manage local GGUF model files under .memory/models/");
  const pull = models
    .command("pull")
    .argument("<source>", "hf:user/repo:QUANT, hf:user/repo/file.gguf, or an https:// URL of a .gguf file")
    .description(
      "download a GGUF model into <workspace>/.memory/models/ (the only command that downloads) and print the config to use it",
    );
  workspaceOption(pull)
    .option("--name <file>", "file name to save as (default: the name node-llama-cpp derives from the source)")
    .option("--for <target>", "what the model is for: embedding (default) or llm")
    .option("--json", "print {path, architecture, dims, config} as JSON")
    .action(async (source: string, flags: PullFlags) => {
      const uri = parsePullSource(source);
      const fileName = flags.name === undefined ? undefined : parseModelFileName(flags.name);
      const target = parseTarget(flags.for);
      const path = await import("node:path");
      const { mkdir, stat } = await import("node:fs/promises");
      const { loadWorkspace } = await import("../shared.js");
      const { stateDir } = await import("../../workspace/workspace.js");
      const { readGgufHeader } = await import("../../embed/index.js");
      const ws = await loadWorkspace(flags);
      const dir = path.join(stateDir(ws), "models");
      await mkdir(dir, { recursive: true });
      const { resolveModelFile } = await import("node-llama-cpp");
      let file: string;
      try {
        file = await resolveModelFile(uri, {
          directory: dir,
          ...(fileName === undefined ? {} : { fileName }),
          cli: !flags.json && Boolean(process.stderr.isTTY),
        });
      } catch (error) {
        throw new MembankError(`models pull: cannot fetch ${uri}: ${(error as Error).message}`, {
          code: "EDOWNLOAD",
          cause: error,
        });
      }
      const modelPath = path.relative(ws.root, file).split(path.sep).join("/");
      const header = (() => {
        try {
          return readGgufHeader(file);
        } catch {
          return {};
        }
      })();
      const config = configFor(target, modelPath);
      if (flags.json) {
        printJson({
          path: modelPath,
          architecture: header.architecture ?? null,
          dims: header.embeddingLength ?? null,
          config,
        });
        return;
      }
      const size = (await stat(file)).size;
      const about = [header.architecture, header.embeddingLength ? `${header.embeddingLength} dims` : undefined]
        .filter(Boolean)
        .join(", ");
      process.stdout.write(
        `Saved ${modelPath} (${(size / 1e6).toFixed(1)} MB${about ? `, ${about}` : ""}).\n` +
          `To use it, merge this into ${ws.configPath ?? path.join(ws.root, "membank.config.json")}:\n` +
          `${JSON.stringify(config, null, 2)}\n`,
      );
    });
}
