import { parseRetainSections, type RetainOptions } from "./parse.js";
import type { RetainResult } from "./types.js";

/** parseRetainSections' signature: what collectFacts and the index's sync call per log. */
export type SectionParser = (path: string, text: string, opts?: RetainOptions) => RetainResult & { sections: number };

/**
 * A parser that remembers each log it parsed (by path, text and options), so one run that
 * reads the same unchanged log in several steps (the nightly: retain, then the index) parses
 * it once. Facts are returned as they were: callers never mutate them.
 */
export function parseMemo(parse: SectionParser = parseRetainSections): SectionParser {
  const seen = new Map<string, { key: string; result: RetainResult & { sections: number } }>();
  return (path, text, opts = {}) => {
    const key = `${opts.defaultConfidence ?? ""}|${opts.fastPath ?? ""}|${(opts.invalidLines ?? []).join(",")}|${text}`;
    const hit = seen.get(path);
    if (hit && hit.key === key) return hit.result;
    const result = parse(path, text, opts);
    seen.set(path, { key, result });
    return result;
  };
}
