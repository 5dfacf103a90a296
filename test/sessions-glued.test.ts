// A transcript an agent was killed while writing: the cut-off record has no newline, and the
// restarted agent's next record continues the same line. The next record is a whole message
// the user said; the import keeps it and reports the cut with file:line.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSessionChunk } from "../src/sessions/parse.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const CLI = MEMBANK_BIN;
const env = { ...process.env, EDITOR: "vi", PAGER: "less", GIT_EDITOR: "vi", LANG: "C" };

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-glued-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const rec = (id: string, ts: string, role: string, text: string) =>
  JSON.stringify({ type: "message", id, timestamp: ts, message: { role, content: [{ type: "text", text }] } });

const LINES = [
  JSON.stringify({ type: "session", version: 3, id: "k1ll3d", timestamp: "2026-03-04T08:59:00.000Z" }),
  rec("e1", "2026-03-04T09:00:00.000Z", "user", "Book the dentist for Ilse, Thursday after school."),
  // Killed mid-record (no closing, no newline), then the restarted agent appended its record.
  rec("e2", "2026-03-04T09:00:04.000Z", "assistant", "Booked Dr. Peeters for Thursday 15:30.").slice(0, 70) +
    rec("e3", "2026-03-04T09:05:00.000Z", "user", "Also: Ilse's new school starts on the 14th of April."),
  rec("e4", "2026-03-04T09:05:09.000Z", "assistant", "Noted, Ilse starts at the new school on April 14."),
];

describe("a transcript with a record cut off by a killed writer", () => {
  it("reads the record glued after the cut and reports the cut with file:line", () => {
    const ctx = {
      source: "main/sessions/k1ll3d.jsonl",
      sessionId: "k1ll3d",
      displayPath: "k1ll3d.jsonl",
      firstLine: 1,
    };
    const chunk = parseSessionChunk(`${LINES.join("\n")}\n`, ctx, (ts) => new Date(ts).toISOString().slice(0, 10));
    expect(chunk.messages.map((m) => [m.line, m.role, m.text])).toEqual([
      [2, "user", "Book the dentist for Ilse, Thursday after school."],
      [3, "user", "Also: Ilse's new school starts on the 14th of April."],
      [4, "assistant", "Noted, Ilse starts at the new school on April 14."],
    ]);
    expect(chunk.diagnostics).toHaveLength(1);
    expect(chunk.diagnostics[0]).toMatchObject({ path: "k1ll3d.jsonl", line: 3 });
    expect(chunk.diagnostics[0]!.reason).toMatch(/cut off .*interrupted write/);
  });

  it("a bad line with no record after it is still one 'not valid JSON' diagnostic", () => {
    const ctx = { source: "s.jsonl", sessionId: "s", displayPath: "s.jsonl", firstLine: 1 };
    const chunk = parseSessionChunk(`${LINES[1]!.slice(0, 50)}{"type": oops\n`, ctx, () => "2026-03-04");
    expect(chunk.messages).toEqual([]);
    expect(chunk.diagnostics.map((d) => [d.line, /not valid JSON/.test(d.reason)])).toEqual([[1, true]]);
  });

  it("the nightly puts the glued message in the day's digest and names file:line in its report", async () => {
    const ws = path.join(tmp, "ws");
    const dir = path.join(tmp, "agents", "main", "sessions");
    await mkdir(dir, { recursive: true });
    await mkdir(path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
    await writeFile(path.join(dir, "k1ll3d.jsonl"), `${LINES.join("\n")}\n`);
    const run = spawnSync(
      process.execPath,
      [CLI, "run", "nightly", "--workspace", ws, "--sessions", path.join(tmp, "agents")],
      {
        env,
        encoding: "utf8",
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/k1ll3d\.jsonl:3: a record cut off/);
    const digest = await readFile(path.join(ws, "memory", "2026-03-04-sessions.md"), "utf8");
    expect(digest).toContain("Also: Ilse's new school starts on the 14th of April.");
    expect(digest).toContain("Noted, Ilse starts at the new school on April 14.");
  });
});
