import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import fc from "fast-check";
import { decompress } from "fzstd";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { archiveSessionId } from "../src/sessions/discover.js";
import { ingestSessions } from "../src/sessions/ingest.js";
import { coldArchiveEvents } from "../src/sessions/openclaw-store.js";
import { sessionsStatePath } from "../src/sessions/state.js";
import { zstdChunks } from "../src/sessions/zstd.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const FIX = path.join(ROOT, "fixtures/openclaw");
// The tables as openclaw@2026.9.6 creates them (see the fixture's header).
const SCHEMA = readFileSync(path.join(FIX, "schema-2026.9.6.sql"), "utf8");
const NOW = new Date("2026-09-03T12:00:00Z");
const DELETED = "d3l3t3d-0001.jsonl.deleted.2026-09-02T08-00-00.000Z.zst";
const RESET = "r3s3t-0001.jsonl.reset.2026-09-01T20-00-00.000Z.zst";
const LIVE = "a1b2c3d4-live";

let tmp: string;
let state: string;
let agentDir: string;
let db: string;
let writer: Database.Database;

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const msg = (ts: string, role: string, content: unknown, id?: string) =>
  JSON.stringify({ type: "message", ...(id ? { id } : {}), timestamp: ts, message: { role, content } });

/** An OpenClaw 2026.9 state dir: a store being written (WAL, writer open), archives, a cold file, a legacy transcript. */
async function buildState(): Promise<void> {
  agentDir = path.join(state, "agents/main");
  await mkdir(path.join(agentDir, "agent"), { recursive: true });
  await mkdir(path.join(agentDir, "sessions/cold"), { recursive: true });
  db = path.join(agentDir, "agent/openclaw-agent.sqlite");
  writer = new Database(db);
  writer.pragma("journal_mode = WAL");
  // Only OpenClaw's transcript tables are built, not the session_nodes/conversations they point to.
  writer.pragma("foreign_keys = OFF");
  writer.exec(SCHEMA);
  const win = writer.prepare(
    "INSERT INTO session_windows (session_id, session_key, reason, created_at, updated_at) VALUES (?, ?, 'initial', ?, ?)",
  );
  const ev = writer.prepare(
    "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)",
  );
  const t0 = Date.parse("2026-09-01T09:00:00Z");
  for (const [id, key] of [
    [LIVE, "agent:main:main"],
    ["f00dcafe-cron", "agent:main:cron:3f1a9c"],
    ["d3l3t3d-0001", "agent:main:whatsapp:direct:+4915112345678"],
    ["c0ld-0001", "agent:main:telegram:direct:42"],
  ] as const) {
    win.run(id, key, t0, t0);
  }

  // The live session: plain and zstd events, a malformed one, an abandoned branch, a message of today.
  const zEvent = await readFile(path.join(FIX, "event-2.json.zst"));
  const zBytes = decompress(zEvent).length;
  const nav = JSON.stringify({
    version: 1,
    report: { kind: "canonical" },
    navigation: {},
    reset: {},
    model: {},
    modelBytes: zBytes,
    modelWithoutCheckpointBytes: zBytes,
    withoutCustomDataBytes: zBytes,
  });
  ev.run(LIVE, 0, JSON.stringify({ type: "session", version: 3, id: LIVE, timestamp: "2026-09-01T09:13:58.000Z" }), t0);
  ev.run(
    LIVE,
    1,
    msg("2026-09-01T09:14:03.120Z", "user", [
      {
        type: "text",
        text: "can you rotate the deploy token?? current one is ghp_Zr8kQ2mXv9LbT4nW7yPc1sDf6HgJ0aEuKo3i",
      },
    ]),
    t0,
  );
  writer
    .prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, event_utf8_bytes, navigation_json, created_at) VALUES (?, 2, NULL, ?, ?, ?, ?)",
    )
    .run(LIVE, zEvent, zBytes, nav, t0);
  ev.run(
    LIVE,
    3,
    '{"type":"message","timestamp":"2026-09-01T09:20:00Z","message":{"role":"user","content":"half a rec',
    t0,
  );
  ev.run(LIVE, 4, msg("2026-09-01T09:21:00Z", "user", "DRAFT-BRANCH question I edited away"), t0);
  ev.run(LIVE, 5, msg("2026-09-02T18:00:00Z", "user", "booked the dentist for sep 9, 8:30. put it somewhere"), t0);
  ev.run(
    LIVE,
    6,
    msg("2026-09-02T18:00:04Z", "assistant", [{ type: "text", text: "Saved: dentist Sep 9, 08:30." }]),
    t0,
  );
  ev.run(LIVE, 7, msg("2026-09-03T08:00:00Z", "user", "morning! what's on today"), t0);
  const active = writer.prepare(
    "INSERT INTO session_transcript_active_events (session_id, active_position, event_seq) VALUES (?, ?, ?)",
  );
  for (const [pos, seq] of [0, 1, 2, 3, 5, 6, 7].entries()) active.run(LIVE, pos, seq);

  ev.run("f00dcafe-cron", 0, msg("2026-09-01T03:00:00Z", "user", "[cron] summarize the inbox CRONONLY-7731"), t0);

  // A deleted session still in the store, and its archive published to sessions/ (the same events).
  const deletedLines = (await readFile(path.join(FIX, "src/d3l3t3d-0001.jsonl"), "utf8")).trimEnd().split("\n");
  for (const [seq, line] of deletedLines.entries()) ev.run("d3l3t3d-0001", seq, line, t0);
  await copyFile(path.join(FIX, DELETED), path.join(agentDir, "sessions", DELETED));
  const arch = writer.prepare(
    `INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, archive_sha256, archive_name, created_at)
     VALUES (?, 'g1', ?, ?, 'zstd', ?, ?, ?, ?)`,
  );
  const deletedBlob = await readFile(path.join(FIX, DELETED));
  arch.run(
    "d3l3t3d-0001",
    "agent:main:whatsapp:direct:+4915112345678",
    "deleted",
    deletedBlob,
    sha(deletedBlob),
    DELETED,
    t0,
  );
  // A reset archive only in the store (OpenClaw has not written its file yet).
  const resetBlob = await readFile(path.join(FIX, RESET));
  arch.run("r3s3t-0001", "agent:main:main", "reset", resetBlob, sha(resetBlob), RESET, t0);

  // A cold session: its events only in sessions/cold/<sha256>.jsonl.zst.
  const [coldName] = await readdir(path.join(FIX, "cold"));
  const coldBlob = await readFile(path.join(FIX, "cold", coldName as string));
  await writeFile(path.join(agentDir, "sessions/cold", coldName as string), coldBlob);
  writer
    .prepare(
      `INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage)
       VALUES ('c0ld-0001', 'g-7d1e', ?, ?, 3, 500, ?, 2, ?, 'file')`,
    )
    .run(coldName, sha(coldBlob), coldBlob.length, t0);

  // A transcript from before 2026.8 (the JSONL layout).
  await writeFile(
    path.join(agentDir, "sessions/legacy-0001.jsonl"),
    `${[
      JSON.stringify({ type: "session", version: 2, id: "legacy-0001", timestamp: "2026-09-02T06:00:00Z" }),
      msg("2026-09-02T06:00:10Z", "user", "old-style transcript: water the ficus on thursdays"),
      msg("2026-09-02T06:00:15Z", "assistant", "Will remind you Thursday mornings."),
    ].join("\n")}\n`,
  );
}

async function digest(day: string, root = path.join(state, "workspace")): Promise<string> {
  return readFile(path.join(root, `memory/${day}-sessions.md`), "utf8");
}

async function openclawWorkspace(): Promise<Workspace> {
  const root = path.join(state, "workspace");
  await cp(path.join(ROOT, "bank.example"), root, { recursive: true });
  await writeFile(
    path.join(root, "membank.config.json"),
    JSON.stringify({ embedding: { provider: "none" }, sessions: { tz: "UTC" } }),
  );
  return openWorkspace(root);
}

const env = () => ({ env: { OPENCLAW_STATE_DIR: state }, home: path.join(tmp, "home") });

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-openclaw-"));
  state = path.join(tmp, "state");
  await buildState();
});

afterEach(async () => {
  if (writer.open) writer.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("OpenClaw session store", () => {
  it("ingests the store, its archives and legacy transcripts once, without cron sessions or secrets, while OpenClaw writes", async () => {
    const ws = await openclawWorkspace();
    // A state file of the previous membank version stays readable.
    await mkdir(path.dirname(sessionsStatePath(ws)), { recursive: true });
    await writeFile(
      sessionsStatePath(ws),
      JSON.stringify({ version: 1, files: { "gone/sessions/x.jsonl": { lines: 3, bytes: 99 } } }),
    );
    const before = { bytes: await readFile(db), files: (await readdir(path.join(agentDir, "agent"))).sort() };
    expect(before.files).toEqual(["openclaw-agent.sqlite", "openclaw-agent.sqlite-shm", "openclaw-agent.sqlite-wal"]);
    // OpenClaw is in the middle of writing a new session: not committed, so not read yet.
    writer.exec("BEGIN IMMEDIATE");
    writer
      .prepare(
        "INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('e5e5-new', 'agent:main:main', 1, 1)",
      )
      .run();
    writer
      .prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('e5e5-new', 0, ?, 1)")
      .run(msg("2026-09-02T21:00:00Z", "user", "the plumber comes thursday"));

    const r = await ingestSessions(ws, { now: NOW, ...env() });
    expect(r.skipped).toBeUndefined();
    expect(r.days).toEqual(["2026-08-20", "2026-09-01", "2026-09-02"]);
    const d0820 = await digest("2026-08-20");
    const d0901 = await digest("2026-09-01");
    const d0902 = await digest("2026-09-02");
    expect(d0820).toContain("boiler service confirmed for Tuesday 26 Aug"); // cold archive
    expect(d0901).toContain("can you rotate the deploy token??"); // event_json
    expect(d0901).toContain("Done. I rotated the deploy token"); // event_zstd
    expect(d0901).toContain("Jonas is allergic to peanuts"); // reset archive kept in the store
    expect(d0902).toContain("booked the dentist for sep 9");
    expect(d0902).toContain("water the ficus on thursdays"); // legacy JSONL
    // The deleted session is in the store and in its archive: each message once.
    expect(d0902.split("Lisbon offsite is now Oct 14–16").length).toBe(2);
    expect(d0902.split("the Lisbon offsite moved").length).toBe(2);
    const all = d0820 + d0901 + d0902;
    expect(all).not.toContain("CRONONLY-7731");
    expect(all).not.toContain("DRAFT-BRANCH"); // off the active branch
    expect(all).not.toContain("ghp_Zr8kQ2mXv9");
    expect(all).not.toContain("AKIAZZZZYYYYXXXXWWWW");
    expect(all).toContain("[REDACTED");
    expect(all).not.toContain("plumber");
    expect(r.redactions).toBeGreaterThanOrEqual(2);
    expect(r.excluded).toBeGreaterThanOrEqual(1);
    expect(r.deferred).toBe(1); // the message of today
    expect(r.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual([`${db}#${LIVE}:3`]);
    expect(r.diagnostics[0]?.reason).toMatch(/not valid JSON/);
    // Read-only: the store is byte for byte what OpenClaw wrote, no file added next to it.
    expect((await readFile(db)).equals(before.bytes)).toBe(true);
    expect((await readdir(path.join(agentDir, "agent"))).sort()).toEqual(before.files);
    const saved = JSON.parse(await readFile(sessionsStatePath(ws), "utf8"));
    expect(saved.files["gone/sessions/x.jsonl"]).toEqual({ lines: 3, bytes: 99 });
    expect(saved.stores[`main/${LIVE}`].seq).toBe(6);

    // OpenClaw commits: the next run reads only that; the run after reads nothing.
    writer.exec("COMMIT");
    const r2 = await ingestSessions(ws, { now: NOW, ...env() });
    expect(r2.messages).toBe(1);
    expect(r2.written).toEqual(["memory/2026-09-02-sessions.md"]);
    expect(await digest("2026-09-02")).toContain("the plumber comes thursday");
    const r3 = await ingestSessions(ws, { now: NOW, ...env() });
    expect(r3.messages).toBe(0);
    expect(r3.written).toEqual([]);
    expect(r3.diagnostics).toEqual([]);
  });

  it("reads a closed store (no -wal/-shm) without changing it; an unreadable store is a diagnostic", async () => {
    writer.close(); // OpenClaw stopped: SQLite checkpoints and removes -wal/-shm
    expect((await readdir(path.join(agentDir, "agent"))).sort()).toEqual(["openclaw-agent.sqlite"]);
    const bytes = await readFile(db);
    await mkdir(path.join(state, "agents/broken/agent"), { recursive: true });
    const broken = path.join(state, "agents/broken/agent/openclaw-agent.sqlite");
    await writeFile(broken, "this is not a database, someone truncated it\n".repeat(200));
    // An archive cut short (disk full while OpenClaw wrote it).
    const cut = path.join(agentDir, "sessions/zz-9.jsonl.deleted.2026-09-02T09-00-00.000Z.zst");
    await writeFile(cut, (await readFile(path.join(FIX, DELETED))).subarray(0, 40));
    const ws = await openclawWorkspace();
    const r = await ingestSessions(ws, { now: NOW, ...env() });
    expect(r.days).toEqual(["2026-08-20", "2026-09-01", "2026-09-02"]);
    expect((await readFile(db)).equals(bytes)).toBe(true);
    // What SQLite does: to read a WAL database it needs the -shm index, so a read-only
    // connection creates an empty -wal and a -shm next to a closed store and cannot remove
    // them. They hold no data (OpenClaw reuses or removes them on its next open).
    for (const n of await readdir(path.join(agentDir, "agent"))) {
      if (n.endsWith("-wal")) expect((await stat(path.join(agentDir, "agent", n))).size).toBe(0);
    }
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ path: broken, reason: expect.stringMatching(/not a readable SQLite database/) }),
      expect.objectContaining({ path: cut, reason: expect.stringMatching(/zstd/) }),
      expect.objectContaining({ path: `${db}#${LIVE}`, line: 3 }),
    ]);
  });

  it("keeps an event once by its id when the store's seqs do not line up with its archive's lines", async () => {
    // After a rewrite OpenClaw may number a session's events from further on.
    writer.exec("UPDATE transcript_events SET seq = seq + 5 WHERE session_id = 'd3l3t3d-0001'");
    const r = await ingestSessions(await openclawWorkspace(), { now: NOW, ...env() });
    expect(r.days).toContain("2026-09-02");
    const d0902 = await digest("2026-09-02");
    expect(d0902.split("Lisbon offsite is now Oct 14–16").length).toBe(2);
    expect(d0902.split("the Lisbon offsite moved").length).toBe(2);
  });

  it("finds OpenClaw's state dir only for an OpenClaw workspace: $OPENCLAW_STATE_DIR, then ~/.openclaw", async () => {
    writer.close();
    const home = path.join(tmp, "home");
    await mkdir(home, { recursive: true });
    await cp(state, path.join(home, ".openclaw"), { recursive: true });
    await rm(state, { recursive: true, force: true });
    state = path.join(home, ".openclaw");
    const ws = await openclawWorkspace();
    const r = await ingestSessions(ws, { now: NOW, env: {}, home });
    expect(r.days).toContain("2026-09-01");

    const other = path.join(tmp, "notes");
    await cp(path.join(ROOT, "bank.example"), other, { recursive: true });
    const r2 = await ingestSessions(await openWorkspace(other), { now: NOW, env: {}, home });
    expect(r2.skipped).toMatch(/no sessions folder/);
  });

  it("an agent whose agentDir the config moves elsewhere: its store is read from there", async () => {
    writer.close();
    // agents.entries.main.agentDir (OpenClaw 2026.9's multi-agent docs): the store moves with it.
    const moved = path.join(tmp, "fast-disk", "claw-main");
    await mkdir(path.dirname(moved), { recursive: true });
    await cp(path.join(agentDir, "agent"), moved, { recursive: true });
    await rm(path.join(agentDir, "agent"), { recursive: true, force: true });
    await writeFile(
      path.join(state, "openclaw.json"),
      `{\n  // the SQLite files live on the SSD\n  agents: { entries: { main: { agentDir: "${moved}" } } },\n}\n`,
    );
    const ws = await openclawWorkspace();
    const r = await ingestSessions(ws, { now: NOW, ...env() });
    // The store's one malformed event, cited at the store's new place.
    expect(r.diagnostics.map((d) => d.path)).toEqual([`${path.join(moved, "openclaw-agent.sqlite")}#${LIVE}`]);
    expect(await digest("2026-09-02")).toContain("booked the dentist for sep 9");
  });

  it("the nightly run commits the digests of a store in a git workspace", async () => {
    const ws = await openclawWorkspace();
    await exec("git", ["init", "-q"], { cwd: ws.root });
    await exec("git", ["add", "-A"], { cwd: ws.root });
    await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "notes"], { cwd: ws.root });
    const rec = await runPipeline(ws, "nightly", { now: NOW, sessionsDir: state });
    expect(rec.status).toBe("done");
    expect(rec.written).toEqual(
      expect.arrayContaining(["memory/2026-09-01-sessions.md", "memory/2026-09-02-sessions.md"]),
    );
    const shown = (await exec("git", ["show", "HEAD:memory/2026-09-01-sessions.md"], { cwd: ws.root })).stdout;
    expect(shown).toContain("Jonas is allergic to peanuts");
    expect(shown).not.toContain("ghp_Zr8kQ2mXv9");
    expect(shown).not.toContain("CRONONLY");
    const again = await runPipeline(await openWorkspace(ws.root), "nightly", { now: NOW, sessionsDir: state });
    expect(again.written.filter((w) => w.endsWith("-sessions.md"))).toEqual([]);
  });
});

describe("OpenClaw archive formats", () => {
  it("an archive's name gives its session id; other names are not archives", () => {
    const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,40}$/).filter((x) => !x.includes(".jsonl."));
    fc.assert(
      fc.property(id, fc.constantFrom("reset", "deleted"), fc.boolean(), (sid, reason, zst) => {
        const name = `${sid}.jsonl.${reason}.2026-09-02T08-00-00.000Z.g1${zst ? ".zst" : ""}`;
        expect(archiveSessionId(name)).toBe(sid);
      }),
    );
    for (const name of ["s1.jsonl", "s1.jsonl.bak", "sessions.json", "s1.jsonl.lock", "notes.md"]) {
      expect(archiveSessionId(name)).toBeUndefined();
    }
  });

  it("a zstd archive streams in pieces from any offset, equal to decompressing it whole", async () => {
    const z = await readFile(path.join(FIX, DELETED));
    const whole = Buffer.from(decompress(z));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: whole.length }), fc.integer({ min: 1, max: 200 }), (offset, piece) => {
        expect(Buffer.concat([...zstdChunks(z, offset, piece)]).equals(whole.subarray(offset))).toBe(true);
      }),
    );
    expect(() => [...zstdChunks(z.subarray(0, 30))]).toThrow(/not valid zstd data/);
  });

  it("a cold archive's records never throw: events are read, anything else is skipped or a reason", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.json(),
            fc.jsonValue().map((v) => JSON.stringify({ kind: "event", row: v })),
          ),
        ),
        (lines) => {
          const r = coldArchiveEvents(lines.join("\n"));
          for (const e of r.events) expect(e.json !== undefined || e.error !== undefined).toBe(true);
        },
      ),
    );
    const r = coldArchiveEvents(
      [
        JSON.stringify({ kind: "header", version: 1, sessionId: "s9", generation: "g" }),
        JSON.stringify({ kind: "event", row: { seq: 0, event_json: "{}", created_at: 1 } }),
        JSON.stringify({ kind: "active", row: { active_position: 0, event_seq: 0 } }),
        "{oops",
      ].join("\n"),
    );
    expect(r.sessionId).toBe("s9");
    expect(r.events).toEqual([
      { seq: 0, json: "{}" },
      { seq: -4, error: "record 4 is not valid JSON" },
    ]);
    expect([...(r.active ?? [])]).toEqual([0]);
  });
});
