// Where nightly-after-nightly and one full run parted: names in the prose whose reading
// changes as more logs come in. Each case lives its logs night by night, then compares the
// pages with one full run over the same logs.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { filesOf, type Night, nightAfter, runScenario } from "./support/differential.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const night = (day: string, text: string, extra: Record<string, string> = {}): Night => ({
  now: nightAfter(day),
  change: { [`memory/${day}.md`]: text, ...extra },
});

describe("prose names read the same night by night as in one full run", () => {
  it("a nickname MEMORY.md gives ties the long name to the page the short one already has", async () => {
    // Kat gets a page from the prose first; "Katherine" turns up weeks later. MEMORY.md says
    // they are one person, so her line belongs on Kat's page, as a full run files it.
    const nights = [
      night("2026-05-04", "Ran the canal loop w/ Kat, 8k in the rain. legs dead.\n", {
        "MEMORY.md": "# Me\n\n- My running buddy is Katherine Moss (Kat), we do Tuesdays.\n",
      }),
      night("2026-05-06", "tempo run. Kat sent me her marathon plan, it's brutal\n"),
      night("2026-05-11", "- physio at 4\n- Kat says the Rotterdam entry opens Friday\n"),
      night("2026-05-19", "intervals cancelled, Katherine's knee is acting up again.\n"),
      night("2026-05-20", "quiet day, meal prep\n"),
    ];
    const out = await runScenario(dirs, { name: "kat", nights, questions: ["Kat knee"] });
    expect(out.differences).toEqual([]);
    expect(out.leftovers).toEqual([]);
    const lived = out.lived;
    const kat = filesOf(lived, ["bank/entities"]);
    expect([...kat.keys()].some((p) => /Katherine/.test(p))).toBe(false);
    expect(kat.get("bank/entities/Kat.md")).toContain("memory/2026-05-19.md#L1");
  }, 120_000);

  it("a line an old night filed under a name of its own moves when later logs read it otherwise", async () => {
    // "Oskar Lind" first stands as one name (Oskar never alone yet); once Oskar is named on his
    // own in later logs, the first line is one of Oskar's, on an old log the window never re-reads.
    const nights = [
      night("2026-08-03", "Met the new neighbour, Oskar Lind, he fixes bikes in his garage.\n"),
      night("2026-08-05", "Borrowed a pump from Oskar Lind. Still need to return it\n"),
      night("2026-08-10", "- weeded the front bed\n- gave the pump back, Oskar was out so left it by his door\n"),
      night("2026-08-12", "asked Oskar about the wheel truing thing, he'll show me sat\n"),
      night("2026-08-16", "Saturday: Oskar showed me how to true a wheel. took ages but it's straight now\n"),
      night("2026-08-17", "lazy sunday\n"),
    ];
    const out = await runScenario(dirs, { name: "oskar", nights, questions: ["who fixes bikes"] });
    expect(out.differences).toEqual([]);
    const lived = filesOf(out.lived, ["bank/entities"]);
    expect(lived.get("bank/entities/Oskar.md")).toContain("memory/2026-08-03.md#L1");
  }, 120_000);

  it("a name the prose wrote first names the page when a later log tags it in lower case", async () => {
    // "Priya" gets a page from the prose; days later the Retain section tags @priya, then
    // @PRIYA. One person, one page, the first spelling: Priya.md, night by night as in a full
    // run (two pages Priya.md and priya.md are one file on macOS and Windows: one clobbers the other).
    const nights = [
      night(
        "2026-03-02",
        "Priya came round after lunch w/ tile samples. Priya reckons the blue ones are way too loud\n",
      ),
      night("2026-03-03", "sanding all evening, ugh. Priya dropped the grout off on her way home\n"),
      night("2026-03-04", "Priya is adamant about herringbone for the hallway, not sure I agree\n"),
      night(
        "2026-03-05",
        "## Retain\n- O(c=0.8) @priya: prefers matte tiles to glossy ones in the bathroom.\n- W @priya: works Saturdays at the hardware place on Elm St.\n",
      ),
      night("2026-03-06", "## Retain\n- O(c=0.7) @PRIYA: thinks the grout should be grey, not white.\n"),
    ];
    const out = await runScenario(dirs, { name: "priya", nights, questions: ["Priya tiles", "grout"] });
    expect(out.differences).toEqual([]);
    expect(out.spellingOnly).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    const pages = [...filesOf(out.lived, ["bank/entities"]).keys()];
    expect(pages).toEqual(["bank/entities/Priya.md"]);
    expect(filesOf(out.lived, ["bank"]).get("bank/opinions.md")).toContain("- entities: @Priya\n");
  }, 120_000);

  it("a prose-only name keeps the spelling it was first written with when another one takes over", async () => {
    // "LeAnn" twice makes her page; afterwards the logs mostly write "Leann". Night by night the
    // page is LeAnn.md, so one full run must name it so too, not after the spelling used most.
    const nights = [
      night("2026-06-01", "dinner at LeAnn and Marco's, way too much pasta\n"),
      night("2026-06-02", "walked the dogs with LeAnn before work\n"),
      night("2026-06-04", "met Leann for lunch, she's thinking of quitting\n"),
      night("2026-06-06", "long call with Leann about the job offer\n"),
      night("2026-06-07", "helped Leann with her CV, sent it off tonight\n"),
    ];
    const out = await runScenario(dirs, { name: "leann", nights, questions: ["Leann job offer"] });
    expect([...out.differences, ...out.spellingOnly]).toEqual([]);
    expect([...filesOf(out.lived, ["bank/entities"]).keys()]).toContain("bank/entities/LeAnn.md");
  }, 120_000);

  it("a name an opinion's text gives is spelled as the facts spell it: one page, not PRIYA.md and Priya.md", async () => {
    // @PRIYA is tagged first (her page is PRIYA.md); Noor's opinion names "Priya" in its text.
    // That opinion belongs on PRIYA.md, night by night as in a full run, never on a second page.
    const nights = [
      night("2026-03-30", "## Retain\n- B @PRIYA: I lent her my spare bike lock.\n"),
      night("2026-03-31", "## Retain\n- W @Priya: bike nicked from the station rack again.\n"),
      night("2026-04-04", "## Retain\n- O(c=0.6) @Noor: Priya reckons bambi beats lme4 once it installs.\n"),
      night("2026-04-05", "slow day, mostly emails\n"),
    ];
    const out = await runScenario(dirs, { name: "priya-op", nights, questions: ["bambi"] });
    expect([...out.differences, ...out.spellingOnly, ...out.fullInPlace]).toEqual([]);
    const pages = [...filesOf(out.lived, ["bank/entities"]).keys()].filter((p) => /priya/i.test(p));
    expect(pages).toEqual(["bank/entities/PRIYA.md"]);
  }, 120_000);
});
