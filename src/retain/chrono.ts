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
