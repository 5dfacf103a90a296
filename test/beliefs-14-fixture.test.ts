// fixtures/beliefs-14: a terse, sceptical engineer's beliefs (numbers and probabilities for
// confidence, "per X", "X claims", dry sarcasm, a reversal, a hedge, forecasts), held out after
// beliefs-13's fixes (fixtures/beliefs-14/EXPECTED.md).
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
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-14", "2027-04-03T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs-14 after one reflect", () => {
  it("keeps one opinion per belief, none for a question, sarcasm, a reversal, a hedge or a restatement", () => {
    const starts = [
      "Bazel is overkill for a repo this size",
      "the build server is unreliable",
      "Chen et al. 2026 won't replicate",
      "Priya's preprocessing pipeline is solid",
      "Dmitri claims the flaky integration tests",
      "per Sofia, the new GPU nodes",
      "Polars is faster than pandas",
      "pre-registration is worth the overhead",
      "the reformulated lysis buffer improves yield",
      "the new sequencer vendor's error rates",
    ];
    for (const start of starts) opinion(start);
    const others = fixture.blocks.filter((b) => !starts.some((s) => b.startsWith(s))).map((b) => b.split("\n")[0]);
    expect(others).toEqual([]);
  });

  it("reads a restatement in other words, dry sarcasm and 'priors unchanged' as support", () => {
    const bazel = opinion("Bazel is overkill for a repo this size");
    expect(row(bazel, "Bazel is more trouble than it's worth")).toMatch(/ supports /);
    expect(row(bazel, "does the remote cache fix")).toBeUndefined();
    expect(confidence(bazel)).toBeGreaterThan(0.7);
    const build = opinion("the build server is unreliable");
    expect(row(build, "another stellar week for the build server")).toMatch(/ supports /);
    expect(confidence(build)).toBeGreaterThan(0.8);
    const prereg = opinion("pre-registration is worth the overhead");
    expect(row(prereg, "priors unchanged")).toMatch(/ supports /);
    expect(confidence(prereg)).toBeGreaterThan(0.65);
  });

  it("reads 'updating hard against' as a reversal and a hedged restatement as weak evidence", () => {
    const polars = opinion("Polars is faster than pandas");
    expect(row(polars, "updating hard against Polars")).toMatch(/ contradicts /);
    expect(confidence(polars)).toBeLessThan(0.75);
    const priya = opinion("Priya's preprocessing pipeline is solid");
    expect(strength(row(priya, "weak evidence that Priya's pipeline is solid"))).toBeLessThan(0.9);
  });

  it("gives 'X claims' and 'per X' to X, and X's change of mind", () => {
    const flaky = opinion("Dmitri claims the flaky integration tests");
    expect(entitiesLine(flaky)).toMatch(/@Dmitri/);
    expect(row(flaky, "Dmitri now thinks")).toMatch(/ contradicts /);
    const gpu = opinion("per Sofia, the new GPU nodes");
    expect(entitiesLine(gpu)).toMatch(/@Sofia/);
  });

  it("answers forecasts and claims by what happened", () => {
    const chen = opinion("Chen et al. 2026 won't replicate");
    expect(row(chen, "our rerun of Chen et al. 2026 replicated")).toMatch(/ contradicts /);
    expect(row(chen, "read Chen et al. 2026 twice")).toBeUndefined();
    expect(confidence(chen)).toBeLessThan(0.6);
    const gpu = opinion("per Sofia, the new GPU nodes");
    expect(row(gpu, "the new GPU nodes were delivered and racked")).toMatch(/ supports /);
    expect(confidence(gpu)).toBeGreaterThan(0.6);
    const buffer = opinion("the reformulated lysis buffer improves yield");
    expect(row(buffer, "showed no yield improvement")).toMatch(/ contradicts /);
    expect(confidence(buffer)).toBeLessThan(0.55);
  });

  it("changes nothing on a second run", async () => {
    const before = await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8");
    await reflect(await openWorkspace(fixture.dir), { now: new Date("2027-04-03T13:00:00Z") });
    expect(await readFile(path.join(fixture.dir, "bank/opinions.md"), "utf8")).toBe(before);
  });
});
