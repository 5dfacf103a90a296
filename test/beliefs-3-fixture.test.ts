// fixtures/beliefs-3: an eng lead's notes over four months in several styles (terse bullets,
// rambling prose with hedges, 1:1 notes reporting other people's views without tagging
// them, the assistant's own voice). Expected outcomes were written down before the first run (fixtures/beliefs-3/EXPECTED.md):
// beliefs reported for untagged people are theirs, praise of what was blamed ("unfair" ->
// "fine now") is a change though no "not" is written, a switch only talked about is judged
// by its words, and plans and questions make no opinion.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import {
  confidence,
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-3", "2026-05-27T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);
const entities = (block: string) => entitiesLine(block).split(", ");

describe("fixtures/beliefs-3 after one reflect", () => {
  it("keeps one opinion per belief, and none for plans or questions", () => {
    const titles = fixture.blocks.map((b) => b.split("\n")[0]!);
    expect(titles).toHaveLength(12);
    for (const notOwn of [
      "switching off Linear",
      "no regrets on Linear",
      "the rota is fine now",
      "unfair again",
      "going to try a rota",
      "is the Harbor launch",
      "is Vercel even worth it",
      "Rosa keeps saying",
      "Rosa admitted",
      "Dev still thinks",
      "Dev says he was wrong",
      "pretty smooth",
      "felt calm this time",
      "Rosa now says",
      "scratch that about the rota",
      "I could be wrong",
    ]) {
      expect(
        titles.filter((t) => t.includes(notOwn)),
        notOwn,
      ).toEqual([]);
    }
  });

  it("gives a belief reported for a person nobody tagged to that person, not to the writer", () => {
    expect(entities(opinion("my manager Rosa thinks"))).toContain("@Rosa");
    expect(entities(opinion("Dev said on the call"))).toContain("@Dev");
    // Tomás's doubt about the migration is his, not evidence on Rosa's belief (another holder).
    expect(entities(opinion("Tomás mentioned"))).toContain("@Tomás");
    expect(row(opinion("my manager Rosa thinks"), "Tomás mentioned")).toBeUndefined();
    // Named after the belief: "..., says Rosa".
    expect(entities(opinion("the hiring freeze will be lifted in June"))).toContain("@Rosa");
    // Kit's own question about Vercel is not doubt in Dev's belief.
    expect(row(opinion("Dev said on the call"), "is Vercel even worth it")).toBeUndefined();
  });

  it("follows a reported belief as its holder restates it and then takes it back", () => {
    const rosa = opinion("my manager Rosa thinks");
    expect(row(rosa, "Rosa keeps saying the migration was the wrong call")).toMatch(/ supports /);
    expect(row(rosa, "Rosa admitted the migration went smoother")).toMatch(/ contradicts /);
    expect(row(rosa, "Rosa now says the migration was the right move")).toMatch(/ contradicts /);
    expect(confidence(rosa)).toBeLessThan(0.6);
    const dev = opinion("Dev said on the call");
    expect(row(dev, "Dev still thinks Vercel costs way too much")).toMatch(/ supports /);
    expect(row(dev, "Dev says he was wrong about Vercel")).toMatch(/ contradicts /);
    expect(confidence(dev)).toBeLessThan(0.6);
  });

  it("reads praise of what was blamed as a change, and blame again as support", () => {
    const rota = opinion("the on-call rota is unfair");
    expect(row(rota, "the rota is fine now")).toMatch(/ contradicts .*"fine" against "unfair"/);
    expect(row(rota, "unfair again once Austin leaves")).toMatch(/ supports /);
    expect(row(rota, "scratch that about the rota")).toMatch(/ contradicts /);
    expect(row(opinion("release weeks are stressful"), "felt calm this time")).toMatch(/ contradicts /);
    const ds = opinion("design system v2 feels clunky");
    expect(row(ds, "pretty smooth since the v2.1 cleanup")).toMatch(/ contradicts /);
    expect(confidence(ds)).toBeLessThan(0.55);
  });

  it("reads 'switching off Linear would be a step back' as holding the belief, a hedge as lowering it a little", () => {
    const linear = opinion("@Linear is the best tracker");
    expect(row(linear, "switching off Linear would be a step back")).toMatch(/ supports /);
    expect(row(linear, "no regrets on Linear")).toMatch(/ supports /);
    expect(row(linear, "I could be wrong, but Linear is still the right tool")).toMatch(/ contradicts /);
    expect(confidence(linear)).toBeGreaterThan(0.7);
    expect(linear).not.toMatch(/- status: reversed/);
    // About a part of Linear (its pricing): a belief of its own, not evidence on this one.
    expect(row(linear, "Linear's pricing")).toBeUndefined();
    opinion("Linear's pricing for guest seats");
  });

  it("lowers the launch belief with a doubting question, a hedge, the slip and the reversal, one step each", () => {
    const launch = opinion("the April 14 launch of @Harbor");
    expect(row(launch, "is the Harbor launch really going to make April?")).toMatch(/ contradicts /);
    expect(row(launch, "probably still doable, but it's getting tight")).toMatch(/ contradicts /);
    expect(row(launch, "launch moved to May 5")).toMatch(/ contradicts /);
    expect(row(launch, "April was never realistic")).toMatch(/ contradicts /);
    expect(launch).toMatch(/- status: (weakened|reversed)/);
    expect(confidence(launch)).toBeLessThan(0.6);
  });

  it("changes nothing on a second run: a restatement already applied is not handed to the next best opinion", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2026-05-27T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });

  it("keeps the restated beliefs held: pairing on incidents, Amara's design review", () => {
    expect(row(opinion("pairing on incidents makes"), "pairing on incidents is worth it")).toMatch(/ supports /);
    expect(row(opinion("@Amara believes design review"), "@Amara still feels design review")).toMatch(/ supports /);
  });
});
