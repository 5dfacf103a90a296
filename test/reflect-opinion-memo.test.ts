// The opinion memo (src/reflect/opinion-memo.ts, .memory/reflect/opinion-memo.json) lets a
// nightly take an opinion's region from bank/opinions.md instead of rendering it again. It is a
// cache, never truth: with it, without it, corrupt, of other code, or facing a page a person
// edited or git put back, the nightly writes the bytes a run without it writes.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles } from "./reflect-support.js";

// An allotment plot shared by three households, notes as they come.
const LOGS: Record<string, string> = {
  "memory/2025-04-05.md":
    "first proper dig of the year. Wim brought the rotavator, Sanne not convinced\n\n## Retain\n- O(c=0.8) @Wim: Swears the rotavator saves a whole weekend of digging.\n- O(c=0.7) @Sanne: Thinks no-dig beds will out-crop the dug ones by July.\n- W @Plot14: Water butt on the north side is cracked.\n",
  "memory/2025-04-12.md":
    "rain all sat. shed roof leaks AGAIN\n\n## Retain\n- W @Plot14: Shed roof leaks over the seed trays.\n- O(c=0.6) @Wim: reckons felt on the shed roof will hold another winter\n- B: I moved the seed trays onto the potting bench.\n",
  "memory/2025-04-26.md":
    "## Retain\n- O(c=0.75) @Sanne: The no-dig beds are clearly ahead, the broad beans there are twice the size.\n- W @Wim: Borrowed a second rotavator from the Jansens.\n- O(c=0.5) @Ravi: Not sure the compost bins need turning weekly.\n",
  "memory/2025-05-03.md":
    "Ravi turned the compost anyway. smelled awful\n\n## Retain\n- O(c=0.3) @Wim: Admits the rotavator chewed up the couch grass roots and spread them everywhere.\n- W @Plot14: New felt ordered for the shed, arrives mid May.\n",
};

const NEW_DAY =
  "Hot. Watering rota sorted at last.\n\n## Retain\n- O(c=0.9) @Sanne: Thinks the no-dig beds will out-crop the dug ones by July, even more sure now.\n- W @Ravi: Takes Tuesdays and Fridays on the watering rota.\n- O(c=0.2) @Wim: No longer reckons the felt on the shed roof will hold another winter; it tore in the wind.\n";

const memoFile = (dir: string) => path.join(dir, ".memory/reflect/opinion-memo.json");
const opinionsPage = (dir: string) => path.join(dir, "bank/opinions.md");
const night = { since: "2025-05-10", commit: false, now: new Date("2025-05-11T06:00:00Z") } as const;

async function evening(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-opmemo-"));
  for (const [rel, text] of Object.entries(LOGS)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  await reflect(await openWorkspace(dir), { all: true, commit: false, now: new Date("2025-05-10T06:00:00Z") });
  return dir;
}

/** A copy of the evening with `change` applied, then the nightly of the new day. */
async function nightly(from: string, change: (dir: string) => Promise<void>): Promise<Map<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-opmemo-night-"));
  await cp(from, dir, { recursive: true });
  await change(dir);
  await writeFile(path.join(dir, "memory/2025-05-10.md"), NEW_DAY);
  const report = await reflect(await openWorkspace(dir), night);
  expect(report.mode).toBe("incremental");
  return bankFiles(dir);
}

describe("the opinion memo is a cache, never truth", () => {
  it("a nightly with the memo, without it, corrupt or of other code writes the same opinions page", async () => {
    const eve = await evening();
    const memo = JSON.parse(await readFile(memoFile(eve), "utf8"));
    const page = await readFile(opinionsPage(eve), "utf8");
    // One entry per opinion on the page.
    expect(memo.ids.length).toBe([...page.matchAll(/<!-- membank:begin op-/g)].length);
    expect(memo.ids.length).toBeGreaterThanOrEqual(3);

    const kept = await nightly(eve, async () => {});
    const after = kept.get("bank/opinions.md")!;
    expect(after).not.toBe(page); // the new day moved opinions
    expect(after).toContain("tore in the wind");

    const none = await nightly(eve, (d) => rm(memoFile(d)));
    expect(none).toEqual(kept);
    expect(await nightly(eve, (d) => writeFile(memoFile(d), '{"version":1,"code":"x","ids":['))).toEqual(kept);
    expect(await nightly(eve, (d) => writeFile(memoFile(d), "[]"))).toEqual(kept);
    expect(await nightly(eve, (d) => writeFile(memoFile(d), JSON.stringify({ ...memo, code: "other" })))).toEqual(kept);
    // Entries paired with the wrong opinions: each one's hashes belong to another, so none vouches.
    const shifted = { ...memo, ids: [...memo.ids.slice(1), memo.ids[0]] };
    expect(await nightly(eve, (d) => writeFile(memoFile(d), JSON.stringify(shifted)))).toEqual(kept);

    // And a run that reads every log from scratch gives those pages too.
    const full = await mkdtemp(path.join(tmpdir(), "membank-opmemo-full-"));
    for (const [rel, text] of Object.entries({ ...LOGS, "memory/2025-05-10.md": NEW_DAY })) {
      await mkdir(path.dirname(path.join(full, rel)), { recursive: true });
      await writeFile(path.join(full, rel), text);
    }
    await reflect(await openWorkspace(full), { all: true, commit: false, now: night.now });
    expect(await bankFiles(full)).toEqual(kept);
  });

  it("an opinion a person edited, or a page git put back, is rendered as without the memo", async () => {
    const eve = await evening();
    // A person lowers a confidence by hand (the region's hash no longer matches: their value is the state).
    const byHand = async (d: string) => {
      const text = await readFile(opinionsPage(d), "utf8");
      const edited = text.replace(/- confidence: 0\.80/, "- confidence: 0.65");
      expect(edited).not.toBe(text);
      await writeFile(opinionsPage(d), edited);
    };
    const edited = await nightly(eve, byHand);
    expect(edited.get("bank/opinions.md")).toContain("0.65");
    expect(
      await nightly(eve, async (d) => {
        await byHand(d);
        await rm(memoFile(d));
      }),
    ).toEqual(edited);

    // The memo of a later night against the evening's page (a checkout of an older opinions.md):
    // the regions carry other hashes than the memo's, so every opinion is rendered.
    const later = await mkdtemp(path.join(tmpdir(), "membank-opmemo-later-"));
    await cp(eve, later, { recursive: true });
    await writeFile(path.join(later, "memory/2025-05-10.md"), NEW_DAY);
    await reflect(await openWorkspace(later), night);
    const laterMemo = await readFile(memoFile(later), "utf8");
    expect(laterMemo).not.toBe(await readFile(memoFile(eve), "utf8"));
    const plain = await nightly(eve, (d) => rm(memoFile(d)));
    expect(await nightly(eve, (d) => writeFile(memoFile(d), laterMemo))).toEqual(plain);
  });
});
