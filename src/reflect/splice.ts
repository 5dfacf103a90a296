import { readRegions, writtenBody } from "../markdown/regions.js";
import { MENTIONS_HEADING } from "./entity-page.js";

const MAYBE_SAME_HEADING = "Maybe the same as (not merged):";

/**
 * An entity page whose only news is a prose mention (a session digest names the entity on
 * a day with no fact about it): the fact-derived regions (summary and state, timeline,
 * related entities) are those membank wrote last time, because their inputs did not change
 * (the incremental scope in scope.ts says so, as it does for every page it leaves alone).
 * So instead of re-deriving them from every fact of the entity (thousands on a 10-year
 * page), the page keeps them and only the "Mentioned in" block at the end of the facts
 * region is new. Same bytes as a full render (test/reflect-mentions-splice.test.ts).
 *
 * `maybeSame` is the page's alias suggestions block as it is now (maybeSameBlock).
 * Returns the summary, facts and related bodies, or undefined when the old page cannot
 * be trusted for it (a region missing, without membank's hash, edited by hand, or other
 * alias suggestions): then the page is rendered in full, as before.
 */
export function spliceMentions(before: string, mentions: string, maybeSame: string): Map<string, string> | undefined {
  let regions: ReturnType<typeof readRegions>;
  try {
    regions = readRegions(before);
  } catch {
    return undefined;
  }
  const body = (name: string) => {
    const r = regions.find((x) => x.name === name);
    return r === undefined ? undefined : writtenBody(r);
  };
  const summary = body("summary");
  const facts = body("facts");
  const related = body("related");
  if (summary === undefined || facts === undefined || related === undefined || !facts.endsWith("\n")) return undefined;
  // Alias suggestions can change with the day's prose (a new name that differs only by accents): the summary must still end with them.
  if (maybeSame === "" ? summary.includes(`\n${MAYBE_SAME_HEADING}\n`) : !summary.endsWith(`\n${maybeSame}\n`))
    return undefined;
  // Fact bullets are one line each, so the first blank line followed by the heading is where the mentions begin.
  const at = facts.indexOf(MENTIONS_HEADING);
  const timeline = at === -1 ? facts.slice(0, -1) : facts.slice(0, at);
  return new Map([
    ["summary", summary],
    ["facts", `${timeline}${mentions}\n`],
    ["related", related],
  ]);
}
