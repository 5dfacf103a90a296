// Random lives of a workspace (support/differential-gen.ts): nightly after nightly equals one
// full run on the final logs, and a second run changes nothing, in the shell's time zone and
// locale of the day. Seeded: the same cases every run. More cases: scripts/differential-long.sh
// (DIFF_RUNS, DIFF_SEED).
import { rmSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runScenario } from "./support/differential.js";
import { buildScenario, linePools, rewritesHistory, scenarioPlan } from "./support/differential-gen.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];
afterAll(() => {
  if (process.env.DIFF_KEEP) console.log(dirs.join("\n"));
  else for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const RUNS = Number(process.env.DIFF_RUNS ?? 5);
const SEED = Number(process.env.DIFF_SEED ?? 20261124);
// Zones a day boundary is easy to get wrong in: +14, -3:30, +5:30, and the machine's own.
const ZONES = ["UTC", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kolkata"];
const LANGS = ["C", "de_DE.UTF-8", "tr_TR.UTF-8"];

describe("random lives of a workspace: night after night equals one full run", () => {
  it(`${RUNS} seeded cases (seed ${SEED})`, async () => {
    const pools = linePools(ROOT);
    const saved = { TZ: process.env.TZ, LANG: process.env.LANG };
    let cases = 0;
    try {
      await fc.assert(
        fc.asyncProperty(scenarioPlan, fc.constantFrom(...ZONES), fc.constantFrom(...LANGS), async (plan, tz, lang) => {
          process.env.TZ = tz;
          process.env.LANG = lang;
          const sc = buildScenario(pools, plan);
          const out = await runScenario(dirs, sc);
          cases++;
          if (!process.env.DIFF_KEEP) for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
          // With old logs edited or deleted, the bank keeps what they said (opinions' evidence
          // "no longer in the log"): then a full run over the lived bank must change nothing.
          const history = rewritesHistory(plan);
          // A page is named by the first spelling written, on the first night as in one full
          // run: a page's name that differs only in case is a difference too.
          expect({
            differences: history ? [] : [...out.differences, ...out.spellingOnly],
            fullInPlace: out.fullInPlace,
            secondRun: out.secondRun,
          }).toEqual({ differences: [], fullInPlace: [], secondRun: [] });
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          // DIFF_PATH replays one case fast-check reported (its "path").
          ...(process.env.DIFF_PATH ? { path: process.env.DIFF_PATH } : {}),
          endOnFailure: process.env.DIFF_SHRINK === undefined,
        },
      );
    } finally {
      process.env.TZ = saved.TZ;
      if (saved.LANG === undefined) delete process.env.LANG;
      else process.env.LANG = saved.LANG;
      if (process.env.DIFF_LOG) console.log(`differential: ${cases} cases, seed ${SEED}`);
    }
  }, 600_000);
});
