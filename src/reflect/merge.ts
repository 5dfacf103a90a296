/**
 * Three-way merge of one bank page that knows membank's regions (issue 15).
 *
 * Text outside the managed regions belongs to people and merges like git does (`git
 * merge-file` on the pages with every region reduced to one placeholder line): a real
 * conflict there stays a git conflict, with markers, nothing lost. Inside a region the
 * text is generated from the logs, so a merge takes one side and names the region stale:
 * the next reflect renders it again from the merged logs. A region a person edited on
 * one side is taken from that side (reflect keeps and reports it, the usual rule). A
 * region only one side has (a new month, a new opinion) is dropped with the blank lines
 * it was inserted with, so the next reflect inserts it where a single machine would.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isEdited, type RegionSpan, regionSpans, toLf } from "../markdown/regions.js";
import { runGit } from "../workspace/git.js";

export interface PageMerge {
  text: string;
  /** false: people's text outside the regions conflicts; `text` holds git-style markers there. */
  clean: boolean;
  /** Regions whose sides differ or that only one side had: the next reflect renders them from the logs. */
  stale: string[];
  /** Regions edited by hand on one side and taken from that side. */
  kept: { region: string; side: "ours" | "theirs" }[];
  /** Regions edited by hand differently on both sides: ours is kept, theirs is in git's history. */
  bothEdited: string[];
  /**
   * Stale regions filled with the base's version. For an opinion that is the state both
   * machines started from: the next reflect applies both machines' evidence to it, oldest
   * day first, as one machine would (and a confidence set by hand before the fork stays).
   */
  fromBase: string[];
}

export interface PageSides {
  ours: string;
  theirs: string;
  /** The merge base; absent (a conflicted page without diff3 markers): the lines both sides share. */
  base?: string;
  /** Names the sides in conflict markers and errors. */
  path: string;
  labels?: [string, string, string];
}

const placeholder = (name: string) => `<!-- membank:region ${name} -->`;
const PLACEHOLDER = /^([ \t]*)<!-- membank:region ([A-Za-z0-9_.:-]+) -->(\r?\n)?$/;

const lines = (text: string) => text.split(/(?<=\n)/).filter((l) => l !== "");

/** Remove a region with the blank lines reflect inserted it with (see applyRegions). */
function dropRegion(text: string, span: RegionSpan): string {
  let before = text.slice(0, span.start);
  let after = text.slice(span.end);
  const tail = /(\r?\n){2}$/.exec(before);
  const lead = /^(\r?\n){2}/.exec(after);
  if (tail && before.slice(0, tail.index).trimEnd().endsWith("-->")) before = before.slice(0, tail.index);
  else if (lead) after = after.slice(lead[0].length);
  else if (tail) before = before.slice(0, tail.index);
  return before + after;
}

/** The page with the regions `drop` removed and every other region as one placeholder line. */
function skeleton(text: string, drop: (s: RegionSpan) => boolean, file: string): string {
  let out = text;
  for (const span of regionSpans(text, file).reverse()) {
    out = drop(span) ? dropRegion(out, span) : out.slice(0, span.start) + placeholder(span.name) + out.slice(span.end);
  }
  return out;
}

/** Longest common subsequence of two line lists: the base of a merge that has none. */
function commonLines(a: string[], b: string[]): string[] {
  const n = a.length;
  const m = b.length;
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(a[i]!);
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** `git merge-file -p` on three texts (through the one git adapter); conflicts: the count. */
export async function mergeFile(
  ours: string,
  base: string,
  theirs: string,
  labels: [string, string, string],
): Promise<{ text: string; conflicts: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "membank-merge-"));
  try {
    const files = ["ours", "base", "theirs"].map((n) => path.join(dir, n));
    await Promise.all([writeFile(files[0]!, ours), writeFile(files[1]!, base), writeFile(files[2]!, theirs)]);
    const res = await runGit(
      ["merge-file", "-p", "-L", labels[0], "-L", labels[1], "-L", labels[2], files[0]!, files[1]!, files[2]!],
      { cwd: dir, okCodes: Array.from({ length: 127 }, (_, i) => i + 1) },
    );
    return { text: res.raw.toString("utf8"), conflicts: res.code };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Merge one page. Throws RegionError when a side's markers do not balance. */
export async function mergePage(sides: PageSides): Promise<PageMerge> {
  const ours = new Map(regionSpans(sides.ours, sides.path).map((s) => [s.name, s]));
  const theirs = new Map(regionSpans(sides.theirs, sides.path).map((s) => [s.name, s]));
  const oneSided = (s: RegionSpan) => !(ours.has(s.name) && theirs.has(s.name)) && !isEdited(s);
  const stale = new Set<string>();
  for (const s of [...ours.values(), ...theirs.values()]) if (oneSided(s)) stale.add(s.name);

  const skOurs = skeleton(sides.ours, oneSided, sides.path);
  const skTheirs = skeleton(sides.theirs, oneSided, sides.path);
  let skBase: string;
  try {
    skBase =
      sides.base === undefined
        ? commonLines(lines(skOurs), lines(skTheirs)).join("")
        : skeleton(sides.base, (s) => !(ours.has(s.name) && theirs.has(s.name)), sides.path);
  } catch {
    skBase = commonLines(lines(skOurs), lines(skTheirs)).join(""); // a base with broken markers
  }
  const merged = await mergeFile(skOurs, skBase, skTheirs, sides.labels ?? ["ours", "base", "theirs"]);

  let baseSpans = new Map<string, RegionSpan>();
  try {
    if (sides.base !== undefined) baseSpans = new Map(regionSpans(sides.base, sides.path).map((s) => [s.name, s]));
  } catch {
    baseSpans = new Map(); // a base with broken markers: the stale regions are rebuilt from scratch
  }
  const kept: PageMerge["kept"] = [];
  const bothEdited: string[] = [];
  const fromBase: string[] = [];
  const fill = (name: string): string | undefined => {
    const o = ours.get(name);
    const t = theirs.get(name);
    const oEdited = o !== undefined && isEdited(o);
    const tEdited = t !== undefined && isEdited(t);
    const differ = o !== undefined && t !== undefined && toLf(o.body) !== toLf(t.body);
    if (oEdited && tEdited && differ) bothEdited.push(name);
    else if (oEdited && differ) kept.push({ region: name, side: "ours" });
    else if (tEdited && differ) {
      kept.push({ region: name, side: "theirs" });
      return sides.theirs.slice(t.start, t.end);
    } else if (differ) {
      stale.add(name);
      const b = baseSpans.get(name);
      if (b) {
        fromBase.push(name);
        return sides.base!.slice(b.start, b.end);
      }
    }
    if (o) return sides.ours.slice(o.start, o.end);
    return t ? sides.theirs.slice(t.start, t.end) : undefined;
  };
  const text = lines(merged.text)
    .map((line) => {
      const m = PLACEHOLDER.exec(line);
      if (!m) return line;
      const region = fill(m[2]!);
      return region === undefined ? line : `${m[1]}${region}${m[3] ?? ""}`;
    })
    .join("");
  return { text, clean: merged.conflicts === 0, stale: [...stale].sort(), kept, bothEdited, fromBase: fromBase.sort() };
}
