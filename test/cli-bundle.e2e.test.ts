/**
 * The bundled CLI (package.json's bin: dist/membank.cjs running dist/membank-bundle.cjs with
 * V8's code cache) is what users run: every command must work from it, including what finds
 * files next to its own code (templates, the merge driver's script, chrono, yaml, WordNet,
 * the USE packages), and print the same bytes as the tsc build. The code cache is an
 * optimisation only: a missing, bad or unwritable cache changes nothing a user sees.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN, REPO_ROOT, TSC_CLI } from "./cli-bin.js";

const exec = promisify(execFile);
let tmp: string;
let ws: string;
let cacheHome: string;
// No provider key from the developer's shell (the default is BM25 + structure); the code
// cache in this test's own folder.
const env = () => ({ ...process.env, OPENAI_API_KEY: "", GEMINI_API_KEY: "", XDG_CACHE_HOME: cacheHome });

async function run(cli: string, ...args: string[]): Promise<string> {
  try {
    return (await exec(process.execPath, [cli, ...args], { env: env(), cwd: tmp })).stdout;
  } catch (error) {
    const e = error as { stdout: string; stderr: string };
    throw new Error(`membank ${args.join(" ")} failed:\n${e.stdout}\n${e.stderr}`);
  }
}
const membank = (...args: string[]) => run(MEMBANK_BIN, ...args);
const git = async (...args: string[]) =>
  (await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws })).stdout;

const DAY1 = `# Thursday 12 Nov

Long call with Ines about the Lisbon office move, she's worried about the lease.
Rafa finally shipped the invoice exporter, took him three weeks.

## Retain
- W @Ines: Runs facilities for the Lisbon office; the lease ends in March 2027.
- B @Rafa: I reviewed Rafa's invoice exporter PR and merged it on Thursday.
- O(c=0.7) @Rafa: Prefers pairing over async code review for anything touching billing.
- W @Ines: Taking a vacation in the Azores from Dec 14 to Dec 28.
`;

const DAY2 = `# Tue 17 Nov

ines sent the new floor plan. rafa out sick.

## Retain
- W @Ines: Picked the smaller floor on Rua Augusta for the new office.
- O(c=0.6) @Rafa: Still prefers pairing for billing changes, said so again in standup.
- S: Quiet week, mostly office-move logistics.
`;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-bundle-"));
  ws = path.join(tmp, "ws");
  cacheHome = path.join(tmp, "cache");
  await membank("init", ws);
  await writeFile(path.join(ws, "memory/2026-11-12.md"), DAY1);
  await membank("run", "nightly", "-w", ws);
  await writeFile(path.join(ws, "memory/2026-11-17.md"), DAY2);
  // The second nightly reads the pages the first wrote (their YAML front matter).
  await membank("run", "nightly", "-w", ws);
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("the bundled CLI", () => {
  it("is package.json's bin and starts with a shebang", async () => {
    expect(path.relative(REPO_ROOT, MEMBANK_BIN)).toBe(path.join("dist", "membank.cjs"));
    expect((await readFile(MEMBANK_BIN, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect((await membank("--version")).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("init copies the templates and registers the merge driver with the bundle's path", async () => {
    expect((await readdir(path.join(ws, "templates"))).length).toBeGreaterThan(0);
    const driver = (await git("config", "merge.membank.driver")).trim();
    expect(driver).toContain(MEMBANK_BIN);
    expect(await readFile(path.join(ws, ".gitattributes"), "utf8")).toContain("merge=membank");
    expect(await membank("merge-driver", "--install", "-w", ws)).toBe("merge driver already set up\n");
  });

  it("run nightly writes and commits the bank pages", async () => {
    expect(existsSync(path.join(ws, "bank/entities/Ines.md"))).toBe(true);
    expect(await readFile(path.join(ws, "bank/entities/Rafa.md"), "utf8")).toContain("pairing");
    expect(await git("log", "--oneline")).not.toBe("");
    expect((await git("status", "--porcelain", "bank")).trim()).toBe("");
  });

  it("recall reads time words (chrono) and finds a paraphrase (WordNet)", async () => {
    const week = JSON.parse(
      await membank("recall", "-w", ws, "--json", "--as-of", "2026-11-19", "what happened last week?"),
    );
    expect(JSON.stringify(week.results)).toContain("invoice exporter");
    // No word of the question is in the log: only WordNet's holiday ~ vacation finds it.
    const holiday = await membank("recall", "-w", ws, "--explain", "who is off on holiday?");
    expect(holiday).toMatch(/Azores[^\n]*\n\s*found by synonyms/);
  });

  it("prints the same bytes as the tsc build for the read commands", async () => {
    const commands = [
      ["recall", "-w", ws, "--json", "--as-of", "2026-11-19", "what did I merge on Thursday?"],
      ["recall", "-w", ws, "what does Rafa think about code review?"],
      ["search", "-w", ws, "--json", "floor plan office"],
      ["get", "-w", ws, "memory/2026-11-12.md", "--from", "3", "--lines", "2"],
      ["facts", "-w", ws, "--json"],
      ["doctor", "-w", ws, "--json"],
      ["recall", "--help"],
    ];
    for (const args of commands) {
      expect(await membank(...args), args.join(" ")).toBe(await run(TSC_CLI, ...args));
    }
  }, 60_000);

  it("keeps a code cache per command in $XDG_CACHE_HOME/membank, and any bad cache only costs time", async () => {
    const dir = path.join(cacheHome, "membank");
    const caches = await readdir(dir);
    // The runs above made them (recall, search, ...), never in the workspace.
    expect(caches.some((f) => /-recall\.bin$/.test(f))).toBe(true);
    expect(caches.every((f) => f.includes(process.version))).toBe(true);
    expect((await readdir(ws)).some((f) => f.endsWith(".bin"))).toBe(false);

    const args = ["recall", "-w", ws, "--json", "--as-of", "2026-11-19", "who reviewed the exporter?"];
    const plain = await run(TSC_CLI, ...args);
    // A cache of garbage: rejected by V8, the answer is the same, and it is written anew.
    for (const f of caches) await writeFile(path.join(dir, f), "not a code cache");
    expect(await membank(...args)).toBe(plain);
    const recallCache = caches.find((f) => f.endsWith("-recall.bin"))!;
    expect((await readFile(path.join(dir, recallCache))).length).toBeGreaterThan(1000);
    // A cache folder that cannot be made (a file in its place): same answer, nothing thrown.
    await rm(dir, { recursive: true });
    await writeFile(dir, "in the way");
    expect(await membank(...args)).toBe(plain);
    await rm(dir);
    // Turned off: no cache written.
    const off = await exec(process.execPath, [MEMBANK_BIN, ...args], {
      env: { ...env(), NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    expect(off.stdout).toBe(plain);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it("imports ESM-only packages with a cache too (watch: chokidar through import())", async () => {
    // Twice: the first run writes the watch cache, the second runs from it.
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, [MEMBANK_BIN, "watch", "-w", ws], {
        env: env(),
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += String(d);
      });
      const deadline = Date.now() + 20_000;
      while (!/watching|error/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const code = await new Promise<number | null>((resolve) => {
        child.on("exit", (c) => resolve(c));
        child.kill("SIGINT");
      });
      expect(stderr).toMatch(/watching/);
      expect(stderr).not.toMatch(/error|warning/i);
      expect(code).toBe(0);
    }
    expect((await readdir(path.join(cacheHome, "membank"))).some((f) => f.endsWith("-watch.bin"))).toBe(true);
  }, 60_000);

  it("finds the native and model packages kept outside the bundle (sqlite-vec, USE)", async () => {
    const doctor = JSON.parse(await membank("doctor", "-w", ws, "--json"));
    expect(doctor.sqliteVec.loaded).toBe(true);
    expect(doctor.embedding.provider).toBe("none");
    // A workspace that chooses USE: doctor resolves its packages (without loading the model).
    const useWs = path.join(tmp, "use-ws");
    await membank("init", useWs, "--no-git");
    const configFile = path.join(useWs, "membank.config.json");
    const config = JSON.parse(await readFile(configFile, "utf8"));
    await writeFile(configFile, JSON.stringify({ ...config, embedding: { ...config.embedding, provider: "use" } }));
    const use = JSON.parse(await membank("doctor", "-w", useWs, "--json"));
    expect(use.embedding).toMatchObject({ configured: "use", provider: "use" });
  });
});
