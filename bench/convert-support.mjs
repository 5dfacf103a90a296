// Shared by the bench/convert-*.mjs scripts, which turn a public conversational benchmark
// into daily-log workspaces in the layout of ../shared/eval/locomo (../shared/eval/README.md).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Bad input or an unusable --out: the message is the whole story (file, where, what to do). */
export class ConvertError extends Error {}

export function fail(file, where, reason) {
  throw new ConvertError(`${file}: ${where}: ${reason}`);
}

/** One turn, one line: newlines and runs of blanks become one space. */
export function oneLine(text) {
  return String(text).replace(/\s+/g, " ").trim();
}

/** A real calendar day y-m-d as "YYYY-MM-DD", or undefined (31 Feb, month 13). */
export function isoDay(y, m, d) {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** "2023-04-09" -> "9 Apr 2023" (session headings, as in the LoCoMo logs). */
export function dayLabel(day) {
  const [y, m, d] = day.split("-").map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * Run `fill(dir)` to write a conversion into a staging folder beside `outDir`, then move it
 * into place: a failed run leaves no half conversion, and an earlier one stays until replaced.
 * Refuses an `outDir` that holds something other than an earlier conversion.
 */
export async function intoFolder(outDir, fill) {
  if (existsSync(outDir) && readdirSync(outDir).length > 0 && !existsSync(path.join(outDir, "queries.jsonl"))) {
    throw new ConvertError(`${outDir}: exists and is not an earlier conversion: choose an empty --out folder`);
  }
  const staging = `${outDir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, "workspaces"), { recursive: true });
  try {
    const result = await fill(staging);
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
    return result;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A workspace's files (relative path -> text) under `<dir>/<wsRel>`. */
export function writeWorkspace(dir, wsRel, files) {
  for (const [rel, text] of files) {
    mkdirSync(path.dirname(path.join(dir, wsRel, rel)), { recursive: true });
    writeFileSync(path.join(dir, wsRel, rel), text);
  }
}

/** queries.jsonl and stats.json of a conversion. */
export function writeIndex(dir, queries, stats) {
  writeFileSync(path.join(dir, "queries.jsonl"), queries.map((q) => `${JSON.stringify(q)}\n`).join(""));
  writeFileSync(path.join(dir, "stats.json"), `${JSON.stringify(stats, null, 2)}\n`);
}

/** A convert script's exit code: 1 with its one-line message on a ConvertError. */
export async function runConvert(name, work) {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ConvertError) {
      console.error(`${name}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
