// End to end through the BUILT CLI (`pnpm test` builds first): input an unlucky user
// really writes (issue 13, items 8-10) becomes a diagnostic with file:line, never a crash,
// a silent cut or raw terminal control; entity pages get portable, case-insensitive names.
import { execFile, execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entityReport } from "../src/mcp/server.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);
const cli = MEMBANK_BIN;
const LONG = `Grand-${"Ünïcödé-".repeat(30)}Committee`; // ~300 bytes: once ENAMETOOLONG

async function membank(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, MEMBANK_WORKSPACE: "", LANG: "C" },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Control characters other than tab and line feed (what a terminal would act on). */
const controls = (s: string) => [...s].filter((c) => (c < " " && c !== "\t" && c !== "\n") || c === "\u007f");

let dir: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-input-e2e-"));
  await mkdir(path.join(dir, "memory"), { recursive: true });
  await mkdir(path.join(dir, "sessions"), { recursive: true });
  await writeFile(path.join(dir, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  await writeFile(
    path.join(dir, "memory/2026-03-02.md"),
    [
      "# Mon 2 March",
      "",
      "Long day. \u001b]0;owned\u0007\u001b[2J\u001b[31mThe build log pasted raw\u001b[0m.",
      "",
      "## Retain",
      "- W @Peter: Back from Marrakech on Sunday.",
      "- O(c=0.8) @peter: Prefers tea over coffee in the morning.",
      "- W @PETER: Starts at the Lisbon office in April.",
      "- S: Asked @Peter's opinion on the @Node.js upgrade and pinged @O'Brien.",
      "- B: Benchmarked @C++ against @C# for the parser.",
      "- W @CON: The conference badge arrived.",
      `- W @${LONG}: Meets quarterly.`,
      "- W @a/b: this line names a path, not an entity",
      "- W @foo@bar: a handle glued to another",
      "- W @Mara: the terminal bell \u0007 rang here",
      "- W @Mara: colour \u001b[31mred\u001b[0m in a fact",
      "",
    ].join("\n"),
  );
  await writeFile(
    path.join(dir, "memory/2026-03-03.md"),
    Buffer.concat([
      Buffer.from("# Tue\n\n## Retain\n- W @Mara: Lunch at the caf"),
      Buffer.from([0xe9]), // Latin-1 "é"
      Buffer.from(" on the corner.\n- W @Mara: Likes the new office.\n"),
    ]),
  );
  await writeFile(path.join(dir, "memory/2026-03-04.md"), "# Wed\n\n## Retain\n- W @Jonas: never read\n");
  await truncate(path.join(dir, "memory/2026-03-04.md"), 2 * 1024 ** 3); // sparse: nothing really written
  git("init", "-q", "-b", "main");
  git("add", "membank.config.json", "memory/2026-03-02.md", "memory/2026-03-03.md");
  git("commit", "-q", "-m", "user: logs");
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("membank facts on messy input", () => {
  it("reports each bad line as path:line, prints no terminal control, and does not crash on a 2 GB log", async () => {
    const res = await membank("facts", "--workspace", dir);
    expect(res.code).toBe(0);
    const err = res.stderr.split("\n");
    const at = (where: string) => err.find((l) => l.startsWith(`${where}: `)) ?? "";
    expect(at("memory/2026-03-02.md:13")).toMatch(/invalid entity "@a\/b" before the colon/);
    expect(at("memory/2026-03-02.md:14")).toMatch(/invalid entity "@foo@bar" before the colon/);
    expect(at("memory/2026-03-02.md:15")).toMatch(/contains control character U\+0007/);
    expect(at("memory/2026-03-02.md:16")).toMatch(/contains control character U\+001B/);
    // A lone Latin-1 byte is a log re-saved as Windows-1252: read as that (the fact kept), said once.
    expect(at("memory/2026-03-03.md:1")).toMatch(/saved as Windows-1252 \("ANSI"\), not UTF-8/);
    expect(res.stdout).toContain("Lunch at the café on the corner.");
    expect(at("memory/2026-03-04.md:1")).toMatch(/file is 2147483648 bytes, over the 16777216-byte/);
    expect(controls(res.stdout + res.stderr)).toEqual([]);
  });

  it("keeps whole names: Node.js, O'Brien, C++ and C# (two entities), and Peter of Peter's", async () => {
    const res = await membank("facts", "--workspace", dir, "--json");
    const facts = JSON.parse(res.stdout).facts as { entities: string[]; content: string }[];
    const entities = (start: string) => facts.find((f) => f.content.startsWith(start))?.entities;
    expect(entities("Asked")).toEqual(["Peter", "Node.js", "O'Brien"]);
    expect(entities("Benchmarked")).toEqual(["C++", "C#"]);
    expect(entities("Meets quarterly")).toEqual([LONG]);
    expect(entities("Likes the new office")).toEqual(["Mara"]);
  });
});

describe("membank run nightly on messy input", () => {
  it("writes one portable page per entity, case variants on one page, and commits", async () => {
    const res = await membank("run", "nightly", "--workspace", dir, "--sessions", path.join(dir, "sessions"), "--json");
    expect(res.stderr).not.toMatch(/ENAMETOOLONG|ERR_FS_FILE_TOO_LARGE|at .*\.js:\d+/);
    expect(res.code).toBe(0);
    const pages = (await readdir(path.join(dir, "bank/entities"))).sort();
    // @Peter, @peter and @PETER: one page, under the most frequent spelling (Peter: 2 facts).
    expect(pages.filter((p) => p.toLowerCase() === "peter.md")).toEqual(["Peter.md"]);
    const peter = await readFile(path.join(dir, "bank/entities/Peter.md"), "utf8");
    for (const text of ["Back from Marrakech", "Prefers tea", "Lisbon office"]) expect(peter).toContain(text);
    // Windows device names and 300-byte names get a safe file name with a stable hash.
    for (const p of pages) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(124);
      expect(p.split(".")[0]!.toUpperCase()).not.toMatch(/^(CON|PRN|AUX|NUL|COM\d|LPT\d)$/);
    }
    expect(pages).toEqual(expect.arrayContaining(["C#.md", "C++.md", "Node.js.md", "O'Brien.md"]));
    expect(pages.some((p) => /^CON~[0-9a-f]{10}\.md$/.test(p))).toBe(true);
    expect(pages.some((p) => /^Grand-Ünïcödé-.*~[0-9a-f]{10}\.md$/.test(p.normalize("NFC")))).toBe(true);
    expect(git("status", "--porcelain", "bank")).toBe("");
    expect(controls(git("log", "--format=%B", "-1"))).toEqual([]);

    // A second run has nothing to do: the hashed names are stable.
    const again = await membank(
      "run",
      "nightly",
      "--workspace",
      dir,
      "--sessions",
      path.join(dir, "sessions"),
      "--json",
    );
    expect(JSON.parse(again.stdout).status).toBe("nothing");
  });

  it("answers memory_entity for any spelling with the one page and every spelling's facts", async () => {
    const ws = await openWorkspace(dir);
    for (const name of ["Peter", "peter", "PETER", "@Peter"]) {
      const report = await entityReport(ws, name);
      expect(report.page?.path).toBe("bank/entities/Peter.md");
      expect(report.facts.map((f) => f.content).sort()).toEqual(
        expect.arrayContaining([
          "Back from Marrakech on Sunday.",
          "Prefers tea over coffee in the morning.",
          "Starts at the Lisbon office in April.",
        ]),
      );
    }
    const cpp = await entityReport(ws, "C#");
    expect(cpp.entity).toBe("C#");
    expect(cpp.facts.map((f) => f.content)).toEqual(["Benchmarked @C++ against @C# for the parser."]);
  });

  it("recalls an entity asked for in any case with the facts of every spelling", async () => {
    const res = await membank("recall", "tell me about PETER", "--workspace", dir, "--json", "--k", "20");
    expect(res.code).toBe(0);
    const contents = (JSON.parse(res.stdout).results as { content: string }[]).map((r) => r.content).join("\n");
    for (const text of ["Back from Marrakech", "Prefers tea", "Lisbon office"]) expect(contents).toContain(text);
  });

  it("indexes and searches without reading the 2 GB log, and says it is not indexed", async () => {
    const index = await membank("index", "--workspace", dir);
    expect(index.code).toBe(0);
    expect(index.stdout + index.stderr).toMatch(/not indexed: memory\/2026-03-04\.md: file is 2147483648 bytes/);
    const t = performance.now();
    const res = await membank("search", "Marrakech", "--workspace", dir);
    expect(res.code).toBe(0);
    expect(performance.now() - t).toBeLessThan(15_000);
    expect(res.stdout).toContain("memory/2026-03-02.md");
    expect(controls(res.stdout)).toEqual([]);
  });
});
