// Reflect's facts snapshot (src/reflect/snapshot.ts) is kept in one file per year of logs: a
// nightly run rewrites only the years its window touches, and the pages it writes are those of
// a full run. A snapshot missing a file is not trusted (the run reads every log).
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles } from "./reflect-support.js";

// Three years of an ordinary log, a few lines each, some prose around the Retain section.
const LOGS: Record<string, string> = {
  "memory/2023-11-02.md":
    "Talked to Hanne about the garden shed.\n\n## Retain\n- W @Hanne: Wants the shed painted green before winter.\n- B: I ordered 4 litres of paint.\n",
  "memory/2023-12-30.md":
    "## Retain\n- O(c=0.6) @Hanne: Prefers the allotment to the balcony.\n- S: quiet end of year\n",
  "memory/2024-02-14.md":
    "# feb 14\nHanne + Ole came over, Ole still on about the boat\n\n## Retain\n- W @Ole: Bought a second-hand dinghy (Feb 2024).\n- bad line without a type\n",
  "memory/2024-07-01.md": "## Retain\n- W @Ole: The dinghy leaks; repair booked for Jul 20.\n",
  "memory/2025-03-03.md":
    "Ole called. Hanne too.\n\n## Retain\n- W @Hanne: Started a pottery class on Tuesdays.\n- O(c=0.8) @Hanne: Prefers the allotment to the balcony, says it again.\n",
};

async function workspace(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-snapshot-"));
  for (const [rel, text] of Object.entries(LOGS)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

const NEW_DAY = "Ole and Hanne at the harbour.\n\n## Retain\n- W @Ole: Sold the dinghy to a neighbour.\n";
const snapDir = (dir: string) => path.join(dir, ".memory/reflect");

async function parts(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of await readdir(snapDir(dir)))
    if (name.startsWith("facts-") && !name.includes("-prose-"))
      out.set(name, (await stat(path.join(snapDir(dir), name))).mtimeMs);
  return out;
}

describe("the facts snapshot, one file per year", () => {
  it("a new day rewrites only its year's file, and the pages are a full run's", async () => {
    const dir = await workspace();
    const ws = await openWorkspace(dir);
    const now = new Date("2025-03-04T06:00:00Z");
    await reflect(ws, { all: true, commit: false, now });
    const before = await parts(dir);
    expect([...before.keys()].map((n) => n.split("-")[1]).sort()).toEqual(["2023", "2024", "2025"]);

    await writeFile(path.join(dir, "memory/2025-03-04.md"), NEW_DAY);
    const night = await reflect(ws, { since: "2025-03-04", commit: false, now: new Date("2025-03-05T06:00:00Z") });
    expect(night.mode).toBe("incremental");
    expect(night.factsRead).toBe(1);
    const after = await parts(dir);
    // 2023 and 2024 are the same files, untouched; 2025 is a new file and the old one is gone.
    for (const [name, mtime] of before) {
      if (name.includes("-2025-")) expect(after.has(name)).toBe(false);
      else expect(after.get(name)).toBe(mtime);
    }
    expect([...after.keys()].filter((n) => n.includes("-2025-"))).toHaveLength(1);

    // The next nightly reads the kept files back: same facts, so the same pages as reading every log.
    await writeFile(path.join(dir, "memory/2025-03-06.md"), "## Retain\n- W @Hanne: Finished her first bowl.\n");
    const next = await reflect(ws, { since: "2025-03-06", commit: false, now: new Date("2025-03-07T06:00:00Z") });
    expect(next.mode).toBe("incremental");
    expect(next.factsTotal).toBe(10);
    expect(next.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual(["memory/2024-02-14.md:6"]);

    const full = await workspace();
    await writeFile(path.join(full, "memory/2025-03-04.md"), NEW_DAY);
    await writeFile(path.join(full, "memory/2025-03-06.md"), "## Retain\n- W @Hanne: Finished her first bowl.\n");
    await reflect(await openWorkspace(full), { all: true, commit: false, now: new Date("2025-03-07T06:00:00Z") });
    expect(await bankFiles(dir)).toEqual(await bankFiles(full));
  });

  it("a snapshot with a file missing is not trusted: the run reads every log", async () => {
    const dir = await workspace();
    const ws = await openWorkspace(dir);
    await reflect(ws, { all: true, commit: false, now: new Date("2025-03-04T06:00:00Z") });
    const name = [...(await parts(dir)).keys()].find((n) => n.includes("-2024-"))!;
    await rm(path.join(snapDir(dir), name));
    await writeFile(path.join(dir, "memory/2025-03-04.md"), NEW_DAY);
    const night = await reflect(ws, { since: "2025-03-04", commit: false, now: new Date("2025-03-05T06:00:00Z") });
    expect(night.mode).toBe("full");
    expect(night.factsTotal).toBe(9);
    // ...and leaves a whole snapshot behind for the next run.
    expect([...(await parts(dir)).keys()].filter((n) => n.includes("-2024-"))).toHaveLength(1);
  });

  it("a snapshot another membank's parsing rules wrote (an upgrade) is read as none: every log once, then nightly again", async () => {
    const dir = await workspace();
    const ws = await openWorkspace(dir);
    await reflect(ws, { all: true, commit: false, now: new Date("2025-03-04T06:00:00Z") });
    const headFile = path.join(snapDir(dir), "facts.json");
    const head = JSON.parse(await readFile(headFile, "utf8"));
    await writeFile(headFile, JSON.stringify({ ...head, code: "an-older-build" }));
    await writeFile(path.join(dir, "memory/2025-03-04.md"), NEW_DAY);
    const upgraded = await reflect(ws, { since: "2025-03-04", commit: false, now: new Date("2025-03-05T06:00:00Z") });
    expect(upgraded.mode).toBe("full");
    expect(JSON.parse(await readFile(headFile, "utf8")).code).toBe(head.code);
    await writeFile(path.join(dir, "memory/2025-03-06.md"), "## Retain\n- W @Hanne: Finished her first bowl.\n");
    const next = await reflect(ws, { since: "2025-03-06", commit: false, now: new Date("2025-03-07T06:00:00Z") });
    expect(next.mode).toBe("incremental");
  });
});

describe("a stale or corrupt snapshot", () => {
  // Derived data, never truth: whatever state it is in, the pages are those of a good snapshot.
  const spoil: Record<string, (dir: string, names: string[]) => Promise<void>> = {
    "a part file cut short (a crash mid-copy, a full disk)": async (dir, names) => {
      const name = names.find((n) => n.includes("-2024-"))!;
      const text = await readFile(path.join(snapDir(dir), name), "utf8");
      await writeFile(path.join(snapDir(dir), name), text.slice(0, Math.floor(text.length / 2)));
    },
    "a head written by another membank's parsing rules (an upgrade)": async (dir) => {
      const head = JSON.parse(await readFile(path.join(snapDir(dir), "facts.json"), "utf8"));
      await writeFile(path.join(snapDir(dir), "facts.json"), JSON.stringify({ ...head, code: "an-older-build" }));
    },
    "a head of an older version": async (dir) => {
      const head = JSON.parse(await readFile(path.join(snapDir(dir), "facts.json"), "utf8"));
      await writeFile(path.join(snapDir(dir), "facts.json"), JSON.stringify({ ...head, version: 4 }));
    },
    "a year's prose in the older layout (by path), and no prose memo to stand for it": async (dir) => {
      const name = (await readdir(snapDir(dir))).find((n) => n.startsWith("facts-2023-prose-"))!;
      const logs = JSON.parse(await readFile(path.join(snapDir(dir), name), "utf8"));
      const prose = Object.fromEntries(logs.map((p: { path: string; lines: unknown }) => [p.path, p.lines]));
      await writeFile(path.join(snapDir(dir), name), JSON.stringify(prose));
      await rm(path.join(snapDir(dir), "prose-memo.json"));
    },
    "a year's prose file missing": async (dir) => {
      const name = (await readdir(snapDir(dir))).find((n) => n.startsWith("facts-2024-prose-"))!;
      await rm(path.join(snapDir(dir), name));
    },
    "a head that is not JSON": async (dir) => {
      await writeFile(path.join(snapDir(dir), "facts.json"), '{"version":5,"parts":[');
    },
  };

  const night =
    "Dropped by Ole's; the dinghy is gone.\n\n## Retain\n- W @Ole: sold the dinghy on Saturday (finally)\n- O(c=0.7) @Hanne: the allotment beats the balcony, no contest\n";

  async function nightly(dir: string) {
    await writeFile(path.join(dir, "memory/2025-03-04.md"), night);
    return reflect(await openWorkspace(dir), {
      since: "2025-03-04",
      commit: false,
      now: new Date("2025-03-05T06:00:00Z"),
    });
  }

  for (const [what, damage] of Object.entries(spoil)) {
    it(`${what}: the run reads every log and writes the pages a good snapshot gives`, async () => {
      const good = await workspace();
      await reflect(await openWorkspace(good), { all: true, commit: false, now: new Date("2025-03-04T06:00:00Z") });
      const bad = await workspace();
      await reflect(await openWorkspace(bad), { all: true, commit: false, now: new Date("2025-03-04T06:00:00Z") });
      await damage(bad, [...(await parts(bad)).keys()]);

      const fromGood = await nightly(good);
      const fromBad = await nightly(bad);
      expect(fromGood.mode).toBe("incremental");
      expect(fromBad.mode).toBe("full");
      expect(fromBad.pagesWritten).toEqual(fromGood.pagesWritten);
      expect(await bankFiles(bad)).toEqual(await bankFiles(good));
      // ...and the next run has a good snapshot again.
      const after = await reflect(await openWorkspace(bad), {
        since: "2025-03-05",
        commit: false,
        now: new Date("2025-03-06T06:00:00Z"),
      });
      expect(after.mode).toBe("incremental");
    });
  }
});

describe("old years' prose, read only when the prose memo cannot stand for it", () => {
  const evening = new Date("2025-03-04T06:00:00Z");
  const day =
    "Ole dropped by, Hanne on the phone about the allotment again.\n\n## Retain\n- W @Ole: Painted the dinghy red.\n";
  const proseFiles = async (dir: string) =>
    (await readdir(snapDir(dir))).filter((n) => /^facts-\d{4}-prose-/.test(n) && !n.startsWith("facts-2025-"));
  async function nightly(dir: string, date: string) {
    await writeFile(path.join(dir, `memory/${date}.md`), day);
    const next = new Date(`${date}T06:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return reflect(await openWorkspace(dir), { since: date, commit: false, now: next });
  }
  /** Two workspaces after a full run and a first nightly (which gives the memo's years their snapshot files). */
  async function twins(): Promise<[string, string]> {
    const pair: [string, string] = [await workspace(), await workspace()];
    for (const dir of pair) {
      await reflect(await openWorkspace(dir), { all: true, commit: false, now: evening });
      await nightly(dir, "2025-03-04");
    }
    return pair;
  }

  it("a nightly does not read the old years' prose files; without the memo it does, to the same pages", async () => {
    const [good, bad] = await twins();
    const old = await proseFiles(bad);
    expect(old.map((n) => n.slice(6, 10)).sort()).toEqual(["2023", "2024"]);
    // Garbage in the old years' prose files: never read while the memo has those years.
    for (const name of old) await writeFile(path.join(snapDir(bad), name), "not json");
    const fromGood = await nightly(good, "2025-03-06");
    const fromBad = await nightly(bad, "2025-03-06");
    expect(fromBad.mode).toBe("incremental");
    expect(fromBad.pagesWritten).toEqual(fromGood.pagesWritten);
    expect(await bankFiles(bad)).toEqual(await bankFiles(good));
    // A second run with nothing new writes nothing.
    const again = await reflect(await openWorkspace(bad), {
      since: "2025-03-06",
      commit: false,
      now: new Date("2025-03-07T07:00:00Z"),
    });
    expect(again.pagesWritten).toEqual([]);
    // Without the memo the prose is needed: the bad files are not trusted, the logs are read again.
    await rm(path.join(snapDir(bad), "prose-memo.json"));
    await nightly(good, "2025-03-08");
    expect((await nightly(bad, "2025-03-08")).mode).toBe("full");
    expect(await bankFiles(bad)).toEqual(await bankFiles(good));
    expect(await proseFiles(bad)).toEqual(await proseFiles(good));
  });

  it("a kept digest of an unread year that does not read back: that prose is read after all, same pages", async () => {
    const [good, bad] = await twins();
    const memoFile = path.join(snapDir(bad), "prose-memo.json");
    // Its shape passes the load's check; its content breaks the names step.
    const breakDigest = async () => {
      const memo = JSON.parse(await readFile(memoFile, "utf8"));
      const year = memo.years.find((y: { part?: string }) => y.part?.startsWith("facts-2023-prose-"));
      year.digest.runs = { Hanne: null };
      await writeFile(memoFile, JSON.stringify(memo));
    };
    await breakDigest();
    await nightly(good, "2025-03-06");
    const fromBad = await nightly(bad, "2025-03-06");
    expect(fromBad.mode).toBe("incremental");
    expect(await bankFiles(bad)).toEqual(await bankFiles(good));
    // And with the other unread year's prose file cut short as well: the prose comes from the logs.
    await breakDigest();
    const file = path.join(snapDir(bad), (await proseFiles(bad)).find((n) => n.startsWith("facts-2024-"))!);
    await writeFile(file, (await readFile(file, "utf8")).slice(0, 40));
    await nightly(good, "2025-03-08");
    expect((await nightly(bad, "2025-03-08")).mode).toBe("incremental");
    expect(await bankFiles(bad)).toEqual(await bankFiles(good));
    expect(await proseFiles(bad)).toEqual(await proseFiles(good));
  });
});

describe("prose names over years a nightly does not read, with a nickname in MEMORY.md", () => {
  const LOGS2: Record<string, string> = {
    "memory/2023-05-02.md": "Rach came by with the kids. Rachel's car is in the shop again.\n",
    "memory/2023-09-14.md": "Lunch with Rach, she is thinking about leaving the clinic.\n",
    "memory/2024-01-20.md": "Rachel called — the clinic job is hers if she wants it.\n",
    "memory/2024-06-11.md": "Rach and Ben at the lake. Rach swam across, show-off.\n",
    "memory/2025-02-01.md": "Birthday dinner for Rachel. Ben cooked.\n",
  };
  const CORE = "# Core\n\n- Rachel (Rach) is my sister, lives in Leipzig.\n- Ben is her partner.\n";
  async function ws(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-ties-"));
    await mkdir(path.join(dir, "memory"), { recursive: true });
    for (const [rel, text] of Object.entries(LOGS2)) await writeFile(path.join(dir, rel), text);
    await writeFile(path.join(dir, "MEMORY.md"), CORE);
    return dir;
  }
  const days = ["2025-02-10", "2025-02-11"];
  const text = (d: string) => `${d.slice(5)}: Rach again, long call about the move. Rachel sounds tired.\n`;

  it("a nightly that does not read the old years' prose writes the pages of one that does", async () => {
    const [lazy, eager] = [await ws(), await ws()];
    for (const dir of [lazy, eager]) {
      await reflect(await openWorkspace(dir), { all: true, commit: false, now: new Date("2025-02-02T06:00:00Z") });
      for (const d of days) {
        await writeFile(path.join(dir, `memory/${d}.md`), text(d));
        await reflect(await openWorkspace(dir), { since: d, commit: false, now: new Date(`${d}T23:00:00Z`) });
      }
    }
    // Garbage in the old years' prose files: the lazy one must not need them. The eager one has no
    // prose memo, so it reads those files and counts every line again.
    for (const n of (await readdir(snapDir(lazy))).filter((x) => /^facts-202[34]-prose-/.test(x)))
      await writeFile(path.join(snapDir(lazy), n), "[");
    await rm(path.join(snapDir(eager), "prose-memo.json"));
    for (const dir of [lazy, eager]) {
      await writeFile(path.join(dir, "memory/2025-02-12.md"), text("2025-02-12"));
      const run = await reflect(await openWorkspace(dir), {
        since: "2025-02-12",
        commit: false,
        now: new Date("2025-02-12T23:00:00Z"),
      });
      expect(run.mode).toBe("incremental");
    }
    expect(await bankFiles(lazy)).toEqual(await bankFiles(eager));
  });
});
