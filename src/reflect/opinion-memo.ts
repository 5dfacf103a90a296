/**
 * The opinions page without re-rendering every opinion (derived, in
 * .memory/reflect/opinion-memo.json). Ten years are a 1 MB page of a few dozen opinions with
 * thousands of evidence rows; a nightly moves one or two of them. Per opinion the memo keeps
 * a hash of the opinion as it was rendered (its JSON: every field renderOpinion reads) and
 * the hash of the body that gave (the region's `sha=`). When this run's opinion hashes the
 * same and its region on the page is unedited with that `sha=`, the region's body IS
 * renderOpinion's output: it is taken as it is.
 *
 * A cache, never truth: another version or code (the fingerprint), a corrupt or missing file,
 * an edited region or any changed field means the opinion is rendered, to the same bytes.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { type Evidence, type Opinion, renderOpinion, sortEvidence } from "../markdown/opinions.js";
import { bodyHash } from "../markdown/regions.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { derivingCode } from "./code-fingerprint.js";
import { dropsStored, readKeyedMemo, serialiseKeyedMemo } from "./keyed-memo.js";

/** Bump when what an entry means changes in a way the code fingerprint cannot see. */
const MEMO_VERSION = 2;

export const opinionMemoPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "opinion-memo.json");

/** An unedited opinion region of the page: its body with LF line endings and its recorded hash. */
export interface KeptRegion {
  body: string;
  sha: string;
}

/** Per opinion id: [hash of the opinion's JSON, hash of its rendered body, hash of its canonical JSON]. */
type Entry = [input: string, body: string, canonical: string];

export interface OpinionMemo {
  /** renderOpinion(op), from the kept region when the memo vouches for it. */
  render(op: Opinion, kept: KeptRegion | undefined): string;
  /** Entries differ from the file read. */
  readonly dirty: boolean;
  serialise(): string;
}

/**
 * The evidence in the order renderOpinion lists it (supporting, then contradicting, each by
 * sortEvidence): the page lists it by stance, a run by day, and the same rows must hash the
 * same. Rows the sort cannot tell apart keep their order (then the order is part of the input).
 */
function inRenderOrder(evidence: readonly Evidence[]): readonly Evidence[] {
  const sorted = [
    ...sortEvidence(evidence.filter((e) => e.stance === "support")),
    ...sortEvidence(evidence.filter((e) => e.stance === "contradict")),
  ];
  if (sorted.length !== evidence.length) return evidence;
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (
      a.stance === b.stance &&
      a.date === b.date &&
      a.source.path === b.source.path &&
      a.source.line === b.source.line &&
      a.factId === b.factId
    )
      return evidence;
  }
  return sorted;
}

const hashOf = (json: string) => createHash("sha256").update(json).digest("hex").slice(0, 16);

/** The opinion's JSON as it is: the same opinion read back from the same page gives the same text (a night's fast path). */
const inputHash = (op: Opinion) => hashOf(JSON.stringify(op));

/** A copy with every object's keys in sorted order (JSON.stringify then writes them so). */
function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedCopy((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * A hash of every field renderOpinion reads, in one order: keys sorted, evidence in render
 * order. An opinion parsed back from the page and the same opinion as evolve built it (a full
 * run's) differ in both orders: without this the first night after a full run renders every
 * opinion again. Asked only when the plain hash differs (it costs more).
 */
const canonicalHash = (op: Opinion) =>
  hashOf(JSON.stringify(sortedCopy({ ...op, evidence: inRenderOrder(op.evidence) })));

const validEntry = (e: unknown): e is Entry =>
  Array.isArray(e) && e.length === 3 && e.every((x) => typeof x === "string");

/** A memo starting from stored entries (none: every opinion is rendered). */
export function opinionMemo(code: string, stored?: ReadonlyMap<string, unknown>): OpinionMemo {
  const entries = new Map<string, Entry>();
  let changed = stored === undefined;
  return {
    render(op, kept) {
      const key = inputHash(op);
      const old = stored?.get(op.id);
      const valid = validEntry(old);
      let entry: Entry | undefined;
      let body: string | undefined;
      if (kept !== undefined && valid && old[1] === kept.sha) {
        if (old[0] === key) entry = old;
        else {
          // The same opinion with its fields or evidence in another order (read back after a full run)?
          const canonical = canonicalHash(op);
          if (old[2] === canonical) entry = [key, old[1], canonical];
        }
        if (entry !== undefined) body = kept.body;
      }
      if (body === undefined || entry === undefined) {
        body = renderOpinion(op);
        entry = [key, bodyHash(body), canonicalHash(op)];
      }
      if (!valid || entry.some((x, i) => x !== old[i])) changed = true;
      entries.set(op.id, entry);
      return body;
    },
    get dirty() {
      // An opinion gone from the page (its region deleted): its entry goes.
      return changed || dropsStored(stored, entries);
    },
    serialise() {
      // In render order (the page's order): the same opinions give the same bytes.
      return serialiseKeyedMemo(MEMO_VERSION, code, entries);
    },
  };
}

/** The memo in the workspace, or an empty one when missing, of another version or code, or corrupt. */
export async function loadOpinionMemo(ws: Workspace): Promise<OpinionMemo> {
  const code = await derivingCode();
  const kept = await readKeyedMemo<Entry>(opinionMemoPath(ws), MEMO_VERSION, code);
  if (kept !== undefined) return opinionMemo(code, kept);
  return opinionMemo(code);
}

/** Write the memo when it changed (atomically). */
export async function saveOpinionMemo(ws: Workspace, memo: OpinionMemo | undefined): Promise<void> {
  if (memo === undefined || !memo.dirty) return;
  await writeFileAtomic(opinionMemoPath(ws), memo.serialise());
}
