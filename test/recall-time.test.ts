// How recall reads time in a question over a small workspace with known answers: a vague
// "recently" must not hide an older exact match, and a day's events are often written in
// the next day's log ("yesterday I ..."), and a named day whose notes never use the
// question's words still answers with that day.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const asOf = new Date("2026-06-30T12:00:00Z");
const logs: Record<string, string[]> = {
  "2026-02-10": ["- **John**: I have been blogging about politics and the city budget.", "- **Maria**: Nice!"],
  "2026-03-03": ["- **Maria**: The garden needs water.", "- **John**: I will fix the fence on Sunday."],
  "2026-03-04": ["- **John**: Yesterday I cooked a big pot of ramen for dinner.", "- **Maria**: Yum."],
  "2026-05-20": ["- **Maria**: We had ramen again at the noodle bar downtown."],
  "2026-05-25": ["- **Maria**: Long lunch in the park with the neighbours, then a nap."],
  "2026-06-25": ["- **John**: Work was busy this week.", "- **Maria**: The dog learned a new trick."],
  "2026-06-28": ["- **John**: Quiet weekend, mostly reading.", "- **Maria**: Same here, with a podcast."],
};

let dir: string;
let ws: Workspace;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-recall-time-"));
  await mkdir(path.join(dir, "memory"));
  for (const [day, lines] of Object.entries(logs)) {
    await writeFile(path.join(dir, "memory", `${day}.md`), `# ${day}\n\n${lines.join("\n")}\n`);
  }
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe("time in recall questions", () => {
  it("treats 'recently' as a preference, so the last mention of the topic still leads", async () => {
    const r = await recall(ws, "What has John been blogging about recently?", { asOf, k: 3 });
    expect(r.intent.window).toMatchObject({ text: "recently", vague: true });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-02-10\.md#L/);
  });

  it("finds what happened on a day in the next day's log", async () => {
    const r = await recall(ws, "What did John cook on March 3?", { asOf, k: 3 });
    expect(r.intent.window).toMatchObject({ from: "2026-03-03", to: "2026-03-03" });
    // The March 4 note ("Yesterday I cooked ...") outranks the ramen of May, outside the window.
    const ranks = r.results.map((x) => x.source.slice(0, 20));
    expect(ranks[0]).toBe("memory/2026-03-04.md");
  });

  it("gives the day's notes when no line of a named day holds the question's words", async () => {
    // Whit Monday 2026 is May 25 (Easter + 50); nothing in the notes says "eat".
    const r = await recall(ws, "what did we eat on Whit Monday?", { asOf, k: 3 });
    expect(r.intent.window).toMatchObject({ from: "2026-05-25", to: "2026-05-25" });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-05-25\.md#L/);
  });

  it("still lists a recent window's days for 'what happened recently?'", async () => {
    const r = await recall(ws, "what happened recently?", { asOf, k: 4 });
    expect(r.results.length).toBeGreaterThan(0);
    for (const x of r.results) expect(x.timestamp ?? "").toMatch(/^2026-06-(1[6-9]|2\d|30)/);
  });

  it("reads 'recently' after a quiet spell as the last two weeks that have logs, newest first", async () => {
    const r = await recall(ws, "what happened recently?", { asOf: new Date("2026-09-30T12:00:00Z"), k: 3 });
    expect(r.intent.window).toMatchObject({ from: "2026-06-14", to: "2026-06-28", vague: true });
    expect(r.results[0]?.source).toMatch(/^memory\/2026-06-28\.md#L/);
  });
});
