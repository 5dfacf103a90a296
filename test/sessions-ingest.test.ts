import { appendFile, chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestSessions } from "../src/sessions/ingest.js";
import { sessionsStatePath } from "../src/sessions/state.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const FIX = path.resolve(import.meta.dirname, "../fixtures/sessions");
const NOW = new Date("2026-03-06T15:00:00Z");

let tmp: string;
let ws: Workspace;
let sessions: string;

async function digests(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(path.join(tmp, "ws/memory"))).sort()) {
    if (name.endsWith("-sessions.md")) out[name] = await readFile(path.join(tmp, "ws/memory", name), "utf8");
  }
  return out;
}

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-sessions-"));
  await cp(path.join(FIX, "agents"), path.join(tmp, "agents"), { recursive: true });
  sessions = path.join(tmp, "agents");
  await cp(path.join(FIX, "flat"), path.join(tmp, "flat"), { recursive: true });
  const root = path.join(tmp, "ws");
  await cp(path.resolve(import.meta.dirname, "../bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({ sessions: { dir: "../agents", tz: "UTC" } }),
  );
  ws = await openWorkspace(root);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("ingestSessions", () => {
  it("writes one digest per past day, leaves today for later, excludes heartbeat sessions, redacts secrets", async () => {
    const r = await ingestSessions(ws, { now: NOW });
    expect(r.files).toBe(2);
    expect(r.excluded).toBe(1); // agents/heartbeat
    expect(r.days).toEqual(["2026-03-04", "2026-03-05"]);
    expect(r.written).toEqual(["memory/2026-03-04-sessions.md", "memory/2026-03-05-sessions.md"]);
    expect(r.deferred).toBe(1); // s-beta's message of 2026-03-06 (today)
    expect(r.messages).toBe(9);
    expect(r.diagnostics.map((d) => `${path.basename(d.path)}:${d.line}`)).toEqual([
      "s-alpha.jsonl:7",
      "s-alpha.jsonl:11",
      "s-alpha.jsonl:15",
    ]);
    expect(r.redactions).toBe(5);
    const d = await digests();
    expect(Object.keys(d)).toEqual(["2026-03-04-sessions.md", "2026-03-05-sessions.md"]);
    const day4 = d["2026-03-04-sessions.md"] as string;
    expect(day4).toContain("## Session `s-alpha` · agent `main` · 09:00:00–09:03:00");
    expect(day4).toContain("Source: `main/sessions/s-alpha.jsonl`");
    expect(day4).toContain("### 09:00:05 assistant · L3");
    expect(day4).not.toMatch(
      /sk-proj|hunter2|AKIAABCD|ghp_abc|abcdefghijklmnopqrstuvwxyz012345|HEARTBEAT|tool output|system prompt/,
    );
    expect(day4).toContain("[REDACTED:api-key]");
    const state = JSON.parse(await readFile(sessionsStatePath(ws), "utf8"));
    expect(state.files["main/sessions/s-beta.jsonl"].lines).toBe(2);
    expect(state.files["main/sessions/s-alpha.jsonl"].lines).toBe(15);
  });

  it("is idempotent: a second run reads nothing new and writes nothing", async () => {
    await ingestSessions(ws, { now: NOW });
    const before = await digests();
    const again = await ingestSessions(ws, { now: NOW });
    expect(again.messages).toBe(0);
    expect(again.written).toEqual([]);
    expect(await digests()).toEqual(before);
  });

  it("continues from line N+1 and merges late messages into an existing digest", async () => {
    await ingestSessions(ws, { now: NOW });
    const file = path.join(sessions, "main/sessions/s-alpha.jsonl");
    await appendFile(
      file,
      `${JSON.stringify({ type: "message", timestamp: "2026-03-04T23:59:00Z", message: { role: "user", content: "late on the 4th" } })}\n`,
    );
    const r = await ingestSessions(ws, { now: NOW });
    expect(r.messages).toBe(1);
    expect(r.written).toEqual(["memory/2026-03-04-sessions.md"]);
    const day4 = (await digests())["2026-03-04-sessions.md"] as string;
    expect(day4).toContain("### 23:59:00 user · L16\n\n> late on the 4th");
    expect(day4.match(/### /g)?.length).toBe(8);
  });

  it("the next day, today's deferred messages are ingested; lost state gives the same bytes", async () => {
    await ingestSessions(ws, { now: NOW });
    const r = await ingestSessions(ws, { now: new Date("2026-03-07T01:00:00Z") });
    expect(r.days).toEqual(["2026-03-06"]);
    const full = await digests();
    // Lose the state: everything is read again, digests merge by (file, line): same bytes.
    await rm(sessionsStatePath(ws));
    const again = await ingestSessions(ws, { now: new Date("2026-03-07T01:00:00Z") });
    expect(again.written).toEqual([]);
    expect(await digests()).toEqual(full);
  });

  it("reads a flat --sessions folder; config exclude applies to session ids", async () => {
    const r = await ingestSessions(ws, { dir: path.join(tmp, "flat"), now: NOW });
    expect(r.excluded).toBe(1); // cron-daily
    expect(r.files).toBe(1);
    expect(r.messages).toBe(2); // the partial last line waits
    const day4 = (await digests())["2026-03-04-sessions.md"] as string;
    expect(day4).toContain("## Session `chat-1` · 18:30:00–18:31:00");
    expect(day4).toContain("[REDACTED:private-key]");
    expect(day4).not.toContain("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ");
    expect(day4).toContain("> > quoted line");
  });

  it("a day is decided in the configured time zone", async () => {
    const root = ws.root;
    await writeFile(
      path.join(root, "membank.config.json"),
      JSON.stringify({ sessions: { dir: "../flat", tz: "Asia/Tokyo" } }),
    );
    const tokyo = await openWorkspace(root);
    const r = await ingestSessions(tokyo, { now: NOW });
    // 18:30 UTC on the 4th is 03:30 on the 5th in Tokyo.
    expect(r.days).toEqual(["2026-03-05"]);
    expect((await digests())["2026-03-05-sessions.md"]).toContain("times in Asia/Tokyo");
  });

  it("without a sessions folder it does nothing and says why; a missing folder is a clear error", async () => {
    const bare = await openWorkspace(path.resolve(import.meta.dirname, "../bank.example"));
    const r = await ingestSessions(
      { ...bare, config: { ...bare.config, sessions: { ...bare.config.sessions, dir: undefined } } },
      { now: NOW },
    );
    expect(r.skipped).toMatch(/no sessions folder/);
    await expect(ingestSessions(ws, { dir: path.join(tmp, "nope"), now: NOW })).rejects.toThrow(
      /Sessions folder .*nope does not exist/,
    );
  });

  it("dry run writes nothing", async () => {
    const r = await ingestSessions(ws, { now: NOW, dryRun: true });
    expect(r.written.length).toBe(2);
    expect(await digests()).toEqual({});
    await expect(readFile(sessionsStatePath(ws))).rejects.toThrow();
  });
});

describe("heartbeat messages", () => {
  it("drops heartbeat polls and HEARTBEAT_OK acks inside ordinary sessions", async () => {
    const dir = path.join(tmp, "hb");
    await cp(path.join(FIX, "flat"), dir, { recursive: true });
    const rec = (role: string, content: string, t: string) =>
      JSON.stringify({ type: "message", timestamp: t, message: { role, content } });
    await writeFile(
      path.join(dir, "main-chat.jsonl"),
      `${[
        rec(
          "user",
          "Read HEARTBEAT.md if it exists (workspace context). If nothing needs attention, reply HEARTBEAT_OK.",
          "2026-03-04T05:00:00Z",
        ),
        rec("assistant", "HEARTBEAT_OK", "2026-03-04T05:00:01Z"),
        rec("user", "Is the heartbeat monitor of the API green?", "2026-03-04T05:10:00Z"),
      ].join("\n")}\n`,
    );
    const r = await ingestSessions(ws, { dir, now: NOW });
    expect(r.heartbeats).toBe(2);
    const day4 = (await digests())["2026-03-04-sessions.md"] as string;
    expect(day4).not.toContain("HEARTBEAT");
    expect(day4).toContain("heartbeat monitor of the API");
  });
});

describe("a session digest its user made read-only", () => {
  it("is left as it is and said; the day is read again and written once it is handed back", async () => {
    const digest = path.join(tmp, "ws/memory/2026-03-04-sessions.md");
    await writeFile(digest, "# 2026-03-04 sessions\n\nKept as I wrote it.\n");
    await chmod(digest, 0o444);
    const r = await ingestSessions(ws, { now: NOW });
    expect(await readFile(digest, "utf8")).toBe("# 2026-03-04 sessions\n\nKept as I wrote it.\n");
    expect(r.written).toEqual(["memory/2026-03-05-sessions.md"]);
    expect(r.diagnostics.map((d) => `${d.path}: ${d.reason}`)).toContain(
      "memory/2026-03-04-sessions.md: is read-only: not written (the day is read again next run); to hand it back to membank: chmod u+w memory/2026-03-04-sessions.md",
    );
    await chmod(digest, 0o644);
    const back = await ingestSessions(ws, { now: NOW });
    expect(back.written).toContain("memory/2026-03-04-sessions.md");
    expect(await readFile(digest, "utf8")).toContain("Source: `main/sessions/s-alpha.jsonl`");
    expect(await readFile(digest, "utf8")).toContain("Kept as I wrote it.");
  });
});
