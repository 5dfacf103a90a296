// The topic memo (src/reflect/topic-memo.ts, .memory/reflect/topic-memo.json) keeps what each
// opinion's topic is made of between runs, so a nightly does not read every opinion's statement
// again. It is a cache, never truth: with it, without it, corrupt, of other code, or after
// MEMORY.md ties a role to someone else, the nightly writes the bytes a run without it writes,
// and a topic read through it is the topic read from the statement.
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { KnownNames, statementTopic } from "../src/reflect/topic.js";
import { topicMemo } from "../src/reflect/topic-memo.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles } from "./reflect-support.js";

// A family restaurant's notes: a chef, a mum who helps out, suppliers, and views that turn.
const MEMORY = "# Memory\n\n- Mum (Rita) does the books on Sundays.\n- Kemal is the chef.\n";
const LOGS: Record<string, string> = {
  "memory/2025-03-01.md":
    "busy sat, 90 covers\n\n## Retain\n- O(c=0.7) @Kemal: Thinks the new combi oven pays for itself by summer.\n- O(c=0.6): mum reckons the Sunday roast should go up by two quid\n- W @Brakes: Delivers Tuesdays and Fridays.\n",
  "memory/2025-03-08.md":
    "## Retain\n- O(c=0.8) @Dana: Brakes's prices are a joke, we should switch to Bidfood.\n- O(c=0.5): the chef says the brunch menu is going to flop\n- B: I moved the Friday order to Bidfood for a trial.\n",
  "memory/2025-03-15.md":
    "## Retain\n- O(c=0.4) @Dana: Great, another week of the walk-in freezer dying. Fantastic.\n- O(c=0.6) @Kemal: Oven's fine? not anymore, the fan died again.\n- W @Bidfood: Minimum order is 150 pounds.\n",
};
const NEW_DAY =
  "## Retain\n- O(c=0.3) @Kemal: No longer thinks the combi oven pays for itself; the repair ate the savings.\n- O(c=0.9): mum says the roast price rise went fine, nobody noticed\n- W @Dana: Moved the dairy order off Brakes.\n";

const memoFile = (dir: string) => path.join(dir, ".memory/reflect/topic-memo.json");
const night = { since: "2025-03-22", commit: false, now: new Date("2025-03-23T06:00:00Z") } as const;

async function evening(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-topicmemo-"));
  for (const [rel, text] of Object.entries({ ...LOGS, "MEMORY.md": MEMORY })) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  await reflect(await openWorkspace(dir), { all: true, commit: false, now: new Date("2025-03-22T06:00:00Z") });
  return dir;
}

/** A copy of the evening with `change` applied, then the nightly of the new day. */
async function nightly(from: string, change: (dir: string) => Promise<void>): Promise<Map<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-topicmemo-night-"));
  await cp(from, dir, { recursive: true });
  await change(dir);
  await writeFile(path.join(dir, "memory/2025-03-22.md"), NEW_DAY);
  const report = await reflect(await openWorkspace(dir), night);
  expect(report.mode).toBe("incremental");
  return bankFiles(dir);
}

/** A topic's parts as plain JSON, sets in their order. */
const plain = (x: unknown) => JSON.stringify(x, (_k, v: unknown) => (v instanceof Set ? { set: [...v] } : v));

describe("the topic memo is a cache, never truth", () => {
  it("a topic read through the memo, stored and read back, is the topic read from the statement", () => {
    const statements: [string[], string][] = [
      [["Kemal"], "Thinks the new combi oven pays for itself by summer."],
      [[], "mum reckons the Sunday roast should go up by two quid"],
      [[], "the chef says the brunch menu is going to flop"],
      [["Dana"], "Brakes's prices are a joke, we should switch to Bidfood."],
      [["Dana"], "Great, another week of the walk-in freezer dying. Fantastic."],
      [["Kemal"], "Oven's fine? not anymore, the fan died again."],
      [["Dana", "Brakes"], "Moved the dairy order off Brakes, Bidfood's cheaper anyway"],
      [["Noor"], "Priya is convinced the Linear pricing will bite us"],
      [["ops", "Mara"], "In hindsight Go would have been faster than Rust for this"],
      [[], "   "],
    ];
    const roles = new Map([
      ["mum", "Rita"],
      ["chef", "Kemal"],
    ]);
    const before = new KnownNames(
      [
        ["Brakes", "2025-01-01"],
        ["Bidfood", "2025-02-01"],
      ],
      roles,
    );
    // A night later more names are known (Linear tagged for the first time): mentions follow them.
    const after = new KnownNames(
      [
        ["Brakes", "2025-01-01"],
        ["Bidfood", "2025-02-01"],
        ["Linear", "2025-03-01"],
        ["Priya", "2025-03-02"],
      ],
      roles,
    );
    const first = topicMemo("code");
    for (const [e, s] of statements) expect(plain(first.topic(e, s, before))).toBe(plain(statementTopic(e, s, before)));
    expect(first.dirty).toBe(true);
    const file = JSON.parse(first.serialise());
    const second = topicMemo("code", new Map(file.ids.map((id: string, i: number) => [id, file.entries[i]])));
    for (const known of [before, after, undefined])
      for (const [e, s] of statements)
        expect(plain(second.topic(e, s, known)), s).toBe(plain(statementTopic(e, s, known)));
    // Another tie in MEMORY.md ("Mum (Ana)"): another key, read again, another holder.
    const tied = new KnownNames([], new Map([["mum", "Ana"]]));
    const [e, s] = statements[1]!;
    expect(second.topic(e, s, tied).holder).toBe("ana");
    expect(plain(second.topic(e, s, tied))).toBe(plain(statementTopic(e, s, tied)));
    expect(second.dirty).toBe(true);
    // A corrupt entry is read again.
    const corrupt = topicMemo("code", new Map(file.ids.map((id: string) => [id, '{"keys":"x"}'])));
    for (const [e, s] of statements)
      expect(plain(corrupt.topic(e, s, before))).toBe(plain(statementTopic(e, s, before)));
  });

  it("a nightly with the memo, without it, corrupt, of other code or after a new tie writes the same bank", async () => {
    const eve = await evening();
    const memo = JSON.parse(await readFile(memoFile(eve), "utf8"));
    const page = await readFile(path.join(eve, "bank/opinions.md"), "utf8");
    // One entry per opinion on the page.
    expect(memo.ids.length).toBe([...page.matchAll(/<!-- membank:begin op-/g)].length);
    expect(memo.ids.length).toBeGreaterThanOrEqual(4);

    const kept = await nightly(eve, async () => {});
    expect(kept.get("bank/opinions.md")).toContain("repair ate the savings");
    expect(await nightly(eve, (d) => rm(memoFile(d)))).toEqual(kept);
    expect(await nightly(eve, (d) => writeFile(memoFile(d), '{"version":1,"code":"x","ids":['))).toEqual(kept);
    expect(await nightly(eve, (d) => writeFile(memoFile(d), JSON.stringify({ ...memo, code: "other" })))).toEqual(kept);
    const junk = { ...memo, entries: memo.entries.map(() => '{"keys":[],"words":{"$set":[]},"cued":"yes"}') };
    expect(await nightly(eve, (d) => writeFile(memoFile(d), JSON.stringify(junk)))).toEqual(kept);

    // MEMORY.md ties "mum" to someone else before the night: her opinions change hands as without the memo.
    const retie = (d: string) => writeFile(path.join(d, "MEMORY.md"), MEMORY.replace("Mum (Rita)", "Mum (Ana)"));
    const retied = await nightly(eve, retie);
    expect(
      await nightly(eve, async (d) => {
        await retie(d);
        await rm(memoFile(d));
      }),
    ).toEqual(retied);
  });

  it("a second run over the same opinions reads the memo and leaves it as it was", async () => {
    const eve = await evening();
    const dir = await mkdtemp(path.join(tmpdir(), "membank-topicmemo-again-"));
    await cp(eve, dir, { recursive: true });
    await writeFile(path.join(dir, "memory/2025-03-22.md"), NEW_DAY);
    await reflect(await openWorkspace(dir), night);
    const text = await readFile(memoFile(dir), "utf8");
    const mtime = (await stat(memoFile(dir))).mtimeMs;
    await reflect(await openWorkspace(dir), { ...night, now: new Date("2025-03-23T07:00:00Z") });
    expect(await readFile(memoFile(dir), "utf8")).toBe(text);
    expect((await stat(memoFile(dir))).mtimeMs).toBe(mtime);
  });
});
