import { createRequire } from "node:module";
import type * as ChronoEn from "chrono-node/en";

/**
 * chrono-node's English parser, required on first use (its CommonJS build, ~50 files):
 * a recall whose question names no time, and every command that parses no dates, never
 * loads it. Only the English parser: the package root loads all 15 locales (266 files).
 */
let chronoLib: typeof ChronoEn | undefined;
export function chronoEn(): typeof ChronoEn {
  chronoLib ??= createRequire(import.meta.url)("chrono-node/en") as typeof ChronoEn;
  return chronoLib;
}

/**
 * Words without which a parser's pattern cannot match (case-insensitive), for the four
 * casual parsers built on chrono's time-unit pattern ("3 weeks", "a few days", ...). That
 * pattern is a regular expression of thousands of alternatives: V8 compiles it on a first
 * match (~10-30 ms each), and again to machine code on a second (~200 ms under load for
 * the "ago" and "later" ones). Each literal below is in every match of its parser's pattern,
 * so leaving the parser out of a text without it changes no result. Within: its prefix is
 * required only without `forwardDate`.
 *
 * The four month-name parsers ("Mar 7, 2026", "7th of March", "March 2026", "2026 March")
 * all need one of chrono's month words (MONTH_DICTIONARY: "january" ... "sept.", each
 * holding its three-letter stem); their patterns, with the ordinal words ("twenty-first"),
 * cost ~35-50 ms each to compile to machine code on a night's second text. The relative
 * parser ("next week", "this month") needs its modifier word. Substrings, not words:
 * "5jan" matches chrono's little-endian pattern.
 */
const MONTH_STEM = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i;
const NEEDED: Record<string, RegExp> = {
  ENTimeUnitAgoFormatParser: /ago|before|earlier/i,
  ENTimeUnitLaterFormatParser: /later|after|from now|henceforth|forward|out/i,
  ENTimeUnitCasualRelativeFormatParser: /this|last|past|next|after|[+-]/i,
  ENTimeUnitWithinFormatParser: /within|in|for/i,
  ENMonthNameLittleEndianParser: MONTH_STEM,
  ENMonthNameMiddleEndianParser: MONTH_STEM,
  ENMonthNameParser: MONTH_STEM,
  ENYearMonthNameParser: MONTH_STEM,
  ENRelativeDateFormatParser: /this|last|past|next|after/i,
};

type Chrono = typeof ChronoEn.casual;
const subsets = new Map<string, Chrono>();

/**
 * `chronoEn().parse(text, ref, option)` with the same results, without running a parser
 * whose needed word (NEEDED) is not in the text. A class chrono renames is simply always run.
 */
export function chronoParse(
  text: string,
  ref: Parameters<Chrono["parse"]>[1],
  option?: Parameters<Chrono["parse"]>[2],
): ReturnType<Chrono["parse"]> {
  const casual = chronoEn().casual;
  const skip = (p: object) => {
    const name = p.constructor.name;
    if (name === "ENTimeUnitWithinFormatParser" && option?.forwardDate) return false;
    const needed = NEEDED[name];
    return needed !== undefined && !needed.test(text);
  };
  const key = casual.parsers.map((p) => (skip(p) ? "0" : "1")).join("");
  let chrono = subsets.get(key);
  if (!chrono) {
    chrono = casual.clone();
    chrono.parsers = casual.parsers.filter((p) => !skip(p));
    subsets.set(key, chrono);
  }
  return chrono.parse(text, ref, option);
}
