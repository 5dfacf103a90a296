// Logs without a ## Retain section give no facts: the facts command, reflect's commit message
// and the nightly run summary say how many and which, never silently nothing.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { membank } from "./reflect-support.js";

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
}

// Raw chat-style logs, the way an agent dumps a day: no Retain section anywhere.
const RAW: Record<string, string> = {
  "2026-02-02.md": "# Mon 2 Feb\n\n**Mara:** can you move the 1:1?\n**me:** sure, thursday then\n",
  "2026-02-03.md": "# 2026-02-03\n\nSpent the morning on ledger-sync retries. Tomasz says the load test is flaky.\n",
  "2026-02-04-sessions.md":
    "# Sessions 2026-02-04\n\n- 09:12 user: what's on today?\n- 09:13 assistant: standup, then the offsite plan\n",
};

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-noretain-"));
  await mkdir(path.join(dir, "memory"));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, "memory", name), text);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "logs");
  return dir;
}

const NONE = "3 of 3 logs have no ## Retain section: add one (README) or set llm.provider to extract facts";

describe("logs without a Retain section", () => {
  it("raw logs only, no LLM: facts and the nightly run say what to do", async () => {
    const dir = await workspace(RAW);
    const facts = await membank("facts", "--workspace", dir);
    expect(facts.code, facts.stderr).toBe(0);
    expect(facts.stdout).toContain(NONE);
    const json = JSON.parse((await membank("facts", "--json", "--workspace", dir)).stdout);
    expect(json.logsWithoutRetain).toEqual([
      "memory/2026-02-02.md",
      "memory/2026-02-03.md",
      "memory/2026-02-04-sessions.md",
    ]);
    const run = await membank("run", "nightly", "--workspace", dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(NONE);
  });

  it("some logs without one: facts, reflect and its commit message name them", async () => {
    const dir = await workspace({
      ...RAW,
      "2026-02-05.md": "# Thu\n\nOffsite planning.\n\n## Retain\n- W @Mara: Runs the Berlin offsite on Mar 20–22.\n",
    });
    const which =
      "3 of 4 logs have no ## Retain section: memory/2026-02-02.md, memory/2026-02-03.md, memory/2026-02-04-sessions.md";
    expect((await membank("facts", "--workspace", dir)).stdout).toContain(which);
    const reflect = await membank("reflect", "--workspace", dir);
    expect(reflect.code, reflect.stderr).toBe(0);
    expect(reflect.stdout).toContain(which);
    expect(git(dir, "log", "-1", "--format=%B")).toContain(which);
  });
});
