import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestSessions } from "../src/sessions/ingest.js";
import { DIGEST_DAY_MAX_BYTES, DIGEST_READ_MAX_BYTES, MESSAGE_MAX_BYTES } from "../src/sessions/limits.js";
import { fileLines } from "../src/sessions/lines.js";
import { sessionsStatePath } from "../src/sessions/state.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const NOW = new Date("2026-03-06T15:00:00Z");
let tmp: string;
let ws: Workspace;
let folder: string;

const CHAT = [
  "ok so the nightly export died again, here's the tail of the log",
  "Looks like the worker ran out of file handles. Bump `ulimit -n` in the unit file and restart it?",
  "did that. also Priya wants the invoice migration before friday, is that realistic",
  "Yes if we run it on the replica first; I'd keep the old table around for a week.",
  "k. remind me tomorrow to check the replica lag",
  "thx 🙏",
];

function record(ts: number, role: string, text: string, blocks: boolean): string {
  const content = blocks ? [{ type: "text", text }] : text;
  return `${JSON.stringify({ type: "message", timestamp: new Date(ts).toISOString(), message: { role, content } })}\n`;
}

/** A chat of one day that is several MB: ordinary turns, now and then a pasted log of 20-60 KB. */
async function writeTranscript(file: string, start: number, targetBytes: number, seed: number): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let n = 0;
  let t = start;
  let x = seed;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  out.write(`${JSON.stringify({ type: "session", version: 3, id: path.basename(file, ".jsonl") })}\n`);
  while (bytes < targetBytes) {
    t += 5000 + Math.floor(rnd() * 60_000);
    const role = n % 2 === 0 ? "user" : "assistant";
    let text = CHAT[n % CHAT.length] as string;
    if (rnd() < 0.1) {
      const lines: string[] = [];
      const len = 300 + Math.floor(rnd() * 700);
      for (let i = 0; i < len; i++)
        lines.push(
          `2026-03-04T10:${String(i % 60).padStart(2, "0")}:07Z WARN pool: conn ${i} reset by peer (ECONNRESET)`,
        );
      text = `${text}\n\n${lines.join("\n")}`;
    }
    const line = record(t, role, text, rnd() < 0.5);
    bytes += Buffer.byteLength(line);
    n++;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return n;
}

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-sessions-limits-"));
  folder = path.join(tmp, "agents/main/sessions");
  await mkdir(folder, { recursive: true });
  await mkdir(path.join(tmp, "ws/memory"), { recursive: true });
  await writeFile(
    path.join(tmp, "ws/membank.config.json"),
    JSON.stringify({ sessions: { dir: "../agents", tz: "UTC" } }),
  );
  ws = await openWorkspace(path.join(tmp, "ws"));
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("digest size limits", () => {
  it("a multi-MB day keeps its start within the daily limit and says per session what was left out", async () => {
    const day = Date.parse("2026-03-04T07:00:00Z");
    const a = await writeTranscript(path.join(folder, "a-morning.jsonl"), day, 3 * 1024 * 1024, 7);
    const b = await writeTranscript(path.join(folder, "b-evening.jsonl"), day + 10 * 3600_000, 1024 * 1024, 11);
    const r = await ingestSessions(ws, { now: NOW });
    const rel = "memory/2026-03-04-sessions.md";
    const digest = await readFile(path.join(ws.root, rel), "utf8");
    // Headings and notes are on top of the message text the limit counts: a few hundred bytes.
    expect((await stat(path.join(ws.root, rel))).size).toBeLessThan(DIGEST_DAY_MAX_BYTES + 2048);
    expect((await stat(path.join(ws.root, rel))).size).toBeGreaterThan(DIGEST_DAY_MAX_BYTES / 2);

    const notes = [
      ...digest.matchAll(
        /^_… (\d+) messages \((\d+) KB, L(\d+)–L(\d+)\) of session `([^`]+)` left out: over the daily digest limit of 512 KB_$/gm,
      ),
    ];
    expect(notes.map((m) => m[5])).toEqual(["a-morning", "b-evening"]);
    const kept = digest.match(/^### /gm)?.length ?? 0;
    const leftOut = notes.reduce((s, m) => s + Number(m[1]), 0);
    expect(kept + leftOut).toBe(a + b);
    expect(r.messages).toBe(kept);
    // b-evening came after the day was full: nothing of it is quoted, only its note.
    expect(digest).toContain("## Session `b-evening` · agent `main`\n\nSource: `main/sessions/b-evening.jsonl`\n\n_… ");
    expect(Number(notes[1]?.[1])).toBe(b);
    expect(r.leftOut.map((l) => [l.source, l.messages])).toEqual([
      ["main/sessions/a-morning.jsonl", Number(notes[0]?.[1])],
      ["main/sessions/b-evening.jsonl", b],
    ]);
    expect(r.diagnostics.map((d) => d.reason)).toContainEqual(
      expect.stringMatching(
        /^\d+ messages \(\d+ KB\) of session a-morning left out: over the daily digest limit of 512 KB$/,
      ),
    );
    // Long pasted logs are cut to the per-message limit and say so.
    expect(r.truncated).toBeGreaterThan(0);
    expect(digest).toMatch(/^> _… \d+ KB more of this message left out: over the per-message limit of 16 KB_$/m);

    // Lost state: everything is read again and nothing is kept or counted twice.
    await rm(sessionsStatePath(ws));
    const again = await ingestSessions(ws, { now: NOW });
    expect(again.written).toEqual([]);
    expect(again.leftOut).toEqual([]);
    expect(await readFile(path.join(ws.root, rel), "utf8")).toBe(digest);

    // A late message of a full day is counted in its session's note, not quoted.
    await appendFile(
      path.join(folder, "b-evening.jsonl"),
      record(day + 16 * 3600_000, "user", "one more thing", false),
    );
    const late = await ingestSessions(ws, { now: NOW });
    expect(late.leftOut.map((l) => l.messages)).toEqual([1]);
    const after = await readFile(path.join(ws.root, rel), "utf8");
    expect(after).not.toContain("one more thing");
    expect(after).toContain(`_… ${b + 1} messages (`);
  });

  it("a message over the per-message limit is cut after redaction, so no secret is left half-written", async () => {
    // A pasted dump with keys all around the cut: a cut before redaction would leave one key's start behind.
    const keys = Array.from({ length: 60 }, (_, i) => `AKIA${String(i).padStart(2, "0")}OSFODNN7EXAMPL`).join(",");
    const text = `here is the whole config dump ${"x".repeat(MESSAGE_MAX_BYTES - 800)},${keys} and more ${"y ".repeat(4000)}`;
    await writeFile(path.join(folder, "s.jsonl"), record(Date.parse("2026-03-04T10:00:00Z"), "user", text, false));
    const r = await ingestSessions(ws, { now: NOW });
    expect(r.truncated).toBe(1);
    const digest = await readFile(path.join(ws.root, "memory/2026-03-04-sessions.md"), "utf8");
    expect(digest).toContain(",[REDACTED:aws-key],");
    expect(digest).not.toContain(",A");
    expect(digest).toContain("left out: over the per-message limit of 16 KB_");
  });
  it("a pasted multi-MB message is cut without scanning all of it, and the day still gets its other messages", async () => {
    // Segments like a minified bundle or a log of dotted ids: worst case for key=value patterns.
    const blob = Array.from({ length: 200_000 }, (_, i) => `cfg_${i % 97}.v-${i % 13}`).join("_");
    const t = Date.parse("2026-03-04T10:00:00Z");
    await writeFile(
      path.join(folder, "s.jsonl"),
      record(t, "user", `can you look at this bundle\n${blob}`, true) +
        record(t + 60_000, "assistant", "That is a minified config; the interesting part is the retry section.", false),
    );
    const r = await ingestSessions(ws, { now: NOW });
    expect(r.messages).toBe(2);
    expect(r.truncated).toBe(1);
    const digest = await readFile(path.join(ws.root, "memory/2026-03-04-sessions.md"), "utf8");
    expect(digest).toMatch(/^> _… \d{4} KB more of this message left out: over the per-message limit of 16 KB_$/m);
    expect(digest).toContain("> That is a minified config");
  });
});

describe("a digest written before the limit", () => {
  it("is neither read into memory nor rewritten; its day's new messages are counted and the report says why", async () => {
    const rel = "memory/2026-03-04-sessions.md";
    const big = `# Sessions of 2026-03-04\n\n${"> an old, very long digest line\n".repeat(80_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(DIGEST_READ_MAX_BYTES);
    await writeFile(path.join(ws.root, rel), big);
    await writeFile(
      path.join(folder, "s.jsonl"),
      record(Date.parse("2026-03-04T10:00:00Z"), "user", "late note", false),
    );
    const r = await ingestSessions(ws, { now: NOW });
    expect(r.written).toEqual([]);
    expect(await readFile(path.join(ws.root, rel), "utf8")).toBe(big);
    expect(r.leftOut.map((l) => l.messages)).toEqual([1]);
    expect(r.diagnostics.map((d) => `${d.path}: ${d.reason}`)).toContainEqual(
      expect.stringMatching(
        /^memory\/2026-03-04-sessions\.md: 1 message \(1 KB\) of session s left out: the digest is already over 2048 KB/,
      ),
    );
  });
});

describe("fileLines", () => {
  it("yields complete lines with exact byte sizes, skips an over-long line without holding it, keeps a partial last line back", async () => {
    const file = path.join(tmp, "t.jsonl");
    await writeFile(file, `{"a":"é"}\r\n${"z".repeat(5000)}\n\n{"b":1}\n{"partial`);
    const got: [string | undefined, number][] = [];
    for await (const l of fileLines(file, 0, 1000)) got.push([l.text, l.bytes]);
    expect(got).toEqual([
      ['{"a":"é"}\r', 11],
      [undefined, 5000],
      ["", 0],
      ['{"b":1}', 7],
    ]);
    const tail: (string | undefined)[] = [];
    for await (const l of fileLines(file, 11 + 1 + 5000 + 1 + 1, 1000)) tail.push(l.text);
    expect(tail).toEqual(['{"b":1}']);
  });
});
