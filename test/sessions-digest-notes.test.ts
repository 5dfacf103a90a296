// A person writes into a day's session digest (a note under a message, a line under a
// session's source) and has not committed it yet; a late message of that day makes the next
// nightly rewrite the digest. Their lines must survive the rewrite, where they wrote them.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDigestFull, renderDigest } from "../src/sessions/digest.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const CLI = MEMBANK_BIN;
const env = { ...process.env, EDITOR: "vi", PAGER: "less", GIT_EDITOR: "vi", LANG: "C" };

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-digest-notes-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const rec = (id: string, ts: string, role: string, text: string) =>
  `${JSON.stringify({ type: "message", id, timestamp: ts, message: { role, content: [{ type: "text", text }] } })}\n`;

describe("a person's lines in a session digest", () => {
  it("survive the nightly that merges a late message into that day, in place", async () => {
    const ws = path.join(tmp, "ws");
    const agents = path.join(tmp, "agents");
    const file = path.join(agents, "main", "sessions", "s1.jsonl");
    await mkdir(path.dirname(file), { recursive: true });
    await mkdir(path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);
    await writeFile(
      file,
      rec("a", "2026-03-04T09:00:00Z", "user", "Remind me to call Ilse about the school forms.") +
        rec("b", "2026-03-04T09:00:05Z", "assistant", "Will do, tomorrow at 9."),
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, env, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "notes");
    const nightly = () =>
      spawnSync(process.execPath, [CLI, "run", "nightly", "--workspace", ws, "--sessions", agents], {
        env,
        encoding: "utf8",
      });
    expect(nightly().status).toBe(0);
    const digestFile = path.join(ws, "memory", "2026-03-04-sessions.md");
    const mine = "Called her back myself — forms are due Friday.\n\n- [ ] print them\n";
    await appendFile(digestFile, `\n${mine}`);
    const before = await readFile(digestFile, "utf8");

    await appendFile(file, rec("c", "2026-03-04T18:30:00Z", "user", "Also book the dentist for Ilse."));
    const run = nightly();
    expect(run.status, run.stderr).toBe(0);
    const after = await readFile(digestFile, "utf8");
    expect(after).toContain("> Also book the dentist for Ilse.");
    // The note stays under the message it followed, not moved after the new one.
    const note = after.indexOf("Called her back myself — forms are due Friday.\n\n- [ ] print them\n");
    expect(note).toBeGreaterThan(after.indexOf("> Will do, tomorrow at 9."));
    expect(note).toBeLessThan(after.indexOf("> Also book the dentist for Ilse."));
    expect(before.slice(0, before.indexOf("### 09:00:00"))).toContain("09:00:00–09:00:05");
    // Not committed in membank's name: the file holds the person's text.
    expect(run.stdout).toMatch(/2026-03-04-sessions\.md: written, not committed/);
    // And the next run leaves it as it is.
    expect(nightly().status).toBe(3);
    expect(await readFile(digestFile, "utf8")).toBe(after);
  });

  it("parse and render keep every line of a person's, at the top, under a session and under a message", () => {
    const entry = {
      source: "main/s1.jsonl",
      sessionId: "s1",
      agent: "main",
      line: 1,
      role: "user" as const,
      time: "09:00:00",
      text: "hi",
    };
    const base = renderDigest("2026-03-04", [entry], "UTC");
    const edited = base
      .replace("Source: `main/s1.jsonl`\n", "Source: `main/s1.jsonl`\n\nSession with the school, see mail.\n")
      .replace(/kept\.\n/, "kept.\n\n## My notes\n\nTop note.\n")
      .concat("\nUnder the message.\n> a quote of my own\n");
    const parsed = parseDigestFull(edited);
    expect(parsed.entries.map((e) => e.text)).toEqual(["hi"]);
    const again = renderDigest("2026-03-04", parsed.entries, "UTC", parsed.leftOut, parsed.notes);
    for (const line of [
      "Session with the school, see mail.",
      "## My notes",
      "Top note.",
      "Under the message.",
      "> a quote of my own",
    ]) {
      expect(again).toContain(line);
    }
    const p2 = parseDigestFull(again);
    expect(renderDigest("2026-03-04", p2.entries, "UTC", p2.leftOut, p2.notes)).toBe(again);
    // A digest nobody edited has no notes, and renders to itself.
    expect(parseDigestFull(base).notes.size).toBe(0);
  });
});
