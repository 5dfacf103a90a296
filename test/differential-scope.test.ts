// What an incremental night must re-render beyond the window's facts: pages whose text
// depends on which names are entities. A name that becomes an entity tonight shows on the
// pages of OLD facts that name it without `@` (related) and of the names MEMORY.md puts on
// its line ("maybe the same as").
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { filesOf, type Night, nightAfter, runScenario } from "./support/differential.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("an incremental night re-renders pages a new entity changes", () => {
  it("an old fact naming it in plain text lists it as related", async () => {
    const nights: Night[] = [
      {
        now: nightAfter("2026-10-05"),
        change: {
          "memory/2026-10-05.md":
            "## Retain\n- O(c=0.3) @Priya: doubts the ledger-sync rewrite ships this quarter, too many open edge cases\n",
        },
      },
      {
        now: nightAfter("2026-10-08"),
        change: { "memory/2026-10-08.md": "## Retain\n- W @ledger-sync: cutover pencilled in for the 14th\n" },
      },
    ];
    const out = await runScenario(dirs, { name: "related", nights, questions: ["ledger-sync cutover"] });
    expect(out.differences).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    expect(filesOf(out.lived, ["bank/entities/Priya.md"]).get("bank/entities/Priya.md")).toContain(
      "[ledger-sync](ledger-sync.md)",
    );
  }, 120_000);

  it("MEMORY.md's line that says two names may be one person suggests it on the older page", async () => {
    const nights: Night[] = [
      {
        now: nightAfter("2026-10-05"),
        change: {
          "MEMORY.md": "# Me\n\n- The crew: Hana on design, and Ole, who goes by Rui in the ops channel.\n",
          "memory/2026-10-05.md": "## Retain\n- W @Ole: picked up the van keys for the Lisbon job\n",
        },
      },
      {
        now: nightAfter("2026-10-09"),
        change: { "memory/2026-10-09.md": "## Retain\n- W @Rui: rebooted the NAS, backups green again\n" },
      },
    ];
    const out = await runScenario(dirs, { name: "maybe-same", nights, questions: ["who has the van keys"] });
    expect(out.differences).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    expect(filesOf(out.lived, ["bank/entities/Ole.md"]).get("bank/entities/Ole.md")).toContain("- @Rui — MEMORY.md:3");
  }, 120_000);

  it("a name that comes from an opinion's reported speaker counts as related on older pages", async () => {
    const nights: Night[] = [
      {
        now: nightAfter("2026-11-02"),
        change: {
          "memory/2026-11-02.md":
            "## Retain\n- O(c=0.7) @Wren: the Figma dev mode seats pay for themselves in handoff time\n",
        },
      },
      {
        now: nightAfter("2026-11-06"),
        change: {
          "memory/2026-11-06.md":
            "## Retain\n- O @Sol: Dev says he was wrong about the hosting plan, it's cheap enough now\n",
        },
      },
    ];
    const out = await runScenario(dirs, { name: "reported", nights, questions: ["figma dev mode"] });
    expect(out.fullInPlace).toEqual([]);
    expect(out.differences).toEqual([]);
  }, 120_000);

  it("a page that differs from an older one only by accents is suggested on the older page", async () => {
    const nights: Night[] = [
      {
        now: nightAfter("2026-11-02"),
        change: { "memory/2026-11-02.md": "## Retain\n- W @Zoe: booked the plasterer for the back bedroom\n" },
      },
      {
        now: nightAfter("2026-11-04"),
        change: { "memory/2026-11-04.md": "## Retain\n- W @Zoë: plaster samples came, the pale one wins\n" },
      },
    ];
    const out = await runScenario(dirs, { name: "accents", nights, questions: ["plaster"] });
    expect(out.fullInPlace).toEqual([]);
    expect(out.differences).toEqual([]);
    expect(filesOf(out.lived, ["bank/entities/Zoe.md"]).get("bank/entities/Zoe.md")).toContain(
      "- @Zoë — the same name",
    );
  }, 120_000);
});
