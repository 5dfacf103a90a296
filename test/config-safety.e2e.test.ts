import { execFile, execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";
import { hasPrlimit } from "./support/prlimit.js";

// End to end through the built CLI (`pnpm build` first; `pnpm test` does it): what a user
// sees when the config or the disk is wrong. Every case: non-zero exit, one clear line
// naming the key or path, no stack, and the user's files byte-identical afterwards.
const cli = MEMBANK_BIN;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** Run as an unprivileged user (root ignores file permissions). */
  uid?: number;
  /** File size limit in bytes (RLIMIT_FSIZE), through prlimit. */
  fsize?: number;
}

function run(args: string[], opts: RunOptions = {}): Promise<Run> {
  let file = process.execPath;
  let argv = [cli, ...args];
  if (opts.fsize !== undefined) {
    argv = [`--fsize=${opts.fsize}`, file, ...argv];
    file = "prlimit";
  }
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      {
        env: { ...process.env, MEMBANK_WORKSPACE: "", HOME: tmpdir() },
        ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** A clean failure: non-zero, the message on stderr, and no stack trace. */
function expectCleanFailure(r: Run, ...patterns: RegExp[]): void {
  expect(r.code, r.stderr).not.toBe(0);
  expect(r.stderr).toMatch(/^membank: /);
  expect(r.stderr).not.toMatch(/\n\s+at |unexpected error/);
  for (const p of patterns) expect(r.stderr).toMatch(p);
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    if (existsSync(d)) {
      chmodAll(d, true);
      rmSync(d, { recursive: true, force: true });
    }
  }
});

function chmodAll(dir: string, writable: boolean): void {
  chmodSync(dir, writable ? 0o755 : 0o555);
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) chmodAll(path.join(dir, e.name), writable);
}

const LOG = `# 2026-03-02

Long call with Mara about the Q2 roadmap; the ledger export keeps timing out.

## Retain
- W @Mara: owns the ledger export since March.
- O(c=0.8) @Mara: prefers async status updates over meetings.
`;

/** A small workspace: MEMORY.md, a log, and the given config. */
function workspace(config?: string): string {
  const root = mkdtempSync(path.join(tmpdir(), "membank-safety-"));
  dirs.push(root);
  mkdirSync(path.join(root, "memory"));
  writeFileSync(path.join(root, "MEMORY.md"), "# MEMORY\n\n- Mara runs the finance team.\n");
  writeFileSync(path.join(root, "memory/2026-03-02.md"), LOG);
  if (config !== undefined) writeFileSync(path.join(root, "membank.config.json"), config);
  return root;
}

function foreignSqlite(file: string): void {
  const db = new Database(file);
  db.exec("CREATE TABLE contacts(name TEXT, phone TEXT); INSERT INTO contacts VALUES ('Mara', '555-0100')");
  db.close();
}

describe("index.path never replaces a user's file (issue 13, item 1)", () => {
  it("MEMORY.md, the workspace, memory/, an outside file or another app's SQLite file: a config error naming index.path", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "membank-outside-"));
    dirs.push(outside);
    const notes = path.join(outside, "notes.txt");
    writeFileSync(notes, "shopping: milk, eggs\n");
    const appDb = path.join(outside, "app.sqlite");
    foreignSqlite(appDb);

    const cases: { indexPath: string; file?: (root: string) => string }[] = [
      { indexPath: "MEMORY.md", file: (root) => path.join(root, "MEMORY.md") },
      { indexPath: "memory/2026-03-02.md", file: (root) => path.join(root, "memory/2026-03-02.md") },
      { indexPath: notes, file: () => notes },
      { indexPath: appDb, file: () => appDb },
      { indexPath: "" },
      { indexPath: "memory" },
      { indexPath: ".memory" },
      { indexPath: "bank/index.md" },
    ];
    for (const c of cases) {
      const root = workspace(JSON.stringify({ index: { path: c.indexPath } }));
      const target = c.file?.(root);
      const before = target === undefined ? undefined : readFileSync(target);
      const r = await run(["search", "-w", root, "--provider", "none", "ledger"]);
      expectCleanFailure(r, /index\.path/, /membank\.config\.json/);
      if (target !== undefined) {
        expect(r.stderr).toContain(target);
        expect(readFileSync(target).equals(before!), c.indexPath).toBe(true);
      }
      expect(readFileSync(path.join(root, "memory/2026-03-02.md"), "utf8")).toBe(LOG);
      expect(existsSync(path.join(root, "bank"))).toBe(false);
    }
  });

  it("inside .memory/: a state file is refused, another app's SQLite file is left alone, junk is rebuilt", async () => {
    const root = workspace(JSON.stringify({ index: { path: ".memory/reflect/pending.json" } }));
    mkdirSync(path.join(root, ".memory/reflect"), { recursive: true });
    writeFileSync(path.join(root, ".memory/reflect/pending.json"), '{"pages":["bank/entities/Mara.md"]}\n');
    const a = await run(["search", "-w", root, "--provider", "none", "ledger"]);
    expectCleanFailure(a, /index\.path/, /\.sqlite/);
    expect(readFileSync(path.join(root, ".memory/reflect/pending.json"), "utf8")).toContain("Mara.md");

    writeFileSync(
      path.join(root, "membank.config.json"),
      JSON.stringify({ index: { path: ".memory/recall-lines.sqlite" } }),
    );
    const store = await run(["search", "-w", root, "--provider", "none", "ledger"]);
    expectCleanFailure(store, /index\.path/, /another of membank's own stores/);
    expect(existsSync(path.join(root, ".memory/recall-lines.sqlite"))).toBe(false);

    writeFileSync(path.join(root, "membank.config.json"), "{}\n");
    const index = path.join(root, ".memory/index.sqlite");
    foreignSqlite(index);
    const before = readFileSync(index);
    const b = await run(["search", "-w", root, "--provider", "none", "ledger"]);
    expectCleanFailure(b, /another program's SQLite database \(tables: contacts\)/, /will not overwrite/);
    expect(b.stderr).toContain(index);
    expect(readFileSync(index).equals(before)).toBe(true);

    writeFileSync(index, "half a file left by a crash");
    const c = await run(["search", "-w", root, "--provider", "none", "--json", "ledger"]);
    expect(c.code, c.stderr).toBe(0);
    expect(JSON.parse(c.stdout).results[0].path).toBe("memory/2026-03-02.md");
  });

  it("a new file outside the workspace is fine, and is still accepted once it holds membank's index", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "membank-outside-"));
    dirs.push(outside);
    const file = path.join(outside, "derived", "mara.sqlite");
    const root = workspace(JSON.stringify({ index: { path: file } }));
    for (let i = 0; i < 2; i++) {
      const r = await run(["search", "-w", root, "--provider", "none", "--json", "ledger"]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).results[0].path).toBe("memory/2026-03-02.md");
    }
    expect(statSync(file).isFile()).toBe(true);
    const recall = await run(["recall", "-w", root, "--provider", "none", "what does Mara prefer?"]);
    expect(recall.code, recall.stderr).toBe(0);
    // Nothing of membank's other derived files (the recall line store) lands beside the user's file.
    expect(readdirSync(path.dirname(file)).filter((n) => !n.startsWith("mara.sqlite"))).toEqual([]);
  });
});

/** Root ignores permissions: run the permission cases as `nobody` then, owning the workspace. */
const UNPRIVILEGED = process.getuid?.() === 0 ? 65534 : undefined;
function handOver(root: string): void {
  if (UNPRIVILEGED === undefined) return;
  const own = (p: string) => {
    chownSync(p, UNPRIVILEGED, UNPRIVILEGED);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) own(path.join(p, n));
  };
  own(root);
  chmodSync(root, 0o755);
}

describe("clear errors instead of stack traces (issue 13, item 17)", () => {
  it("index.sqlite replaced by a folder: one line naming it, the folder left as it is", async () => {
    const root = workspace();
    const index = path.join(root, ".memory/index.sqlite");
    mkdirSync(index, { recursive: true });
    writeFileSync(path.join(index, "keep.txt"), "mine\n");
    const r = await run(["index", "-w", root, "--provider", "none"]);
    expectCleanFailure(r, /is a folder, not a file/, /Move it away/);
    expect(r.stderr).toContain(index);
    expect(readFileSync(path.join(index, "keep.txt"), "utf8")).toBe("mine\n");
  });

  it("a read-only .memory/ or a read-only index file: one line naming it, the valid index kept", async () => {
    const root = workspace();
    expect((await run(["recall", "-w", root, "--provider", "none", "ledger"])).code).toBe(0);
    writeFileSync(path.join(root, "memory/2026-03-03.md"), "# 2026-03-03\n\nQuiet day.\n");
    handOver(root);
    const index = path.join(root, ".memory/index.sqlite");
    const before = readFileSync(index);

    chmodSync(path.join(root, ".memory"), 0o555);
    const a = await run(["search", "-w", root, "--provider", "none", "ledger"], { uid: UNPRIVILEGED });
    expectCleanFailure(a, /read-only/, /nothing was deleted/);
    expect(a.stderr).toContain(path.join(root, ".memory"));
    expect(readFileSync(index).equals(before)).toBe(true);

    chmodSync(path.join(root, ".memory"), 0o755);
    chmodSync(index, 0o444);
    const b = await run(["index", "-w", root, "--provider", "none"], { uid: UNPRIVILEGED });
    expectCleanFailure(b, /read-only/, /chmod/);
    expect(b.stderr).toContain(index);
    expect(readFileSync(index).equals(before)).toBe(true);

    // recall (its line store is tables of the index): the same, one line naming the index.
    const c = await run(["recall", "-w", root, "--provider", "none", "quiet day"], { uid: UNPRIVILEGED });
    expectCleanFailure(c, /read-only/);
    expect(c.stderr).toContain(index);
    expect(readFileSync(index).equals(before)).toBe(true);
    // Once the user fixes the mode, the next run works: no read-only side file was left behind.
    chmodSync(index, 0o644);
    const d = await run(["recall", "-w", root, "--provider", "none", "quiet day"], { uid: UNPRIVILEGED });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain("memory/2026-03-03.md");
  });

  it.skipIf(!hasPrlimit())(
    "disk full (a file size limit): one line naming the index, nothing deleted, the next run catches up",
    async () => {
      const root = workspace();
      expect((await run(["index", "-w", root, "--provider", "none"])).code).toBe(0);
      const index = path.join(root, ".memory/index.sqlite");
      // A year of notes: far more index than the limit below leaves room for.
      for (let d = 1; d <= 28; d++) {
        const lines = Array.from(
          { length: 40 },
          (_, i) => `- ${d}/${i}: reviewed ledger batch ${d * 100 + i} with Mara; export ${i % 3 ? "ok" : "slow"}`,
        );
        writeFileSync(
          path.join(root, `memory/2026-02-${String(d).padStart(2, "0")}.md`),
          `# Feb ${d}\n\n${lines.join("\n")}\n`,
        );
      }
      const logs = readdirSync(path.join(root, "memory")).map((n) => readFileSync(path.join(root, "memory", n)));
      const r = await run(["index", "-w", root, "--provider", "none"], { fsize: statSync(index).size + 4096 });
      expectCleanFailure(r, /size limit|no space/, /nothing was deleted/);
      expect(r.stderr).toContain(index);
      expect(existsSync(index)).toBe(true);
      const after = readdirSync(path.join(root, "memory")).map((n) => readFileSync(path.join(root, "memory", n)));
      expect(after.every((b, i) => b.equals(logs[i]!))).toBe(true);
      const next = await run(["index", "-w", root, "--provider", "none", "--json"]);
      expect(next.code, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout).scanned).toBe(30);
    },
  );

  it("init on a path under a file: one line naming the file, the file untouched", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "membank-outside-"));
    dirs.push(outside);
    const file = path.join(outside, "notes");
    writeFileSync(file, "not a folder\n");
    const r = await run(["init", path.join(file, "ws")]);
    expectCleanFailure(r, /is a file, not a folder/);
    expect(r.stderr).toContain(file);
    expect(readFileSync(file, "utf8")).toBe("not a folder\n");
  });
});

describe("config typos are errors (issue 13, item 18)", () => {
  it("nested unknown keys are named by their dotted path with the nearest valid key", async () => {
    const config = JSON.stringify({
      reflect: { git: { comit: false } },
      search: { maxResult: 3 },
      embedding: { bogus: true, openai: { headers: { "X-Team": "finance" } } },
    });
    const root = workspace(config);
    const r = await run(["search", "-w", root, "--provider", "none", "ledger"]);
    expectCleanFailure(r, /membank\.config\.json/);
    expect(r.stderr).toMatch(/reflect\.git\.comit: unknown key \(did you mean "commit"\?\)/);
    expect(r.stderr).toMatch(/search\.maxResult: unknown key \(did you mean "maxResults"\?\)/);
    expect(r.stderr).toMatch(/embedding\.bogus: unknown key/);
    expect(r.stderr).not.toMatch(/X-Team/);
    expect(readFileSync(path.join(root, "membank.config.json"), "utf8")).toBe(config);
    // Free-form maps stay free-form.
    writeFileSync(
      path.join(root, "membank.config.json"),
      JSON.stringify({ embedding: { openai: { headers: { "X-Team": "finance" } } } }),
    );
    expect((await run(["search", "-w", root, "--provider", "none", "ledger"])).code).toBe(0);
  });

  it("a typo'd commit: false stops reflect before it commits anything", async () => {
    const root = workspace(JSON.stringify({ reflect: { git: { comit: false } } }));
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = await run(["reflect", "-w", root]);
    expectCleanFailure(r, /reflect\.git\.comit/);
    expect(existsSync(path.join(root, "bank"))).toBe(false);
    expect(() => execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, stdio: "ignore" })).toThrow();
  });

  it("a JSON syntax error names the line and column", async () => {
    const config = '{\n  "search": {\n    "maxResults": 3,\n  }\n}\n';
    const root = workspace(config);
    const r = await run(["search", "-w", root, "--provider", "none", "ledger"]);
    expectCleanFailure(r, /membank\.config\.json is not valid JSON: line 4, column 3: /);
    expect(readFileSync(path.join(root, "membank.config.json"), "utf8")).toBe(config);
  });
});
