/** How many logs' paths a note lists before "... and N more". */
export const NO_RETAIN_LISTED = 10;

/**
 * One line saying which daily logs had no `## Retain` section, so facts are never silently
 * missing: "2 of 5 logs have no ## Retain section: memory/a.md, memory/b.md". When no log
 * has one and no LLM can extract facts, it says what to do instead of listing them all.
 * Undefined when every log has a Retain section.
 */
export function noRetainNote(
  noRetain: readonly string[],
  logs: number,
  opts: { llm: boolean; max?: number },
): string | undefined {
  const n = noRetain.length;
  if (n === 0) return undefined;
  const head = `${n} of ${logs} log${logs === 1 ? "" : "s"} ${n === 1 ? "has" : "have"} no ## Retain section`;
  if (n >= logs && !opts.llm) return `${head}: add one (README) or set llm.provider to extract facts`;
  const max = opts.max ?? NO_RETAIN_LISTED;
  const more = n > max ? `, ... and ${n - max} more` : "";
  return `${head}: ${noRetain.slice(0, max).join(", ")}${more}`;
}
