// `membank serve` through the BUILT CLI, with real processes, sockets, SQLite and files:
// recall/search/get print the same bytes with and without a warm server; a dead server's
// socket is ignored and removed; a second server is refused; the server sees files
// changed after it started; SIGTERM and SIGINT stop it and remove its socket.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";
import { repoRoot } from "./reflect-support.js";

const cli = MEMBANK_BIN;
// A bare machine (no key makes `auto` pick a remote embedder), and no global git identity needed.
const env = {
  ...process.env,
  OPENAI_API_KEY: "",
  GEMINI_API_KEY: "",
  MEMBANK_WORKSPACE: "",
  EDITOR: "vi",
  PAGER: "less",
  GIT_ASKPASS: "/bin/true",
  LANG: "C",
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function membank(ws: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args, "--workspace", ws], { env }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === "number" ? code : 1, stdout, stderr });
    });
  });
}

interface Server {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const servers: ChildProcess[] = [];

/** Start `membank serve` and wait for its ready line (or its exit, for a refused start). */
async function serve(ws: string): Promise<Server> {
  const child = spawn(process.execPath, [cli, "serve", "--verbose", "--workspace", ws], { env });
  servers.push(child);
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => {
    out += c;
  });
  child.stderr.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => {
    const check = () => (out.includes("socket ") ? resolve() : undefined);
    child.stdout.on("data", check);
  });
  await Promise.race([ready, exited]);
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function stop(server: Server, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

const dirs: string[] = [];
afterEach(() => {
  for (const child of servers.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The example workspace plus a hand-written log in the style people keep. */
async function workspace(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-serve-"));
  dirs.push(dir);
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
  await writeFile(
    path.join(dir, "memory/2026-03-15.md"),
    "# sun 15 march\n\nslow day. fixed the flaky deploy script (again!!) - turned out to be a race in `wait-for-db`\n" +
      "Mara called re: the offsite, she's leaning towards Lisbon now, not Porto\n\n" +
      "## Retain\n- W @Mara: Leaning towards Lisbon for the offsite (was Porto).\n" +
      "- B: Fixed the flaky deploy script; the race was in wait-for-db.\n" +
      "- O(c=0.7) @Mara: likes having options laid out before deciding\n",
  );
  return dir;
}

const sock = (ws: string) => path.join(ws, ".memory/serve.sock");

/** The calls an agent or a person makes, including one the CLI refuses. */
const CALLS: string[][] = [
  ["recall", "what does Mara prefer?"],
  ["recall", "--json", "what happened around March 12?"],
  ["recall", "--json", "--k", "3", "deploy script race"],
  // --explain is left out: it reports each arm's milliseconds, which differ run to run anyway.
  ["recall", "--as-of", "2026-03-16", "what did we decide last week"],
  ["recall", "--kind", "opinion", "Mara"],
  ["search", "Lisbon offsite"],
  ["search", "--json", "--max-results", "2", "wait-for-db"],
  ["get", "memory/2026-03-15.md", "--from", "3", "--lines", "2"],
  ["get", "--json", "MEMORY.md"],
  ["get", "../etc/passwd"],
  ["recall", "--provider", "nonsense", "Mara"],
];

describe("membank serve", () => {
  let ws: string;
  beforeAll(async () => {
    ws = await workspace();
    // Build the index once, so both runs below start from the same state.
    expect((await membank(ws, "index")).code).toBe(0);
  });

  it("prints the same bytes with and without a running server, and the server really answers", async () => {
    const alone: Run[] = [];
    for (const call of CALLS) alone.push(await membank(ws, ...call));
    expect(alone[0]!.stdout).toContain("Mara");
    expect(alone[9]!.code).not.toBe(0);

    const server = await serve(ws);
    expect(server.stdout()).toContain(`socket ${sock(ws)}`);
    // Private to this user: nobody else may ask (or feed) the server.
    expect(lstatSync(sock(ws)).mode & 0o777).toBe(0o600);
    for (const [i, call] of CALLS.entries()) {
      expect(await membank(ws, ...call), call.join(" ")).toEqual(alone[i]);
    }
    // Every call above went to the server (its log line per request), none ran beside it.
    const logged = server.stderr().match(/^membank serve: (recall|search|get) /gm) ?? [];
    expect(logged).toHaveLength(CALLS.length);
    expect(await stop(server)).toBe(0);
  });

  it("answers from files changed after it started (a new log, an edited one)", async () => {
    const server = await serve(ws);
    const before = await membank(ws, "search", "--json", "quokka");
    expect(JSON.parse(before.stdout).results).toEqual([]);
    await appendFile(path.join(ws, "memory/2026-03-15.md"), "- W @Ana: Adopted a quokka named Biscuit.\n");
    await writeFile(path.join(ws, "memory/2026-03-16.md"), "# Mon\n\nBiscuit the quokka bit the courier.\n");
    const after = await membank(ws, "search", "--json", "quokka");
    const paths = JSON.parse(after.stdout).results.map((r: { path: string }) => r.path);
    expect(paths.sort()).toEqual(["memory/2026-03-15.md", "memory/2026-03-16.md"]);
    const recalled = await membank(ws, "recall", "--json", "who adopted a quokka?");
    expect(recalled.stdout).toContain("Adopted a quokka named Biscuit.");
    expect(server.stderr()).toMatch(/membank serve: recall /);
    await stop(server);
    // And the in-process answer after it agrees.
    expect(await membank(ws, "recall", "--json", "who adopted a quokka?")).toEqual(recalled);
  });

  it("refuses a second server on the same workspace with a clear message, and the first keeps serving", async () => {
    const first = await serve(ws);
    const second = await serve(ws);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(/already serves .* stop it first \(kill \d+\)/);
    expect(second.stderr()).toContain(String(first.child.pid));
    expect(existsSync(sock(ws))).toBe(true);
    const res = await membank(ws, "get", "MEMORY.md", "--lines", "1");
    expect(res.code).toBe(0);
    expect(first.stderr()).toMatch(/membank serve: get /);
    expect(await stop(first)).toBe(0);
  });

  it("ignores and removes the socket of a killed server; a new server starts on it", async () => {
    const dead = await serve(ws);
    expect(await stop(dead, "SIGKILL")).toBe(null);
    expect(lstatSync(sock(ws)).isSocket()).toBe(true);
    const expected = await membank(ws, "recall", "--json", "Lisbon");
    expect(expected.code).toBe(0);
    expect(expected.stdout).toContain("Lisbon");
    expect(existsSync(sock(ws))).toBe(false);
    // Killed again, and this time the next server (not a client) clears the way.
    const again = await serve(ws);
    await stop(again, "SIGKILL");
    const next = await serve(ws);
    expect(next.stdout()).toContain("socket ");
    expect(await membank(ws, "recall", "--json", "Lisbon")).toEqual(expected);
    expect(next.stderr()).toMatch(/membank serve: recall /);
    await stop(next);
  });

  it("stops on SIGTERM and on SIGINT, removing its socket", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const server = await serve(ws);
      expect(existsSync(sock(ws))).toBe(true);
      expect(await stop(server, signal)).toBe(0);
      expect(server.stdout()).toContain("membank serve: stopped");
      expect(existsSync(sock(ws))).toBe(false);
    }
    // With no server the CLI still answers, in-process.
    expect((await membank(ws, "recall", "Mara")).code).toBe(0);
  });

  it("listens under the temp folder when the workspace path is too long for a socket", async () => {
    const deep = await mkdtemp(path.join(tmpdir(), "membank-serve-"));
    dirs.push(deep);
    const long = path.join(deep, "a-rather-long-folder-name-for-notes".repeat(3), "clawd");
    await mkdir(long, { recursive: true });
    await cp(path.join(repoRoot, "bank.example"), long, { recursive: true });
    const expected = await membank(long, "search", "--json", "Mara");
    const server = await serve(long);
    const file = /socket (\S+)/.exec(server.stdout())?.[1] ?? "";
    expect(path.dirname(file)).toBe(tmpdir());
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(103);
    expect(await membank(long, "search", "--json", "Mara")).toEqual(expected);
    expect(server.stderr()).toMatch(/membank serve: search /);
    expect(await stop(server)).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("explains itself in --help", async () => {
    const help = await membank(ws, "serve", "--help");
    expect(help.stdout).toMatch(/socket/);
    expect(help.stdout).toMatch(/same output/);
    expect(help.stdout).toMatch(/SIGTERM/);
  });
});
