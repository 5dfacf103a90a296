// A day whose only news for most entities is a prose mention (a session digest names them on
// a day with no fact about them): the incremental run keeps those pages' fact-derived
// regions and writes only the new "Mentioned in" lines (src/reflect/splice.ts). The bytes
// must be those of a full run from scratch.
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/index.js";
import { bankFiles } from "./reflect-support.js";

const NOW = new Date("2026-03-20T07:00:00Z");

// Written the way people keep these logs: headings or none, asides, typos, CRLF in one file.
const LOGS: Record<string, string> = {
  "MEMORY.md": "# Core\n\n- Mara Lindqvist is my manager.\n- ledger-sync is the thing that keeps breaking\n",
  "memory/2026-03-02.md":
    "# Mon 2 Mar\n\nslow start, coffee machine broken again\n\n## Retain\n- W @Mara: Her contract ends in March.\n- B @ledger-sync: I fixed the retry storm in the ledger-sync worker (see PAY-1182).\n- O(c=0.7) @Mara: Prefers written updates over standups.\n- W @Jonas @ledger-sync: Jonas is on call for ledger-sync until Mar 13.\n",
  "memory/2026-03-04.md":
    "## Notes\n- Mara asked about the Q2 plan. Jonas out sick.\n\n## Retain\n- W @Mara: Contract extended to June 30, 2026.\n- S: Busy day; most of it on @ledger-sync.\n- W @Priya: Joined the platform team as staff engineer.\n",
  "memory/2026-03-09.md":
    "## Retain\r\n- W @Jonas: Moved to Lisbon last week.\r\n- B @ledger-sync: I bisected the flaky test to commit 9f2c1e0; @Priya is reverting it.\r\n- O @Jonas: Thinks the ledger-sync retries should be capped at 5.\r\n",
  "memory/2026-03-12.md":
    "# 12.3.\n\nLunch w/ Priya and Mara, talked about the offsite.\n\n## Retain\n- W @ledger-sync: The cutover is planned for Apr 2.\n- W @Mara: Starts parental leave from May 4.\n",
};

// The new day: a session digest that names Mara, Jonas and ledger-sync many times, and one fact about Priya only.
const DIGEST = [
  "# Sessions 2026-03-19",
  "",
  ...Array.from({ length: 26 }, (_, i) => {
    const hh = String(9 + Math.floor(i / 3)).padStart(2, "0");
    const lines = [
      `- **user** (${hh}:0${i % 10}): can you ask Mara whether the ledger-sync cutover still holds?`,
      `- **assistant** (${hh}:1${i % 10}): Jonas said ledger-sync looks fine; Mara wants a summary by Friday`,
      "- **user**: ok thx",
    ];
    return lines[i % 3]!;
  }),
  "",
  "Mara pinged again about ledger-sync (third time today...)",
  "",
].join("\n");
const NEW_DAY = "## Retain\n- W @Priya: Presented the new on-call handbook.\n";

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-splice-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

async function addDay(dir: string): Promise<void> {
  await writeFile(path.join(dir, "memory/2026-03-19.md"), NEW_DAY);
  await writeFile(path.join(dir, "memory/2026-03-19-sessions.md"), DIGEST);
}

/** A copy of the workspace without bank/ and .memory/, reflected in full. */
async function fullRun(dir: string): Promise<Map<string, string>> {
  const full = await mkdtemp(path.join(tmpdir(), "membank-splice-full-"));
  await cp(dir, full, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}bank`) && !src.includes(".memory"),
  });
  await reflect(await openWorkspace(full), { all: true, commit: false, now: NOW });
  return bankFiles(full);
}

describe("pages whose only news is a prose mention", () => {
  it("an incremental run writes the bytes of a full run", async () => {
    const dir = await workspace(LOGS);
    const ws = await openWorkspace(dir);
    await reflect(ws, { all: true, commit: false, now: new Date("2026-03-13T07:00:00Z") });
    const before = await readFile(path.join(dir, "bank/entities/Mara.md"), "utf8");
    await addDay(dir);
    const run = await reflect(ws, { since: "2026-03-19", commit: false, now: NOW });
    expect(run.mode).toBe("incremental");
    expect(run.pagesWritten).toEqual(
      expect.arrayContaining(["bank/entities/Jonas.md", "bank/entities/Mara.md", "bank/entities/ledger-sync.md"]),
    );
    const mara = await readFile(path.join(dir, "bank/entities/Mara.md"), "utf8");
    expect(before).not.toContain("Mentioned in");
    expect(mara).toMatch(/### Mentioned in \(\d+ lines with no fact\)/);
    expect(mara).toContain("Mara wants a summary by Friday");
    expect(mara).toMatch(/\n- … \d+ older\n/);
    expect(await bankFiles(dir)).toEqual(await fullRun(dir));
  });

  it("a second mention day replaces the block, and a page edited by hand keeps its edit", async () => {
    const dir = await workspace(LOGS);
    const ws = await openWorkspace(dir);
    await reflect(ws, { all: true, commit: false, now: new Date("2026-03-13T07:00:00Z") });
    await addDay(dir);
    await reflect(ws, { since: "2026-03-19", commit: false, now: new Date("2026-03-19T23:00:00Z") });
    // A person notes something inside Jonas's timeline; the next day names him again.
    const jonasPath = path.join(dir, "bank/entities/Jonas.md");
    const edited = (await readFile(jonasPath, "utf8")).replace(
      "### Mentioned in",
      "(ask him about Lisbon)\n\n### Mentioned in",
    );
    await writeFile(jonasPath, edited);
    await writeFile(
      path.join(dir, "memory/2026-03-20-sessions.md"),
      "- **user** (08:02): did Jonas reply?\n- **assistant** (08:03): not yet, Mara is chasing ledger-sync folks\n",
    );
    const run = await reflect(ws, { since: "2026-03-20", commit: false, now: NOW });
    expect(run.conflicts).toEqual([expect.objectContaining({ path: "bank/entities/Jonas.md", region: "facts" })]);
    expect(await readFile(jonasPath, "utf8")).toBe(edited);
    const mara = await readFile(path.join(dir, "bank/entities/Mara.md"), "utf8");
    expect(mara).toContain("Mara is chasing ledger-sync folks");
    const full = await fullRun(dir);
    const inc = await bankFiles(dir);
    for (const [rel, text] of full) if (rel !== "bank/entities/Jonas.md") expect(inc.get(rel), rel).toBe(text);
  });
});
