// The differential harness: a workspace lived night after night (one nightly per day, logs
// edited, back-dated or deleted between nights) against one full run on the final logs.
// Promises checked (README "Running it every night", DESIGN.md 1.2): the same bank and logs
// byte for byte, the same recall answers, and a second run with no new input that writes
// nothing, commits nothing and leaves the index rows as they were.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { runPipeline } from "../../pipelines/index.js";
import { closeIndexes } from "../../src/index/handles.js";
import type { RunRecord } from "../../src/pipeline/types.js";
import { recall } from "../../src/recall/recall.js";
import { openWorkspace } from "../../src/workspace/workspace.js";

/** Files to write (text) or delete (null) before a night's run, workspace-relative. */
export type Change = Record<string, string | null>;

export interface Night {
  /** The run's clock: the night after the day it closes. */
  now: Date;
  change: Change;
  /** Stop the run after this step (SIGTERM between steps), then run the night again. */
  stopAfter?: "sessions" | "retain" | "reflect" | "commit";
}

export interface Scenario {
  name: string;
  nights: Night[];
  questions: string[];
}

const CONFIG = JSON.stringify({ embedding: { provider: "none" } });

export function tempWorkspace(dirs: string[], label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `membank-diff-${label}-`));
  dirs.push(dir);
  mkdirSync(path.join(dir, "memory"), { recursive: true });
  writeFileSync(path.join(dir, "membank.config.json"), CONFIG);
  git(dir, "init", "-q", "-b", "main");
  return dir;
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
}

export function applyChange(dir: string, change: Change): void {
  // Sorted: the order files are written in must not matter, but the harness itself stays seeded.
  for (const rel of Object.keys(change).sort()) {
    const text = change[rel];
    const file = path.join(dir, rel);
    if (text === null || text === undefined) rmSync(file, { force: true });
    else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
}

export async function nightly(
  dir: string,
  now: Date,
  opts: { full?: boolean; stopAfter?: string } = {},
): Promise<RunRecord> {
  const ws = await openWorkspace(dir);
  const stop = new AbortController();
  const { stopAfter, ...rest } = opts;
  const record = await runPipeline(ws, "nightly", {
    now,
    acceptDeletedLogs: true,
    signal: stop.signal,
    // The runner logs "[i/n] step ok in ..." when a step is through; the next one never starts.
    log: (line) => {
      if (stopAfter !== undefined && line.includes(`] ${stopAfter} ok in`)) stop.abort("SIGTERM");
    },
    ...rest,
  });
  closeIndexes();
  if (stopAfter !== undefined && record.status === "aborted") return record;
  if (record.status !== "done" && record.status !== "nothing")
    throw new Error(`nightly ${now.toISOString()} in ${dir}: ${record.status} ${record.error?.message ?? ""}`);
  return record;
}

/** Every file under the given workspace folders/files, relative path -> bytes as text. */
export function filesOf(dir: string, roots = ["bank", "memory", "MEMORY.md", "memory.md"]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(abs);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const n of readdirSync(abs).sort()) walk(path.posix.join(rel, n));
    else out.set(rel, readFileSync(abs, "utf8"));
  };
  for (const r of roots) walk(r);
  return out;
}

/** Files under bank/ and memory/ with their mtimes (a write shows even when the bytes are equal). */
export function mtimesOf(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const rel of filesOf(dir).keys()) out.set(rel, statSync(path.join(dir, rel)).mtimeMs);
  return out;
}

/** A checksum per index table over its rows in a stable order. */
export function indexChecksums(dir: string): Record<string, string> {
  const db = new Database(path.join(dir, ".memory/index.sqlite"), { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    const out: Record<string, string> = {};
    for (const t of tables) {
      const rows = db
        .prepare(`SELECT * FROM "${t}"`)
        .raw()
        .all()
        .map((r) => JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString("base64") : v)))
        .sort();
      out[t] = createHash("sha256").update(rows.join("\n")).digest("hex").slice(0, 16);
    }
    return out;
  } finally {
    db.close();
  }
}

export async function answers(dir: string, questions: string[], asOf: Date): Promise<string[]> {
  const ws = await openWorkspace(dir);
  const out: string[] = [];
  for (const q of questions) {
    const r = await recall(ws, q, { asOf, sync: false, k: 6 });
    // Scores are rounded: the same answers from indexes filled in another order may differ in
    // the last float bits of BM25; what a user sees is the order and the content.
    out.push(
      `${q} => ${JSON.stringify(
        r.results.map((x) => ({ ...x, score: Math.round((x as { score: number }).score * 1e6) / 1e6 })),
      )}`,
    );
  }
  closeIndexes();
  return out;
}

/** First differing line of two texts, for a readable failure. */
export function firstDifference(a: string, b: string): string {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  nightly: ${la[i] ?? "<none>"}\n  full:    ${lb[i] ?? "<none>"}`;
  }
  return "same";
}

/** Differences between two file maps as readable lines (empty: byte-identical). */
export function compareFiles(nightlyFiles: Map<string, string>, fullFiles: Map<string, string>): string[] {
  const out: string[] = [];
  const names = [...new Set([...nightlyFiles.keys(), ...fullFiles.keys()])].sort();
  for (const n of names) {
    const a = nightlyFiles.get(n);
    const b = fullFiles.get(n);
    if (a === b) continue;
    if (a === undefined) out.push(`${n}: only after the full run`);
    else if (b === undefined) out.push(`${n}: only after the nightlies`);
    else out.push(`${n}: ${firstDifference(a, b)}`);
  }
  return out;
}

/** Files with names and text in lower case, region hashes left out, lines sorted (a name's case moves it in a sorted list). */
function folded(files: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [rel, text] of files) {
    const lines = text
      .toLowerCase()
      .replace(/ sha=[0-9a-f]+ -->/g, " -->")
      .split("\n")
      .sort();
    out.set(rel.toLowerCase(), lines.join("\n"));
  }
  return out;
}

export interface Outcome {
  /** The workspace that lived the nights. */
  lived: string;
  /** Differences nightly-by-night vs one full run (empty: none). */
  differences: string[];
  /** Differences that are only the case of a page's name (its first spelling stays). */
  spellingOnly: string[];
  /**
   * Entity pages an earlier night made that the logs no longer support, left saying "no facts
   * in the logs now" (README: membank never deletes a page); a full run has no such page.
   */
  leftovers: string[];
  /** What `run nightly --full` on a copy of the lived workspace changed (empty: nothing). */
  fullInPlace: string[];
  /** What the second run with no new input changed (empty: nothing). */
  secondRun: string[];
}

/**
 * Live the scenario night by night in one workspace, then give the final logs to a fresh
 * workspace for one full run; compare. Then run the lived workspace once more with no change.
 */
export async function runScenario(dirs: string[], sc: Scenario): Promise<Outcome> {
  const lived = tempWorkspace(dirs, "lived");
  for (const night of sc.nights) {
    applyChange(lived, night.change);
    if (night.stopAfter) await nightly(lived, night.now, { stopAfter: night.stopAfter });
    await nightly(lived, night.now);
  }
  const last = sc.nights[sc.nights.length - 1]!.now;
  const full = tempWorkspace(dirs, "full");
  const finalLogs = filesOf(lived, ["memory", "MEMORY.md", "memory.md"]);
  applyChange(full, Object.fromEntries(finalLogs));
  await nightly(full, last);

  const livedFiles = filesOf(lived);
  const leftovers = [...livedFiles]
    .filter(([rel, text]) => /^bank\/entities\//.test(rel) && / no facts in the logs now\.\n/.test(text))
    .map(([rel]) => rel)
    .filter((rel) => !existsSync(path.join(full, rel)));
  for (const rel of leftovers) livedFiles.delete(rel);
  const fullFiles = filesOf(full);
  let differences = compareFiles(livedFiles, fullFiles);
  // Differences of nothing but a page name's case are apart: a page keeps the spelling it was
  // made with, so a back-dated or edited log can leave one (README); a new day must not.
  const spellingOnly: string[] = [];
  if (differences.length > 0 && compareFiles(folded(livedFiles), folded(fullFiles)).length === 0) {
    spellingOnly.push(...differences);
    differences = [];
  }
  // A leftover page is in the index too (its words count in BM25): answers are compared without one.
  if (leftovers.length === 0 && spellingOnly.length === 0) {
    const [a, b] = [await answers(lived, sc.questions, last), await answers(full, sc.questions, last)];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differences.push(`recall: ${firstDifference(a[i]!, b[i]!)}`);
  }

  // The bank the nights left is what a full run on it gives: `--full` changes nothing.
  const copy = `${lived}-copy`;
  dirs.push(copy);
  cpSync(lived, copy, { recursive: true });
  await nightly(copy, last, { full: true });
  const fullInPlace = compareFiles(filesOf(lived), filesOf(copy));

  const secondRun: string[] = [];
  const head = git(lived, "rev-parse", "HEAD").trim();
  const times = mtimesOf(lived);
  const sums = indexChecksums(lived);
  const record = await nightly(lived, last);
  if (record.status !== "nothing") secondRun.push(`status ${record.status}, wrote ${record.written.join(", ")}`);
  if (git(lived, "rev-parse", "HEAD").trim() !== head) secondRun.push("made a commit");
  const after = mtimesOf(lived);
  for (const [f, t] of after) if (times.get(f) !== t) secondRun.push(`${f}: written again`);
  const sumsAfter = indexChecksums(lived);
  for (const t of Object.keys({ ...sums, ...sumsAfter }))
    if (sums[t] !== sumsAfter[t]) secondRun.push(`index table ${t} changed`);
  return { lived, differences, spellingOnly, leftovers, fullInPlace, secondRun };
}

/** The night after a day: 03:00 UTC of the next day (the run's "today" is the day after the log). */
export function nightAfter(day: string): Date {
  const d = new Date(`${day}T03:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

/** A fixture's logs as nights: one night per log day, in date order; MEMORY.md on the first night. */
export function fixtureNights(fixtureDir: string): Night[] {
  const files = filesOf(fixtureDir, ["memory", "MEMORY.md", "memory.md"]);
  const byDay = new Map<string, Change>();
  const first: Change = {};
  for (const [rel, text] of files) {
    const day = /^memory\/(\d{4}-\d{2}-\d{2})/.exec(rel)?.[1];
    if (day === undefined) {
      first[rel] = text;
      continue;
    }
    const c = byDay.get(day) ?? {};
    c[rel] = text;
    byDay.set(day, c);
  }
  const days = [...byDay.keys()].sort();
  return days.map((day, i) => ({
    now: nightAfter(day),
    change: i === 0 ? { ...first, ...byDay.get(day) } : byDay.get(day)!,
  }));
}
