/**
 * Digests of the logs' prose names, one per year of logs (prose-names.ts), kept in
 * .memory/reflect/prose-memo.json: a nightly on ten years of logs digests only the year its
 * new day falls in, and merges the other nine from here, instead of walking ~50k prose lines.
 *
 * A cache, never truth: a year's digest is used only for exactly the prose it was made
 * from (a hash of its paths, dates, lines and names, or the name of the snapshot file it
 * came from, see SnapshotParts) and by this code (version and the digest function's text);
 * missing, stale or corrupt means the year is digested again.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { derivingCode } from "./code-fingerprint.js";
import { cmp } from "./format.js";
import type { ProseLog } from "./prose.js";
import { digestProse, type ProseDigest } from "./prose-names.js";
import type { ProseFile, SnapshotPart } from "./snapshot.js";

/** Bump when a digest's content or meaning changes in a way its function's text does not show. */
const MEMO_VERSION = 1;
// The fingerprint of all the code the digest reaches (name rules live in several modules); not the
// digest's `String()`, which esbuild prints otherwise than tsc (the CLI would drop the library's memo).
let codeOnce: Promise<string> | undefined;
const proseCode = (): Promise<string> => {
  codeOnce ??= derivingCode().then((code) =>
    createHash("sha256").update(`${MEMO_VERSION}\n${code}`).digest("hex").slice(0, 16),
  );
  return codeOnce;
};

export const proseMemoPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "prose-memo.json");

interface MemoFile {
  version: number;
  code: string;
  years: KeptYear[];
}

export interface ProseMemo {
  /** The same kept digests, for a run that read these snapshot parts (before: loadFacts' `proseKnown`). */
  at(parts: SnapshotParts | undefined): ProseMemo;
  /** A kept digest of exactly this part's prose (so loadFacts need not read it). */
  has(part: SnapshotPart): boolean;
  /**
   * Digests of the logs and of the unread parts (their kept digests), one per year, in path
   * order (namesOf's input). Throws when an unread part has no kept digest or is not one run.
   */
  digests(logs: readonly ProseLog[], unread?: readonly SnapshotPart[]): ProseDigest[];
  /** The digests the last digests() call took for its unread parts. */
  unreadDigests(): ProseDigest[];
  /** After the snapshot is saved: years digested from their logs are known by their part from now on. */
  settle(parts: readonly SnapshotPart[]): void;
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

const LIST_TAGS = ["k", "a", "n", "s", "l", "v", "o"] as const;

/** A hash of everything digestProse reads of these logs. */
function hashOf(logs: readonly ProseLog[]): string {
  const h = new Hasher();
  for (const log of logs) {
    h.str(log.path);
    h.str(log.date);
    h.str(`w${(log.w ?? []).join(" ")}`);
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

/**
 * The facts snapshot's parts an incremental run read (load.ts): a year wholly before the
 * run's window has exactly the prose of its prose file, and the file is named by a hash of
 * its bytes, so that name (with the extent the head gives) stands for the year's prose
 * without hashing it again, or even reading it (loadFacts' `proseKnown`).
 */
export interface SnapshotParts {
  since: string;
  parts: readonly SnapshotPart[];
}

/** A kept year: its digest under the hash of its prose, and the snapshot file it was read from when known. */
interface KeptYear {
  hash: string;
  part?: string;
  digest: ProseDigest;
}

/** What stands for a part's prose: its file (named by a hash of its bytes) and extent. */
const partName = (p: ProseFile, logs = p.logs, first = p.first, last = p.last) => `${p.file}:${logs}:${first}:${last}`;

const isYear = (key: string) => /^\d{4}$/.test(key);

/** A memo starting from kept digests (none: every year is digested). */
export function proseMemo(
  kept: readonly KeptYear[] = [],
  fresh = false,
  snapshot?: SnapshotParts,
  code = "",
): ProseMemo {
  const files = new Map((snapshot?.parts ?? []).map((p) => [p.key, p.prose]));
  // The snapshot file a run of logs was read from (with its extent, as a check), when it is one whole old year.
  const partOf = (run: readonly ProseLog[]): string | undefined => {
    const year = run[0]!.date.slice(0, 4);
    const file = files.get(year);
    if (snapshot === undefined || file === undefined || !isYear(year) || year >= snapshot.since.slice(0, 4))
      return undefined;
    return partName(file, run.length, run[0]!.path, run[run.length - 1]!.path);
  };
  const byHash = new Map(kept.map((y) => [y.hash, y]));
  const byPart = new Map(kept.filter((y) => y.part !== undefined).map((y) => [y.part!, y]));
  let used: KeptYear[] = [];
  let unreadUsed: ProseDigest[] = [];
  let dirty = fresh;
  return {
    at(parts) {
      return proseMemo(kept, fresh, parts, code);
    },
    has(part) {
      return part.prose !== undefined && byPart.has(partName(part.prose));
    },
    digests(logs, unread = []) {
      type Item = { path: string; log?: ProseLog; year: string; part?: SnapshotPart };
      const items: Item[] = logs.map((log) => ({ path: log.path, log, year: log.date.slice(0, 4) }));
      for (const part of unread) {
        const known = part.prose && byPart.get(partName(part.prose));
        if (known === undefined || !isYear(part.key)) throw new Error(`no digest of the prose of ${part.key}`);
        // Its run must be one whole run of the path order: no other log between its first and last.
        const { first, last } = part.prose!;
        const inside = (p: string) => cmp(p, first) >= 0 && cmp(p, last) <= 0;
        if (logs.some((l) => inside(l.path)) || unread.some((o) => o !== part && o.prose && inside(o.prose.first)))
          throw new Error(`the prose of ${part.key} is not one run`);
        items.push({ path: first, year: part.key, part });
      }
      items.sort((a, b) => cmp(a.path, b.path));
      // Years in path order (memory/YYYY-...): a year split by a log of another year is two runs, each its own digest.
      const runs: (ProseLog[] | SnapshotPart)[] = [];
      let year: string | undefined;
      for (const item of items) {
        if (item.part !== undefined) runs.push(item.part);
        else {
          const last = runs[runs.length - 1];
          if (runs.length === 0 || item.year !== year || !Array.isArray(last)) runs.push([item.log!]);
          else last.push(item.log!);
        }
        year = item.year;
      }
      unreadUsed = [];
      used = runs.map((run) => {
        if (!Array.isArray(run)) {
          const known = byPart.get(partName(run.prose!))!;
          unreadUsed.push(known.digest);
          return known;
        }
        const part = partOf(run);
        const known = part === undefined ? undefined : byPart.get(part);
        if (known !== undefined) return known;
        // (The first nightly after a full run: the year is hashed once and then known by its file.)
        const hash = hashOf(run);
        const year = byHash.get(hash);
        if (year !== undefined && year.part === part) return year;
        const digest = year?.digest ?? digestProse(run);
        return part === undefined ? { hash, digest } : { hash, part, digest };
      });
      if (used.length !== kept.length || used.some((y, i) => y !== kept[i])) dirty = true;
      return used.map((y) => y.digest);
    },
    unreadDigests() {
      return unreadUsed;
    },
    settle(parts) {
      // A year digested from its logs (a full run) is known by the part file the snapshot just wrote of the same
      // logs, so the next nightly neither hashes nor reads that year's prose.
      const byKey = new Map(parts.map((p) => [p.key, p.prose]));
      used = used.map((y) => {
        const logs = y.digest.logs;
        if (y.part !== undefined || logs.length === 0) return y;
        const file = byKey.get(logs[0]!.date.slice(0, 4));
        if (file === undefined || !isYear(logs[0]!.date.slice(0, 4))) return y;
        if (file.logs !== logs.length || file.first !== logs[0]!.path || file.last !== logs[logs.length - 1]!.path)
          return y;
        dirty = true;
        return { ...y, part: partName(file) };
      });
    },
    get dirty() {
      return dirty;
    },
    serialise() {
      return JSON.stringify({ version: MEMO_VERSION, code, years: used } satisfies MemoFile);
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
    Array.isArray(x.titled) &&
    Array.isArray(x.voiced) &&
    Array.isArray(x.lower) &&
    [x.placed, x.labelled, x.spell, x.strong, x.anywhere, x.runs, x.pairs, x.lines, x.full, x.kin, x.from].every(
      (r) => typeof r === "object" && r !== null,
    )
  );
};

/** The kept digests, or none when the file is missing, of another version or code, or corrupt. */
export async function loadProseMemo(ws: Workspace, snapshot?: SnapshotParts): Promise<ProseMemo> {
  const code = await proseCode();
  try {
    const file = JSON.parse(await readFile(proseMemoPath(ws), "utf8")) as Partial<MemoFile> | null;
    if (
      file?.version === MEMO_VERSION &&
      file.code === code &&
      Array.isArray(file.years) &&
      file.years.every(
        (y) =>
          typeof y?.hash === "string" && (y.part === undefined || typeof y.part === "string") && isDigest(y.digest),
      )
    )
      return proseMemo(file.years, false, snapshot, code);
  } catch {
    // missing or corrupt derived data: digested again
  }
  return proseMemo([], true, snapshot, code);
}

/** Write the memo when it changed (atomically: a crash leaves the old file or the new one). */
export async function saveProseMemo(ws: Workspace, memo: ProseMemo | undefined): Promise<void> {
  if (memo === undefined || !memo.dirty) return;
  await writeFileAtomic(proseMemoPath(ws), memo.serialise());
}
