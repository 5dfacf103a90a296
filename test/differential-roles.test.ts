// A belief held by someone named by kin or role ("mum reckons ...", "the chef says ...") is the
// person MEMORY.md ties that word to (role-ties.ts): night by night as in one full run, also when
// the tie is written on a later night than the belief.
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

const LOGS: [string, string][] = [
  [
    "2026-03-02",
    "quiet monday, mum in for a moan\n\n## Retain\n- O(c=0.6) @Sam: mum reckons opening on sundays isnt worth it, the wages eat it all\n",
  ],
  ["2026-03-04", "beans came in\n\n## Retain\n- O(c=0.6) @Sam: our chef says the spring menu is going to be a hit\n"],
  ["2026-03-08", "dead sunday\n\n## Retain\n- @Sam: mum still says sundays are a waste of time\n"],
  ["2026-03-11", "menu launched\n\n## Retain\n- @Sam: the chef has come round on the spring menu pricing\n"],
];
const MEMORY = "# me\n\n- Mum (Rita) does the till at weekends.\n- Kemal is the chef, here since we opened.\n";

describe("a kin or role holder is the person MEMORY.md says, night by night", () => {
  it("with the tie from the first night", async () => {
    const nights = LOGS.map(([day, text], i) => night(day, text, i === 0 ? { "MEMORY.md": MEMORY } : {}));
    const out = await runScenario(dirs, { name: "roles-first", nights, questions: ["sundays worth opening"] });
    expect(out.differences).toEqual([]);
    expect(out.leftovers).toEqual([]);
    expect(out.secondRun).toEqual([]);
    const pages = [...filesOf(out.lived, ["bank/entities"]).keys()].sort();
    expect(pages).toContain("bank/entities/Rita.md");
    expect(pages).not.toContain("bank/entities/mum.md");
    expect(filesOf(out.lived, ["bank/opinions.md"]).get("bank/opinions.md")).toMatch(/entities: .*@Rita/);
  }, 120_000);

  it("with the tie written on a later night: the opinions move to the people; the old pages stay, empty", async () => {
    const nights = LOGS.map(([day, text], i) => night(day, text, i === 2 ? { "MEMORY.md": MEMORY } : {}));
    const out = await runScenario(dirs, { name: "roles-later", nights, questions: ["sundays worth opening"] });
    // membank never deletes a page: mum.md and chef.md, made before the tie, say "no facts in the
    // logs now"; what differs from a full run is only what those pages bring: Sam's related list
    // names them. (Rita's page is a full run's: "mum" is hers by the tie, no alias to suggest.)
    expect(out.leftovers).toEqual(["bank/entities/chef.md", "bank/entities/mum.md"]);
    expect(out.differences.map((d) => d.split(":")[0])).toEqual(["bank/entities/Sam.md"]);
    expect(out.differences[0]).toMatch(/\((?:chef|mum)\.md\)/);
    expect(out.secondRun).toEqual([]);
    const opinions = filesOf(out.lived, ["bank/opinions.md"]).get("bank/opinions.md");
    expect(opinions).toMatch(/entities: @Sam, @Rita/);
    expect(opinions).toMatch(/entities: @Sam, @Kemal/);
    expect(opinions).not.toMatch(/@mum|@chef/);
  }, 120_000);
});
