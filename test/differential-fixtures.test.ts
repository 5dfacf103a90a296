// Night after night equals one full run, on the fixtures' logs as people wrote them.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureNights, runScenario } from "./support/differential.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];
afterAll(() => {
  // DIFF_KEEP=1 keeps the workspaces to look at a difference.
  if (process.env.DIFF_KEEP) console.log(dirs.join("\n"));
  else for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FIXTURES = (
  process.env.DIFF_FIXTURES ??
  "natural,messy,freelance,household,beliefs,beliefs-3,beliefs-4,opinions-2,landlord,bikeshop,nightshift,letters,touchline,handover,choir,mocks,sparks"
).split(",");

// Pages an earlier night made from names the later logs show to be something else ("Denise
// Park" is Denise, "Cardiff Heat" a shop's name read as one;
// "Lowri Bevan covered the piano" is Lowri once later logs name her alone; "Rebecca" is MEMORY.md's
// "Rebecca Shaw (Bex)", named by the spelling the logs use more, which is "Bex" only after 01-10).
const LEFTOVERS: Record<string, string[]> = {
  choir: ["bank/entities/Lowri-Bevan.md"],
  mocks: ["bank/entities/Freya-Lloyd.md", "bank/entities/Rebecca.md"],
  landlord: ["bank/entities/Cardiff-Heat.md"],
  nightshift: ["bank/entities/Denise-Park.md"],
};

describe("the nightly, night after night, equals one full run (fixtures)", () => {
  for (const name of FIXTURES) {
    it(name, async () => {
      const out = await runScenario(dirs, {
        name,
        nights: fixtureNights(path.join(ROOT, "fixtures", name)),
        questions: ["what changed last week", "who is it about", "what do I think"],
      });
      expect(out.differences).toEqual([]);
      expect(out.leftovers).toEqual(LEFTOVERS[name] ?? []);
      expect(out.secondRun).toEqual([]);
    }, 300_000);
  }
});
