// bench/convert-realtalk.mjs (issue 14): a REALTALK chat in its real shape
// (test/fixtures/realtalk/Chat_3_Sam_rosa.json: a session running past midnight, a photo turn
// with a caption, an id the cleaned data skipped, evidence written as a range, with a stray
// dot, as a "; " list) becomes daily logs whose gold lines are the cited messages.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..");
const script = path.join(repoRoot, "bench/convert-realtalk.mjs");
const fixtureDir = path.join(repoRoot, "test/fixtures/realtalk");

interface Query {
  id: string;
  workspace: string;
  question: string;
  category_name: string;
  evidence: { path: string; line: number; dia_id: string }[];
}

function convert(input: string, out: string) {
  const r = spawnSync(process.execPath, [script, "--in", input, "--out", out], { encoding: "utf8" });
  return { code: r.status, stderr: r.stderr };
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile())
      out[path.relative(dir, path.join(e.parentPath, e.name))] = await readFile(
        path.join(e.parentPath, e.name),
        "utf8",
      );
  }
  return out;
}

let tmp: string;
let out: string;
let queries: Query[];
const logLine = async (rel: string, line: number) =>
  (await readFile(path.join(out, "workspaces/chat-03", rel), "utf8")).split("\n")[line - 1];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "membank-realtalk-"));
  out = path.join(tmp, "out");
  const r = convert(fixtureDir, out);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  queries = (await readFile(path.join(out, "queries.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Query);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("convert-realtalk", () => {
  it("writes each message into the log of the day it was sent, the session continuing past midnight", async () => {
    const memory = path.join(out, "workspaces/chat-03/memory");
    expect((await readdir(memory)).sort()).toEqual(["2024-02-14.md", "2024-02-15.md", "2024-02-16.md"]);
    expect((await readFile(path.join(memory, "2024-02-14.md"), "utf8")).split("\n")).toEqual([
      "# 2024-02-14",
      "",
      "## Session 1 (23:51 on 14 Feb 2024): Sam and rosa",
      "",
      "- **Sam** (23:51): heyy are you still up?",
      "- **rosa** (23:58): yes!! just got back from the climbing gym 🧗",
      "",
    ]);
    const feb15 = (await readFile(path.join(memory, "2024-02-15.md"), "utf8")).split("\n");
    expect(feb15[2]).toBe("## Session 1, continued");
    // A two-line message is one line; a photo keeps its caption.
    expect(feb15[4]).toBe(
      "- **rosa** (00:01): I finally sent the V4 on the overhang wall. Took me like three weeks lol",
    );
    expect(feb15[5]).toBe("- **rosa** (00:01): [shares a photo of a woman climbing an indoor rock wall]");
  });

  it("points evidence at the cited messages' lines, repairing how annotators wrote the ids", async () => {
    const byId = new Map(queries.map((q) => [q.id, q]));
    // "D1:3." -> D1:3, the day after the session started.
    expect(byId.get("chat-03-q000")?.evidence).toEqual([{ path: "memory/2024-02-15.md", line: 5, dia_id: "D1:3" }]);
    expect(await logLine("memory/2024-02-15.md", 5)).toContain("sent the V4");
    // "D1:2-D1:5": every message in between, across midnight and the skipped D1:4.
    expect(byId.get("chat-03-q001")?.evidence.map((e) => `${e.path}:${e.line}`)).toEqual([
      "memory/2024-02-14.md:6",
      "memory/2024-02-15.md:5",
      "memory/2024-02-15.md:6",
    ]);
    // "D2:1; D2:3": two ids in one entry.
    expect(byId.get("chat-03-q002")?.evidence.map((e) => e.dia_id)).toEqual(["D2:1", "D2:3"]);
    expect(await logLine("memory/2024-02-16.md", 7)).toBe("- **Sam** (08:41): Monday, 6am shift 😅");
    expect(byId.get("chat-03-q002")?.category_name).toBe("open-domain");
  });

  it("leaves out a question whose only evidence names no message, and says so in stats.json", async () => {
    expect(queries.map((q) => q.id)).not.toContain("chat-03-q004");
    const stats = JSON.parse(await readFile(path.join(out, "stats.json"), "utf8"));
    expect(stats.qa_total).toBe(5);
    expect(stats.qa_kept).toBe(4);
    expect(stats.skipped_no_evidence).toEqual({ "multi-hop": 1 });
    expect(stats.evidence_ids_missing).toEqual(["chat-03 q4: D1:4"]);
    const dia = JSON.parse(await readFile(path.join(out, "workspaces/chat-03/dia_map.json"), "utf8"));
    expect(dia["D2:4"]).toEqual({ path: "memory/2024-02-16.md", line: 8 });
  });

  it("gives the same bytes on a second run", async () => {
    const first = await tree(out);
    expect(convert(fixtureDir, out).code).toBe(0);
    expect(await tree(out)).toEqual(first);
  });

  it("stops on bad input with one line naming the file and the message, leaving the earlier conversion", async () => {
    const raw = JSON.parse(await readFile(path.join(fixtureDir, "Chat_3_Sam_rosa.json"), "utf8"));
    const bad = path.join(tmp, "bad");
    await mkdir(bad);
    raw.session_2[2].date_time = "Monday 6am";
    await writeFile(path.join(bad, "Chat_3_Sam_rosa.json"), JSON.stringify(raw));
    const before = await tree(out);
    let r = convert(bad, out);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(
      `${path.join(bad, "Chat_3_Sam_rosa.json")}: session_2[2] (D2:3): date_time "Monday 6am"`,
    );
    expect(await tree(out)).toEqual(before);

    // A LongMemEval file or a truncated download is not taken for a chat.
    await writeFile(path.join(bad, "Chat_3_Sam_rosa.json"), '[{"question_id": "e47becba"}]');
    r = convert(bad, path.join(tmp, "o2"));
    expect(r.stderr).toContain("top level: is not a JSON object");
    await writeFile(path.join(bad, "Chat_3_Sam_rosa.json"), '{"name": {"speaker_1": "Sam"}, "session_1": [');
    r = convert(bad, path.join(tmp, "o3"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Chat_3_Sam_rosa.json: whole file: not valid JSON");
  });
});
