/**
 * Digests of the logs' prose names, one per year of logs (prose-names.ts), kept in
 * .memory/reflect/prose-memo.json: a nightly on ten years of logs digests only the year its
 * new day falls in, and merges the other nine from here, instead of walking ~50k prose lines.
 *
 * A cache, never truth: a year's digest is used only for exactly the prose it was made
 * from (a hash of its paths, dates, lines and names) and by this code (version and the
 * digest function's text); missing, stale or corrupt means the year is digested again.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { cmp } from "./format.js";
import type { ProseLog } from "./prose.js";
import { digestProse, type ProseDigest } from "./prose-names.js";

/** Bump when a digest's content or meaning changes in a way its function's text does not show. */
const MEMO_VERSION = 1;
const CODE = createHash("sha256")
  .update(`${MEMO_VERSION}\n${String(digestProse)}`)
  .digest("hex")
  .slice(0, 16);

export const proseMemoPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "prose-memo.json");

interface MemoFile {
  version: number;
  code: string;
  years: { hash: string; digest: ProseDigest }[];
}

export interface ProseMemo {
  /** Digests of the logs, one per year, in path order (namesOf's input). */
  digests(logs: readonly ProseLog[]): ProseDigest[];
  /** A digest was made in this run, or a kept one is no longer used. */
  readonly dirty: boolean;
  serialise(): string;
}

/** Two 32-bit FNV-1a hashes over the same input: 64 bits, so two years' prose never share a key by chance. */
class Hasher {
  private a = 0x811c9dc5;
  private b = 0x01000193;
  str(s: string): void {
    let { a, b } = this;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    // A separator no name holds, so "ab","c" and "a","bc" differ.
    this.a = Math.imul(a ^ 0xffff, 0x01000193);
    this.b = Math.imul(b ^ 0xffff, 0x5bd1e995);
  }
  hex(): string {
    return `${(this.a >>> 0).toString(16).padStart(8, "0")}${(this.b >>> 0).toString(16).padStart(8, "0")}`;
  }
}

const LIST_TAGS = ["k", "a", "n", "s"] as const;

/** A hash of everything digestProse reads of these logs. */
function hashOf(logs: readonly ProseLog[]): string {
  const h = new Hasher();
  for (const log of logs) {
    h.str(log.path);
    h.str(log.date);
    for (const l of log.lines) {
      h.str(`#${l.line}`);
      for (const tag of LIST_TAGS) {
        const list = l[tag];
        if (list === undefined) continue;
        h.str(tag);
        for (const name of list) h.str(name);
      }
      if (l.p) {
        h.str("p");
        for (const [first, second] of l.p) {
          h.str(first);
          h.str(second);
        }
      }
      if (l.r)
        for (const run of l.r) {
          h.str("r");
          for (const word of run) h.str(word);
        }
    }
  }
  return h.hex();
}

/** A memo starting from kept digests (none: every year is digested). */
export function proseMemo(kept: readonly { hash: string; digest: ProseDigest }[] = [], fresh = false): ProseMemo {
  const byHash = new Map(kept.map((y) => [y.hash, y.digest]));
  let used: { hash: string; digest: ProseDigest }[] = [];
  let dirty = fresh;
  return {
    digests(logs) {
      const sorted = [...logs].sort((a, b) => cmp(a.path, b.path));
      // Years in path order (memory/YYYY-...): a year split by a log of another year is two runs, each its own digest.
      const runs: ProseLog[][] = [];
      let year: string | undefined;
      for (const log of sorted) {
        const y = log.date.slice(0, 4);
        if (runs.length === 0 || y !== year) runs.push([]);
        runs[runs.length - 1]!.push(log);
        year = y;
      }
      used = runs.map((run) => {
        const hash = hashOf(run);
        let digest = byHash.get(hash);
        if (digest === undefined) {
          digest = digestProse(run);
          byHash.set(hash, digest);
          dirty = true;
        }
        return { hash, digest };
      });
      if (used.length !== kept.length || used.some((y, i) => y.hash !== kept[i]!.hash)) dirty = true;
      return used.map((y) => y.digest);
    },
    get dirty() {
      return dirty;
    },
    serialise() {
      return JSON.stringify({ version: MEMO_VERSION, code: CODE, years: used } satisfies MemoFile);
    },
  };
}

const isDigest = (d: unknown): d is ProseDigest => {
  const x = d as ProseDigest | null;
  return (
    typeof x === "object" &&
    x !== null &&
    Array.isArray(x.logs) &&
    Array.isArray(x.tagged) &&
    Array.isArray(x.alone) &&
    [x.spell, x.strong, x.anywhere, x.runs, x.pairs, x.lines].every((r) => typeof r === "object" && r !== null)
  );
};

/** The kept digests, or none when the file is missing, of another version or code, or corrupt. */
export async function loadProseMemo(ws: Workspace): Promise<ProseMemo> {
  try {
    const file = JSON.parse(await readFile(proseMemoPath(ws), "utf8")) as Partial<MemoFile> | null;
    if (
      file?.version === MEMO_VERSION &&
      file.code === CODE &&
      Array.isArray(file.years) &&
      file.years.every((y) => typeof y?.hash === "string" && isDigest(y.digest))
    )
      return proseMemo(file.years);
  } catch {
    // missing or corrupt derived data: digested again
  }
  return proseMemo([], true);
}

/** Write the memo when it changed (atomically: a crash leaves the old file or the new one). */
export async function saveProseMemo(ws: Workspace, memo: ProseMemo | undefined): Promise<void> {
  if (memo === undefined || !memo.dirty) return;
  await writeFileAtomic(proseMemoPath(ws), memo.serialise());
}
