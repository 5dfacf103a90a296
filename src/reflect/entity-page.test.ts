import { describe, expect, it } from "vitest";
import { extractValidity } from "../retain/dates.js";
import type { Fact } from "../retain/types.js";
import { entityWorld } from "./entity-context.js";
import { type EntityContext, entityRelatedOf, entityState, entityTimeline, TIMELINE_MAX } from "./entity-page.js";
import { facetState } from "./facets.js";
import { scanProse } from "./prose.js";

const PAGE = "bank/entities/Mara.md";
let n = 0;
/** A fact as the parser makes it: validity from the text, relative to the log's date. */
const fact = (date: string, entities: string[], content: string, kind: Fact["kind"] = "world"): Fact => ({
  id: `f${++n}`,
  kind,
  entities,
  content,
  date,
  ...extractValidity(content, date),
  source: { path: `memory/${date}.md`, line: 5 + (n % 7) },
});
const ctx = (today: string, extra: Partial<EntityContext> = {}): EntityContext => ({
  today,
  core: [],
  mentions: [],
  maybeSame: [],
  known: new Map(),
  ...extra,
});

describe("current state of an entity", () => {
  it("a later 'contract extended' supersedes 'contract ends in March'", () => {
    const old = fact("2026-01-12", ["Mara"], "Her contract ends in March.");
    const now = fact("2026-03-03", ["Mara"], "Contract got extended to June, signed today.");
    const other = fact("2026-02-01", ["Mara"], "Loves the new espresso machine on floor 3.");
    const state = entityState(PAGE, "Mara", [now, other, old], ctx("2026-03-10"));
    const current = state.slice(state.indexOf("Current state:"));
    expect(current).toMatch(/- contract: 2026-03-03 — Contract got extended to June/);
    expect(current).toMatch(/ {2}- superseded: 2026-01-12 — Her contract ends in March\./);
    // The unrelated fact is no facet: it is among the latest, not superseded.
    expect(state).toMatch(/Latest:\n\n- 2026-02-01 — Loves the new espresso machine/);
    const timeline = entityTimeline(PAGE, "Mara", [old, other, now], ctx("2026-03-10"));
    expect(timeline).toMatch(/2026-01-12 — Her contract ends in March\. _\(.*superseded 2026-03-03\)_/);
    expect(timeline).not.toMatch(/Contract got extended.*superseded/);
  });

  it("a fix supersedes the bug report it names, not another bug", () => {
    const parser = fact("2026-04-01", ["warelay"], "Crash in the CSV parser when a row has 300 columns.");
    const login = fact("2026-04-02", ["warelay"], "Login page is broken on Safari again");
    const fixed = fact("2026-04-05", ["warelay"], "fixed the parser crash (wrapped the row reader)");
    const { supersededBy } = facetState([login, fixed, parser], ["warelay"]);
    expect(supersededBy.get(parser.id)?.id).toBe(fixed.id);
    expect(supersededBy.has(login.id)).toBe(false);
  });

  it("a moved date supersedes the planned one; same-day facts both stand", () => {
    const planned = fact("2026-03-02", ["ledger-sync"], "Cutover planned for Mar 20.");
    const moved = fact("2026-03-11", ["ledger-sync"], "cutover slipped to April 2 after the load test");
    const a = fact("2026-03-12", ["Ana"], "Relocated to Porto");
    const b = fact("2026-03-12", ["Ana"], "Lives near the river now");
    expect(facetState([planned, moved]).supersededBy.get(planned.id)?.id).toBe(moved.id);
    expect(facetState([a, b]).supersededBy.size).toBe(0);
  });

  it("a fact that names a launch or a cutover but no date is no schedule, and supersedes nothing", () => {
    const checklist = fact("2026-03-02", ["Mara"], "Wrote up the cutover checklist and shared it with the team");
    const risk = fact("2026-03-06", ["Mara"], "Flagged the rounding bug as the main risk for the cutover");
    const state = facetState([checklist, risk]);
    expect(state.supersededBy.size).toBe(0);
    expect(state.facet.has(checklist.id)).toBe(false);
    // With a date, or a word that moves one, it is the cutover's schedule.
    const dated = fact("2026-03-09", ["Mara"], "The cutover is set for March 31");
    const pushed = fact("2026-03-16", ["Mara"], "cutover pushed back again, finance wants another dry run");
    expect(facetState([checklist, dated, pushed]).supersededBy.get(dated.id)?.id).toBe(pushed.id);
  });

  it("shows the other subject of a shared fact, and upcoming vs past on the run's date", () => {
    const shared = fact("2026-03-02", ["Tomasz", "Mara"], "Moved his Friday 1:1 with @Mara to Thursday.", "experience");
    const trip = fact("2026-03-02", ["Mara"], "Off to Lisbon Mar 27–Apr 3 for the offsite.");
    const line = entityTimeline(PAGE, "Mara", [shared, trip], ctx("2026-03-05"));
    expect(line).toMatch(/Moved his Friday 1:1 .* _\(.*with @Tomasz\)_/);
    expect(line).toContain("2026-03-27 → 2026-04-03, upcoming");
    expect(entityState(PAGE, "Mara", [shared, trip], ctx("2026-03-05"))).toMatch(
      /Upcoming:\n\n- 2026-03-02 — Off to Lisbon/,
    );
    // Same facts, later run: the trip is past, nothing is upcoming.
    expect(entityTimeline(PAGE, "Mara", [shared, trip], ctx("2026-04-20"))).toContain("2026-03-27 → 2026-04-03, past");
    expect(entityState(PAGE, "Mara", [shared, trip], ctx("2026-04-20"))).not.toContain("Upcoming:");
  });

  it("caps the timeline to the newest facts and says how many older ones there are", () => {
    const facts = Array.from({ length: TIMELINE_MAX + 7 }, (_, i) =>
      fact(
        `2020-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
        ["Mara"],
        `note ${i}`,
      ),
    );
    const body = entityTimeline(PAGE, "Mara", facts, ctx("2026-01-01"));
    expect(body.split("\n").filter((l) => l.startsWith("- 2020-")).length).toBe(TIMELINE_MAX);
    expect(body).toMatch(/- … 7 older facts \(2020-\d\d-\d\d to 2020-\d\d-\d\d\) in the logs/);
    expect(entityTimeline(PAGE, "Mara", [...facts].reverse(), ctx("2026-01-01"))).toBe(body);
  });

  it("relates entities named in a fact's text without @", () => {
    const known = new Map([
      ["ledger-sync", "ledger-sync"],
      ["tomasz", "Tomasz"],
      ["mara", "Mara"],
    ]);
    const facts = [
      fact("2026-03-02", ["Mara"], "Wants the Ledger-Sync cutover before Easter."),
      fact("2026-03-04", ["Mara", "Tomasz"], "Pairing on the ledger-sync runbook"),
    ];
    expect(entityRelatedOf("Mara", facts, known)).toBe(
      "- [ledger-sync](ledger-sync.md) — 2 shared facts\n- [Tomasz](Tomasz.md) — 1 shared fact\n",
    );
  });
});

describe("alias suggestions", () => {
  const base = {
    otherNames: [],
    prose: [],
    aliases: new Map<string, string>(),
    today: "2026-03-30",
  };
  it("suggests Zoe/Zoë and a MEMORY.md alias (Jo = Jonas) on both pages, never merging", () => {
    const facts = [
      fact("2026-03-01", ["Zoe"], "Reviewed the mockups."),
      fact("2026-03-02", ["Zoë"], "Out sick until Monday."),
      fact("2026-03-03", ["Jo"], "Shipped the dashboard."),
      fact("2026-03-04", ["Jonas"], "Hiring two analysts."),
      fact("2026-03-04", ["Joan"], "New in finance."),
    ];
    const world = entityWorld({
      ...base,
      facts,
      core: {
        path: "MEMORY.md",
        text: "# Core\n\n- Jonas (everyone calls him Jo) runs the data team.\n- Joan is in finance.\n",
      },
    });
    expect(world.suggestions).toEqual([
      '@Jo and @Jonas may be one entity (MEMORY.md:3 says so ("Jonas (everyone calls him Jo) runs the data team.")): add an alias to merge their pages',
      "@Zoe and @Zoë may be one entity (the same name but for accents): add an alias to merge their pages",
    ]);
    expect(world.context("Zoë", []).maybeSame.map((m) => m.name)).toEqual(["Zoe"]);
    expect(world.context("Jonas", []).maybeSame.map((m) => m.name)).toEqual(["Jo"]);
    // Joan is no one else: a shared prefix alone is no alias.
    expect(world.context("Joan", []).maybeSame).toEqual([]);
    expect(world.context("Jonas", []).core.map((c) => c.line)).toEqual([3]);
    expect(world.proseOnly).toEqual([]);
  });

  it("an alias cue ties the two names it stands between, not a name of the line's next sentence", () => {
    const facts = [
      fact("2026-03-01", ["Bartholomew"], "Fixed the lathe."),
      fact("2026-03-02", ["Barty"], "Off on Friday."),
      fact("2026-03-03", ["Ngaio"], "Ordered the steel."),
    ];
    const world = entityWorld({
      ...base,
      facts,
      core: {
        path: "MEMORY.md",
        text: "# Core\n\n- Bartholomew Quince, the welder, goes by Barty. Ngaio runs purchasing.\n",
      },
    });
    expect(world.context("Barty", []).maybeSame.map((m) => m.name)).toEqual(["Bartholomew"]);
    expect(world.context("Ngaio", []).maybeSame).toEqual([]);
  });

  it("a nickname at a MEMORY.md line's start ties the first name the logs use, not a place's first word", () => {
    const log = (date: string, text: string) => ({ path: `memory/${date}.md`, date, lines: scanProse(text) });
    const world = entityWorld({
      ...base,
      facts: [],
      prose: [
        log("2026-03-01", "Bex walked home with me.\nRang Fell Garage, Kev says Thursday."),
        log(
          "2026-03-02",
          "Her mum still calls her Rebecca. Bex hates it.\nDropped the van at Fell Garage, Kev lent me a car.",
        ),
        log("2026-03-03", "Bex and Rebecca's mum came to the match.\nKev rang back about the clutch."),
      ],
      core: { path: "MEMORY.md", text: "# Core\n\n- Rebecca Shaw (Bex), best friend.\n- Garage: Fell Garage (Kev).\n" },
    });
    // One page for Bex, none for Rebecca; the garage keeps its own ("Fell" is never the nickname's).
    expect(world.proseOnly).toContain("Bex");
    expect(world.proseOnly).not.toContain("Rebecca");
    expect(world.proseOnly.filter((n) => n.startsWith("Fell"))).toHaveLength(1);
  });
});
