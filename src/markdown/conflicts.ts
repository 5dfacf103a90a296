/**
 * Git conflict markers in a page (a merge without membank's driver). Pure and
 * string-level: a conflicted text is split into the version of each side (and of the
 * base, when git wrote diff3 markers), so the page can be merged again by rules that
 * know membank's regions (src/reflect/merge.ts).
 */
export interface ConflictSplit {
  ours: string;
  theirs: string;
  /** The merge base's version: only when every hunk carries a `|||||||` section. */
  base?: string;
  /** Lines (1-based) of the `<<<<<<<` markers. */
  lines: number[];
}

const OPEN = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const SEP = /^={7}$/;
const CLOSE = /^>{7}(?: |$)/;

/**
 * Each side's text, or undefined when there is no complete conflict hunk. A `=======`
 * line outside a hunk is a Markdown heading underline, not a marker.
 */
export function splitConflicts(text: string): ConflictSplit | undefined {
  const parts = text.split(/(?<=\n)/);
  let ours = "";
  let theirs = "";
  let base = "";
  let allBase = true;
  const lines: number[] = [];
  let state: "out" | "ours" | "base" | "theirs" = "out";
  let sawBase = false;
  parts.forEach((raw, i) => {
    const line = raw.replace(/\r?\n$/, "");
    if (state === "out" && OPEN.test(line)) {
      state = "ours";
      sawBase = false;
      lines.push(i + 1);
    } else if (state === "ours" && BASE.test(line)) {
      state = "base";
      sawBase = true;
    } else if ((state === "ours" || state === "base") && SEP.test(line)) {
      state = "theirs";
      if (!sawBase) allBase = false;
    } else if (state === "theirs" && CLOSE.test(line)) {
      state = "out";
    } else if (state === "out") {
      ours += raw;
      theirs += raw;
      base += raw;
    } else if (state === "ours") ours += raw;
    else if (state === "base") base += raw;
    else theirs += raw;
  });
  if (lines.length === 0 || state !== "out") return undefined;
  return allBase ? { ours, theirs, base, lines } : { ours, theirs, lines };
}
