/**
 * Reflect's memos (.memory/reflect/render-memo.json, prose-memo.json, topic-memo.json) are keyed by a
 * fingerprint of the code that derives them. The bundled CLI and the tsc build of the same
 * source must agree on it: a library caller (the OpenClaw plugin, the bench's set-up) and a
 * later `membank run nightly` share one workspace, and a fingerprint that differs only by how
 * esbuild prints a function would make every nightly derive ten years of facts again.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN, ordinaryShellEnv, TSC_CLI } from "./cli-bin.js";

const exec = promisify(execFile);
let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;

const run = async (cli: string, ...args: string[]) => (await exec(process.execPath, [cli, ...args], { env })).stdout;
const codeOf = async (file: string) =>
  (JSON.parse(await readFile(path.join(ws, ".memory/reflect", file), "utf8")) as { code: string }).code;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-memo-bundle-"));
  ws = path.join(tmp, "ws");
  env = await ordinaryShellEnv(tmp, { OPENAI_API_KEY: "", GEMINI_API_KEY: "", XDG_CACHE_HOME: path.join(tmp, "c") });
  await run(TSC_CLI, "init", ws, "--no-git");
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("reflect's memos across the tsc build and the bundle", () => {
  it("a nightly of the bundled CLI keeps the fingerprint the tsc build wrote", async () => {
    await writeFile(
      path.join(ws, "memory/2026-03-02.md"),
      "Mon. Grete called twice about the boiler, the landlord still hasn't sent anyone.\n\n## Retain\n- W @Grete: Landlord of the flat on Weserstr.; slow to answer about repairs.\n- O(c=0.65) @Grete: Would rather pay a plumber herself than wait for the agency.\n",
    );
    await run(TSC_CLI, "run", "nightly", "-w", ws);
    const render = await codeOf("render-memo.json");
    const prose = await codeOf("prose-memo.json");
    const topics = await codeOf("topic-memo.json");
    // A new day: a bundle of another fingerprint would throw both memos away and write them again under its own.
    await writeFile(
      path.join(ws, "memory/2026-03-04.md"),
      "boiler fixed!! Grete paid, no longer waiting on the agency apparently. Otto helped carry the old tank down\n\n## Retain\n- W @Grete: Paid the plumber for the boiler herself in the end.\n- B @Otto: Otto and I carried the old boiler tank down four floors.\n",
    );
    await run(MEMBANK_BIN, "run", "nightly", "-w", ws);
    expect(await codeOf("render-memo.json")).toBe(render);
    expect(await codeOf("prose-memo.json")).toBe(prose);
    expect(await codeOf("topic-memo.json")).toBe(topics);
  }, 60_000);
});
