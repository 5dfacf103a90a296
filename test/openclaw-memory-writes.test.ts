// What OpenClaw 2026.9.6 itself writes into a workspace's memory/ over a few days, beside the
// agent's own daily logs: the session-memory hook's file on every /new (timestamp slug, an
// LLM slug, one whose transcript was unavailable), dreaming's reports (default storage
// "separate": memory/dreaming/<phase>/<day>.md; "inline": a block inside the day's log), its
// hidden memory/.dreams/ state, and a stray non-Markdown file. Formats copied from the
// installed package (hooks/bundled/session-memory/handler.js, memory-core dreaming-markdown).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { membank } from "./reflect-support.js";

const FILES: Record<string, string> = {
  "MEMORY.md": "# MEMORY.md\n\n- Dana Okafor: the human. Sister: Ife.\n",
  "memory/2026-09-14.md":
    "# Sun 14 Sep\n\nMorning with Dana on the garden plan, raised beds along the south fence.\n\n" +
    "## Retain\n- W @Dana: Wants raised beds along the south fence.\n- O(c=0.7) @Dana: Prefers cedar over pine for the beds.\n",
  // /new at 14:32 (Lisbon), the default timestamp slug.
  "memory/2026-09-14-1432.md":
    "# Session: 2026-09-14 14:32:07 Europe/Lisbon\n\n" +
    "- **Session Key**: agent:main:telegram:direct:48213\n- **Session ID**: 4f1c2a9e-77b0-4d5e-9a61-0c2b8e1d3f55\n- **Source**: telegram\n\n" +
    "## Conversation Summary\n\n" +
    'user: "remind me, my sister Ife\'s birthday is on the 3rd of October, she turns 30"\n' +
    'assistant: "Got it. Ife turns 30 on October 3rd. Want me to help plan something?"\n' +
    'user: "yes, she loves the Oceanário, maybe tickets"\n',
  // An idle reset whose transcript OpenClaw could not read.
  "memory/2026-09-14-1910.md":
    "# Session: 2026-09-14 19:10:44 Europe/Lisbon\n\n" +
    "- **Session Key**: agent:main:main\n- **Session ID**: 9a0b7c11-2d3e-4f50-8a61-77c2b3d4e5f6\n- **Reason**: idle\n\n" +
    "## Conversation Summary\n\n" +
    '> Transcript content was unavailable: "session store busy"\n',
  // llmSlug: true names it after the talk.
  "memory/2026-09-15-vet-appointment.md":
    "# Session: 2026-09-15 09:03:51 Europe/Lisbon\n\n" +
    "- **Session Key**: agent:main:main\n- **Session ID**: 0d2e4c6a-1b3f-4e5d-8c7b-9a1f2e3d4c5b\n- **Source**: webchat\n\n" +
    "## Conversation Summary\n\n" +
    'user: "book Biscuit in with Dr Marsh at the Alfama vet on Friday"\n' +
    'assistant: "Booked: Biscuit with Dr Marsh, Friday 10:00."\n',
  // The night's dreaming, default storage: separate reports.
  "memory/dreaming/light/2026-09-15.md":
    "# Light Sleep\n\n" +
    "- Candidate: Morning with Dana on the garden plan, raised beds along the south fence.\n" +
    "  - confidence: 0.62\n  - evidence: memory/2026-09-14.md:3-3\n  - recalls: 2\n  - status: staged\n" +
    "- Candidate: remind me, my sister Ife's birthday is on the 3rd of October\n" +
    "  - confidence: 0.55\n  - evidence: memory/2026-09-14-1432.md:9-9\n  - recalls: 1\n  - status: staged\n",
  "memory/dreaming/rem/2026-09-15.md":
    "# REM Sleep\n\n- Theme: `garden` kept surfacing across 3 memories.\n" +
    "  - confidence: 0.71\n  - evidence: memory/2026-09-14.md:3, memory/2026-09-14.md:7\n  - note: reflection\n",
  "memory/dreaming/deep/2026-09-15.md": "# Deep Sleep\n\n- Promoted: Dana wants raised beds along the south fence.\n",
  // Storage "inline": the Light Sleep block appended to the day's own log (which has no Retain).
  "memory/2026-09-16.md":
    "# Tue 16 Sep\n\nCalled Marisol about the fence quote, she can start next week. Ife rang about the party.\n\n" +
    "## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n" +
    "- Candidate: Ife turns 30 on October 3rd.\n  - confidence: 0.58\n  - evidence: memory/2026-09-14-1432.md:10-10\n" +
    "<!-- openclaw:dreaming:light:end -->\n",
  "memory/.dreams/session-corpus/2026-09-14.txt": "[main/4f1c2a9e.jsonl#L3] User: remind me, Ife's birthday\n",
  "memory/.dreams/short-term-recall.json": '{"version":1,"entries":{}}\n',
  "memory/notes.txt": "not markdown, not a log\n",
};

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
}

async function workspace(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-ocwrites-"));
  for (const [rel, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "workspace");
  return dir;
}

/** Every bank page's text, by path. */
async function bank(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(path.join(dir, "bank"), { recursive: true })) {
    if (name.endsWith(".md")) out[name] = await readFile(path.join(dir, "bank", name), "utf8");
  }
  return out;
}

describe("what OpenClaw 2026.9 writes into memory/", () => {
  it("dreaming's reports are no logs; the session-memory files are logs of their day", async () => {
    const dir = await workspace();
    const facts = await membank("facts", "--json", "--workspace", dir);
    expect(facts.code, facts.stderr).toBe(0);
    const json = JSON.parse(facts.stdout);
    expect(json.diagnostics).toEqual([]);
    expect(json.logsWithoutRetain).toEqual([
      "memory/2026-09-14-1432.md",
      "memory/2026-09-14-1910.md",
      "memory/2026-09-15-vet-appointment.md",
      "memory/2026-09-16.md",
    ]);
    expect(json.facts.map((f: { source: { path: string } }) => f.source.path)).toEqual([
      "memory/2026-09-14.md",
      "memory/2026-09-14.md",
    ]);
    await rm(dir, { recursive: true, force: true });
  });

  it("reflect reads names from the chats, not from the hook's header nor dreaming's restatements", async () => {
    const dir = await workspace();
    const run = await membank("reflect", "--workspace", dir);
    expect(run.code, run.stderr).toBe(0);
    const pages = await bank(dir);
    const all = Object.values(pages).join("\n");
    // No page for the header's words, no line of the header, of dreaming's reports or block.
    expect(Object.keys(pages).filter((p) => /session/i.test(p))).toEqual([]);
    expect(all).not.toMatch(/Session (Key|ID)|Transcript content was unavailable/);
    expect(all).not.toContain("memory/dreaming/");
    expect(all).not.toContain("Candidate:");
    // The chats themselves are read, on the day of the /new, citing the hook's file.
    expect(pages["entities/Ife.md"]).toContain("2026-09-14 — user: ");
    expect(pages["entities/Ife.md"]).toContain("[memory/2026-09-14-1432.md#L9]");
    // The inline block's log is still read outside the block.
    expect(pages["entities/Ife.md"]).toMatch(/2026-09-16 — Called Marisol .*Ife rang about the party/);
    // Dana's page has her two facts and no dreaming echo.
    expect(pages["entities/Dana.md"]).not.toContain("2026-09-15");
    await rm(dir, { recursive: true, force: true });
  });

  it("a dreaming report rewritten or removed by OpenClaw changes nothing in the bank", async () => {
    const dir = await workspace();
    expect((await membank("reflect", "--workspace", dir)).code).toBe(0);
    const head = git(dir, "rev-parse", "HEAD");
    await rm(path.join(dir, "memory/dreaming"), { recursive: true });
    await writeFile(path.join(dir, "memory/dreaming-moved.txt"), "");
    await mkdir(path.join(dir, "memory/dreaming/light"), { recursive: true });
    await writeFile(
      path.join(dir, "memory/dreaming/light/2026-09-16.md"),
      "# Light Sleep\n\n- Candidate: Zora Vance rang.\n",
    );
    const again = await membank("reflect", "--workspace", dir);
    expect(again.code, again.stderr).toBe(0);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    expect(existsSync(path.join(dir, "bank/entities/Zora Vance.md"))).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});
