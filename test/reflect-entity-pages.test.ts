// Entity pages on natural writing through the CLI (issue 10 items 4 and 6): one page per
// entity whatever its case or Unicode form, alias suggestions without merging, and pages
// for the people of a workspace of raw chat logs (no Retain section anywhere).
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bankFiles, git, membank } from "./reflect-support.js";

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-entities-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: logs");
  return dir;
}

const pages = async (dir: string) => (await readdir(path.join(dir, "bank/entities"))).sort();

describe("one page per entity", () => {
  it("files @mara/@Mara/@MARA and NFC/NFD Zoë on one page each, and only suggests Zoe = Zoë", async () => {
    const dir = await workspace({
      "memory/2026-03-02.md": "## Retain\n- W @Mara: Her contract ends in March.\n- W @Zoë: Joined the design guild.\n",
      "memory/2026-03-05.md": "## Retain\n- W @mara: Back from Lisbon\n- B @MARA: I sent her the draft.\n",
      // NFD: "Zoe" + combining diaeresis, as macOS file names and some keyboards give it.
      "memory/2026-03-09.md": "## Retain\n- W @Zoe\u0308: Runs the Thursday crit.\n- W @Zoe: New intern on support.\n",
    });
    const run = await membank("reflect", "--workspace", dir);
    expect(run.code, run.stderr).toBe(0);
    const names = await pages(dir);
    expect(names.filter((n) => n.toLowerCase() === "mara.md")).toEqual(["Mara.md"]);
    expect(names.filter((n) => n.normalize("NFC") === "Zoë.md")).toHaveLength(1);
    expect(names).toContain("Zoe.md");
    const mara = await readFile(path.join(dir, "bank/entities/Mara.md"), "utf8");
    expect(mara).toContain("Back from Lisbon");
    expect(mara).toContain("I sent her the draft.");
    const zoe = await readFile(path.join(dir, "bank/entities/Zoe.md"), "utf8");
    const zoeUml = await readFile(
      path.join(dir, "bank/entities", names.find((n) => n.startsWith("Zo") && n !== "Zoe.md")!),
      "utf8",
    );
    expect(zoeUml).toContain("Runs the Thursday crit.");
    expect(zoeUml).toContain("Joined the design guild.");
    // Suggested on both pages, never merged.
    expect(zoe).toMatch(/Maybe the same as \(not merged\):\n\n- @Zoë — the same name but for accents/);
    expect(zoe).not.toContain("Thursday crit");
    expect(zoeUml).toMatch(/- @Zoe — the same name but for accents/);
    const json = await membank("reflect", "--workspace", dir, "--json");
    expect(JSON.parse(json.stdout).aliasSuggestions).toEqual([
      "@Zoe and @Zoë may be one entity (the same name but for accents): add an alias to merge their pages",
    ]);
  });
});

// Raw chat logs the way an agent's transcript digests look: speakers, times, asides.
const RAW: Record<string, string> = {
  "MEMORY.md":
    "# About me\n\n- Works with Kasia Nowak on the billing rewrite.\n- Ines is my sister; she lives in Porto.\n",
  "memory/2026-05-04.md":
    "# Mon 4 May\n\n- **Mara** (09:58): morning! standup moved to 10:30\n- **Tomasz** (10:02): ok\n- **Mara** (10:03): also the Grafana board is red again\n\nToday was slow. Booked the dentist.\n",
  "memory/2026-05-05.md":
    "Tomasz: can you look at the invoice export\nme: on it\nTomasz: thanks!!\n\nLunch with Kasia, she thinks the rewrite slips to June.\n",
  "memory/2026-05-07.md":
    "## 14:10\n\n[14:10] Mara: pushed the hotfix, Grafana is green\n[14:12] Olek: nice\n\nBooked flights for the offsite. Called Ines in the evening.\n",
  "memory/2026-05-08.md":
    "random notes\n\n- Today: nothing much\n- kasia sent the billing spec (finally)\n- Shipped the export fix. Tomasz happy.\n",
  "memory/2026-05-11.md":
    "# 11.5.\n\n**Olek:** are we still on for friday?\n**Mara:** yes, 6pm @Tapas-Bar\n\nShipped nothing today. Monday blues.\n",
  "memory/2026-05-12.md": "Quick one: Mara asked about the export again. Booked a room for Thursday.\n",
};

describe("a workspace of raw logs", () => {
  it("gets pages for the people who recur in the prose, none for sentence starters, with dated links", async () => {
    const dir = await workspace(RAW);
    const run = await membank("reflect", "--workspace", dir);
    expect(run.code, run.stderr).toBe(0);
    const names = await pages(dir);
    // Speakers on several days, a MEMORY.md name seen once, an @mention, a tool named on two days.
    for (const who of ["Mara.md", "Tomasz.md", "Olek.md", "Kasia.md", "Ines.md", "Tapas-Bar.md", "Grafana.md"])
      expect(names).toContain(who);
    for (const word of ["Today", "Booked", "Shipped", "Lunch", "Quick", "Monday", "Called", "Works"]) {
      expect(names).not.toContain(`${word}.md`);
    }
    const mara = await readFile(path.join(dir, "bank/entities/Mara.md"), "utf8");
    expect(mara).toContain("@Mara: no facts yet; named on 5 lines of 4 logs, first 2026-05-04, last 2026-05-12.");
    expect(mara).toMatch(
      /- 2026-05-12 — Quick one: Mara asked about the export again\. .*\(\[memory\/2026-05-12\.md#L1\]\(\.\.\/\.\.\/memory\/2026-05-12\.md#L1\)\)/,
    );
    expect(mara.indexOf("2026-05-12 —")).toBeLessThan(mara.indexOf("2026-05-04 —"));
    const kasia = await readFile(path.join(dir, "bank/entities/Kasia.md"), "utf8");
    expect(kasia).toContain("Works with Kasia Nowak on the billing rewrite. ([MEMORY.md#L3](../../MEMORY.md#L3))");
    expect(kasia).toContain("Lunch with Kasia, she thinks the rewrite slips to June.");
    // A second run changes nothing and commits nothing.
    const head = git(dir, "rev-parse", "HEAD");
    const before = await bankFiles(dir);
    expect((await membank("reflect", "--workspace", dir)).code).toBe(0);
    expect(await bankFiles(dir)).toEqual(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  });

  it("an incremental run that adds a day writes the same pages as a full run", async () => {
    const { "memory/2026-05-12.md": last, ...first } = RAW;
    const inc = await workspace(first);
    expect((await membank("reflect", "--workspace", inc)).code).toBe(0);
    await writeFile(path.join(inc, "memory/2026-05-12.md"), last!);
    // Olek shows up once more, as a speaker: his page must follow in the incremental run.
    await writeFile(path.join(inc, "memory/2026-05-12-sessions.md"), "- **Olek** (18:20): running late\n");
    expect((await membank("reflect", "--workspace", inc, "--since", "2026-05-12")).code).toBe(0);
    const full = await mkdtemp(path.join(tmpdir(), "membank-entities-full-"));
    await cp(inc, full, {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}bank`) && !src.includes(".memory"),
    });
    expect((await membank("reflect", "--workspace", full, "--no-commit")).code).toBe(0);
    expect(await bankFiles(inc)).toEqual(await bankFiles(full));
  });
});
