import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isDailyLog } from "../src/markdown/log-path.js";
import { defaultConfig, parseConfig } from "../src/workspace/config.js";
import { MembankError } from "../src/workspace/errors.js";
import { isMemoryPath, listMemoryFiles } from "../src/workspace/files.js";
import { openWorkspace, resolveWorkspace } from "../src/workspace/workspace.js";

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), "membank-ws-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(root: string, rel: string, text = "x\n"): void {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

describe("resolveWorkspace", () => {
  it("prefers --workspace, then MEMBANK_WORKSPACE, then a config file found upwards", async () => {
    const a = tmp();
    const b = tmp();
    write(a, "MEMORY.md");
    write(b, "membank.config.json", JSON.stringify({ search: { maxResults: 3 } }));
    mkdirSync(path.join(b, "deep", "er"), { recursive: true });

    expect((await resolveWorkspace({ workspace: a, env: { MEMBANK_WORKSPACE: b } })).root).toBe(a);
    expect((await resolveWorkspace({ env: { MEMBANK_WORKSPACE: a }, cwd: b })).root).toBe(a);
    const found = await resolveWorkspace({ env: {}, cwd: path.join(b, "deep", "er") });
    expect(found.root).toBe(b);
    expect(found.config.search.maxResults).toBe(3);
    expect(found.config.search.minScore).toBe(0.35);
  });

  it("names what is missing when a folder is not a workspace", async () => {
    const empty = tmp();
    await expect(openWorkspace(empty)).rejects.toThrow(/not a membank workspace.*MEMORY\.md.*membank init/s);
    await expect(openWorkspace(path.join(empty, "nope"))).rejects.toThrow(/does not exist/);
    await expect(resolveWorkspace({ env: {}, cwd: empty })).rejects.toThrow(/--workspace DIR.*MEMBANK_WORKSPACE/s);
  });

  it("reports an invalid config with the file and the offending key", async () => {
    const ws = tmp();
    write(ws, "membank.config.json", JSON.stringify({ search: { maxResults: "many" } }));
    const err = await openWorkspace(ws).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MembankError);
    expect((err as Error).message).toContain("membank.config.json");
    expect((err as Error).message).toContain("search.maxResults");
    write(ws, "membank.config.json", "{ nope");
    await expect(openWorkspace(ws)).rejects.toThrow(/not valid JSON/);
    write(ws, "membank.config.json", JSON.stringify({ serach: {} }));
    await expect(openWorkspace(ws)).rejects.toThrow(/serach/);
  });
});

describe("config", () => {
  it("documents defaults that the issues specify", () => {
    const c = defaultConfig();
    expect(c.index.chunkTokens).toBe(400);
    expect(c.index.chunkOverlap).toBe(80);
    expect(c.search).toMatchObject({ maxResults: 6, minScore: 0.35, vectorWeight: 0.7, textWeight: 0.3 });
    expect(c.embedding.provider).toBe("auto");
    expect(c.llm.provider).toBe("none");
    expect(() => parseConfig({ retain: { defaultConfidence: 2 } }, "x.json")).toThrow(/retain.defaultConfidence/);
  });
});

describe("listMemoryFiles", () => {
  it("lists MEMORY.md, memory/** and bank/** markdown, sorted, and nothing else", async () => {
    const root = tmp();
    write(root, "MEMORY.md");
    write(root, "memory/2026-03-02.md");
    write(root, "memory/2026/2026-03-01.md");
    write(root, "memory/notes.txt");
    write(root, "bank/entities/Priya.md");
    write(root, "other/readme.md");
    write(root, ".memory/x.md");
    const ws = await openWorkspace(root);
    const files = (await listMemoryFiles(ws)).map((f) => f.path);
    expect(files).toEqual(["MEMORY.md", "bank/entities/Priya.md", "memory/2026-03-02.md", "memory/2026/2026-03-01.md"]);
  });

  it("never follows a symlink out of the workspace", async () => {
    const root = tmp();
    const outside = tmp();
    write(root, "MEMORY.md");
    write(outside, "secret.md", "secret\n");
    mkdirSync(path.join(root, "memory"));
    symlinkSync(path.join(outside, "secret.md"), path.join(root, "memory", "2026-01-01.md"));
    symlinkSync(outside, path.join(root, "memory", "linked-dir"));
    write(root, "memory/2026-01-02.md");
    symlinkSync(path.join(root, "memory", "2026-01-02.md"), path.join(root, "memory", "2026-01-03.md"));
    const files = (await listMemoryFiles(await openWorkspace(root))).map((f) => f.path);
    expect(files).toEqual(["MEMORY.md", "memory/2026-01-02.md"]);
  });
});

describe("path predicates", () => {
  it("recognises memory paths and daily logs", () => {
    expect(isMemoryPath("memory.md")).toBe(true);
    expect(isMemoryPath("memory/a.md")).toBe(true);
    expect(isMemoryPath("bank/opinions.md")).toBe(true);
    expect(isMemoryPath("src/a.md")).toBe(false);
    expect(isMemoryPath("memory/a.txt")).toBe(false);
    expect(isDailyLog("memory/2026-03-04.md")).toBe(true);
    expect(isDailyLog("memory/2026-03-04-sessions.md")).toBe(true);
    expect(isDailyLog("memory/notes.md")).toBe(false);
    expect(isDailyLog("bank/2026-03-04.md")).toBe(false);
  });
});
