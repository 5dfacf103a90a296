import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRetain } from "../src/retain/index.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pluginDir = path.join(repo, "openclaw-plugin");
const cli = MEMBANK_BIN;

interface PluginLib {
  SUPPORTED_OPENCLAW: string;
  unsupportedHostMessage(v: string | undefined): string | undefined;
  resolveConfig(c: unknown, ctx?: { workspaceDir?: string }): Record<string, unknown>;
  recallArgv(cfg: unknown, params: Record<string, unknown>): string[];
  entityArgv(cfg: unknown, params: Record<string, unknown>): string[];
  formatResults(res: unknown): string;
  promptLines(tools: Set<string>, guidance: string): string[];
  runMembank(cfg: unknown, argv: string[]): Promise<{ results: { source: string; content: string }[] }>;
}

// The plugin is plain JavaScript that OpenClaw loads on Node 24; its pure part runs on any Node.
const lib = (await import(pathToFileURL(path.join(pluginDir, "lib.js")).href)) as PluginLib;
const guidance = readFileSync(path.join(pluginDir, "retain-guidance.md"), "utf8");

describe("plugin package", () => {
  it("pins the supported OpenClaw range in package.json, the manifest's tools match the entry's", () => {
    const pkg = JSON.parse(readFileSync(path.join(pluginDir, "package.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(pluginDir, "openclaw.plugin.json"), "utf8"));
    const entry = readFileSync(path.join(pluginDir, "index.js"), "utf8");
    expect(pkg.peerDependencies.openclaw).toBe(lib.SUPPORTED_OPENCLAW);
    expect(pkg.openclaw.extensions).toEqual(["./index.js"]);
    // No runtime dependencies: the root `pnpm install` is the only install step.
    expect(pkg.dependencies).toBeUndefined();
    for (const tool of manifest.contracts.tools) expect(entry).toContain(`name: "${tool}"`);
    expect(manifest.contracts.tools).toEqual(["memory_recall", "memory_entity"]);
  });

  it("accepts OpenClaw 2026.9.x and says clearly when the host is outside the range", () => {
    expect(lib.unsupportedHostMessage("2026.9.6")).toBeUndefined();
    expect(lib.unsupportedHostMessage("2026.9.14-beta.2")).toBeUndefined();
    for (const v of ["2026.9.5", "2026.10.0", "2027.1.1", "2026.8.1", "", undefined, "dev"]) {
      const msg = lib.unsupportedHostMessage(v);
      expect(msg).toContain(">=2026.9.6 <2026.10.0");
      expect(msg).toContain("membank openclaw setup --mcp");
    }
  });

  it("tells the agent when to call the tools and how to write ## Retain, with examples membank parses", () => {
    const lines = lib.promptLines(new Set(["memory_recall", "memory_entity", "memory_search"]), guidance).join("\n");
    expect(lines).toContain("`memory_recall`");
    expect(lines).toContain("`memory_entity`");
    expect(lines).toContain("## Retain");
    // Without our tools (e.g. denied by policy) the Retain paragraph still goes in, the tool advice not.
    const bare = lib.promptLines(new Set(["memory_search"]), guidance).join("\n");
    expect(bare).not.toContain("memory_recall");
    expect(bare).toContain("## Retain");
    const example = /```\n([\s\S]*?)```/.exec(guidance)?.[1] ?? "";
    const { facts, diagnostics } = parseRetain("memory/2026-11-20.md", example);
    expect(diagnostics).toEqual([]);
    expect(facts.map((f) => f.kind)).toHaveLength(2);
  });

  it("builds the CLI call: JSON out, the workspace, filters, and a query that starts with a dash stays a query", () => {
    const cfg = lib.resolveConfig({ membank: "/m/main.js", node: "/n/node" }, { workspaceDir: "/ws" });
    expect(cfg).toMatchObject({ membank: "/m/main.js", node: "/n/node", workspace: "/ws", timeoutMs: 120000 });
    expect(lib.recallArgv(cfg, { query: "-v flag?", since: "2026-11-01", k: 3 })).toEqual([
      "/m/main.js",
      "recall",
      "--json",
      "--workspace",
      "/ws",
      "--k",
      "3",
      "--since",
      "2026-11-01",
      "--",
      "-v flag?",
    ]);
    expect(lib.entityArgv(cfg, { name: "@Mara" })).toContain("Mara");
  });
});

describe("plugin tools against membank's real CLI", () => {
  let ws: string;
  beforeAll(async () => {
    ws = await mkdtemp(path.join(tmpdir(), "membank-plugin-"));
    await mkdir(path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "membank.config.json"), '{"embedding":{"provider":"none"}}\n');
    await writeFile(
      path.join(ws, "memory", "2026-11-20.md"),
      "# Thu\n\nCall with Mara, long.\n\n## Retain\n- O(c=0.8) @Mara: Prefers a written status on Fridays.\n" +
        "- W @Zanzibar: Second region goes live Dec 3, 2026.\n",
    );
    await promisify(execFile)(process.execPath, [cli, "index", "--workspace", ws]);
  });

  it("memory_recall returns cited results, formatted compactly for the model", async () => {
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: ws });
    const res = await lib.runMembank(cfg, lib.recallArgv(cfg, { query: "what does Mara prefer?" }));
    const text = lib.formatResults(res);
    expect(text).toMatch(/memory\/2026-11-20\.md#L6/);
    expect(text).toContain("written status on Fridays");
  });

  it("memory_entity answers about one entity", async () => {
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: ws });
    const res = await lib.runMembank(cfg, lib.entityArgv(cfg, { name: "@Zanzibar" }));
    expect(res.results.some((r) => r.content.includes("Second region"))).toBe(true);
  });

  it("a missing workspace is one line naming it, and no config says to run setup", async () => {
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: path.join(ws, "nope") });
    await expect(lib.runMembank(cfg, lib.recallArgv(cfg, { query: "x" }))).rejects.toThrow(/nope/);
    await expect(lib.runMembank(lib.resolveConfig({}, { workspaceDir: ws }), ["x"])).rejects.toThrow(
      /membank openclaw setup/,
    );
  });
  it("a call without its query or name is refused with what the tool needs, not answered 'no results'", async () => {
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: ws });
    expect(() => lib.recallArgv(cfg, {})).toThrow('memory_recall: "query" must be a non-empty string, got nothing');
    expect(() => lib.recallArgv(cfg, { query: "  " })).toThrow(/"query" must be a non-empty string/);
    expect(() => lib.entityArgv(cfg, {})).toThrow('memory_entity: "name" must be a non-empty string, got nothing');
    // A bad filter reaches membank, whose reason comes back whole.
    await expect(lib.runMembank(cfg, lib.recallArgv(cfg, { query: "Mara", since: "last week" }))).rejects.toThrow(
      'membank recall failed: --since must be a date YYYY-MM-DD, got "last week"',
    );
  });

  it("a folder that is no membank workspace: the whole reason and the command that makes it one", async () => {
    const bare = await mkdtemp(path.join(tmpdir(), "membank-plugin-bare-"));
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: bare });
    await expect(lib.runMembank(cfg, lib.recallArgv(cfg, { query: "x" }))).rejects.toThrow(
      /is not a membank workspace: .* Create one with: membank init/,
    );
  });

  it("an index that is gone is built again by the call, which answers", async () => {
    const copy = await mkdtemp(path.join(tmpdir(), "membank-plugin-noindex-"));
    await cp(path.join(ws, "memory"), path.join(copy, "memory"), { recursive: true });
    const cfg = lib.resolveConfig({ membank: cli, node: process.execPath, workspace: copy });
    const res = await lib.runMembank(cfg, lib.recallArgv(cfg, { query: "what does Mara prefer?" }));
    expect(lib.formatResults(res)).toContain("written status on Fridays");
  });
});
