/**
 * A pre-check in front of recall's time gate (`mayNameTime`, timewindow.ts): can any of
 * the question's words start a match of that gate's pattern? Word lookups in sets cost
 * nothing to set up, while the pattern costs ~6 ms CPU to compile at its first use in a
 * process, which every CLI recall is. A superset of the pattern by construction: when
 * this says no, the pattern finds nothing either (a property test checks both agree).
 *
 * Words are runs of ASCII word characters, as the pattern's `\b` sees them (it has no `u`
 * flag, so no other letter is a word character or case-folds to an ASCII one).
 */

/** Every spelling `\b${MONTH_NAME}\b` and `\b${WEEKDAY_NAME}\b` (analysis/time-words.ts) match, and no other. */
const CALENDAR = new Set([
  ..."jan january feb february mar march apr april may jun june jul july aug august".split(" "),
  ..."sep sept sepember september oct october nov november dec december".split(" "),
  ..."sun mon tue tues wed thu thur thurs fri sat".split(" "),
  ..."sunday monday tuesday wednesday thursday friday saturday".split(" "),
]);

/** The pattern's "this/last/past/next/after" (glued to the next word when `\s*` takes no space). */
const RELATIVE = ["this", "last", "past", "next", "after"];
/** Its casual words (`tmrw?` is tmr and tmrw). */
const CASUAL = new Set(
  "now today tonight tmr tmrw tomorrow overmorrow yesterday night noon midday midnight morning afternoon evening".split(
    " ",
  ),
);
/** Its unit stems, matched at a word's start with no end boundary ("days", "weekly", "yearbook"). */
const STEMS = ["second", "minute", "hour", "day", "week", "fortnight", "month", "quarter", "year"];
/** Its number words that may be glued to a unit ("threedays"); `an?\b` ends at a boundary, so never glued. */
const GLUED_COUNTS = [
  ..."the few several half couple one two three four five six seven eight nine ten eleven twelve".split(" "),
  ...RELATIVE,
];
/** Its unit words (`UNIT`), each of which may carry one of the suffixes below ("dago", "hrslater"). */
const UNITS = new Set(
  "s sec secs second seconds m min mins minute minutes h hr hrs hour hours d day days w week weeks mo mon mos month months qtr quarter quarters y yr yrs year years".split(
    " ",
  ),
);
const UNIT_SUFFIXES = ["", "ago", "before", "earlier", "later", "after", "from", "henceforth", "forward", "out"];

function isUnitWord(w: string): boolean {
  return UNIT_SUFFIXES.some((s) => w.endsWith(s) && UNITS.has(w.slice(0, w.length - s.length)));
}

/** Could this one lower-case word start a match? (The digit alternative is checked on the whole text.) */
function mayStartTime(w: string): boolean {
  if (CALENDAR.has(w) || CASUAL.has(w) || isUnitWord(w)) return true;
  if (STEMS.some((s) => w.startsWith(s))) return true;
  // "half" takes a glued article before its unit ("half am": half a minute), across a space too.
  if (w.startsWith("half")) return true;
  for (const r of RELATIVE) {
    if (!w.startsWith(r)) continue;
    const rest = w.slice(r.length);
    if (CASUAL.has(rest) || STEMS.some((s) => rest.startsWith(s))) return true;
  }
  return GLUED_COUNTS.some((c) => w.startsWith(c) && isUnitWord(w.slice(c.length)));
}

/** False only when the time gate's pattern cannot match `text`. */
export function mayHoldTimeWord(text: string): boolean {
  if (/[0-9]/.test(text)) return true;
  for (const w of text.match(/[A-Za-z0-9_]+/g) ?? []) if (mayStartTime(w.toLowerCase())) return true;
  return false;
}
