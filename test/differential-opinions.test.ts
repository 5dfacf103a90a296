// The opinions page night by night as in one full run: an opinion from a log written late
// (a back-dated day) takes the place a full run gives it, not the end of the page.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { filesOf, type Night, nightAfter, runScenario } from "./support/differential.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("opinions page order", () => {
  it("an opinion of a back-dated log lands among the opinions by the day it was stated", async () => {
    const nights: Night[] = [
      {
        now: nightAfter("2026-09-14"),
        change: {
          "memory/2026-09-14.md":
            "# Mon\n\nlong planning call\n\n## Retain\n- O(c=0.7) @Ines: the Q4 roadmap is too crowded to ship the export API\n",
        },
      },
      {
        now: nightAfter("2026-09-17"),
        change: {
          "memory/2026-09-17.md":
            "## Retain\n- W @Ines: moved the export API to January\n- O(c=0.6) @Bilal: pairing on reviews beats async review for the new hires\n",
        },
      },
      {
        // Tuesday's notes, typed up on Friday.
        now: nightAfter("2026-09-18"),
        change: {
          "memory/2026-09-15.md":
            "notes from tue (late)\n\n## Retain\n- O(c=0.8) @Marek: the on-call rota needs a second person at weekends\n",
          "memory/2026-09-18.md": "quiet friday\n",
        },
      },
    ];
    const out = await runScenario(dirs, { name: "backdated", nights, questions: ["on-call rota weekends"] });
    expect(out.differences).toEqual([]);
    const page = filesOf(out.lived, ["bank/opinions.md"]).get("bank/opinions.md")!;
    const at = (words: string) => page.indexOf(words);
    expect(at("Q4 roadmap")).toBeLessThan(at("on-call rota"));
    expect(at("on-call rota")).toBeLessThan(at("pairing on reviews"));
  }, 120_000);
});
