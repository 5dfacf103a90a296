/**
 * Per-fact derived data the render half of reflect needs on every run (derived, in
 * .memory/reflect/render-memo.json): whether a fact carries a change cue (proposals.ts)
 * with its content words, and its facet with its word stems (facets.ts). A +1-day nightly
 * renders a few pages of entities with ten years of facts: without this it tokenizes and
 * cue-matches those thousands of facts again every night for a page that changes by one.
 *
 * A cache, never truth: an entry counts only for the same fact id (a hash of its date and
 * content) and content length, and the whole file only for this version and this code (the
 * fingerprint below); missing, stale or corrupt means everything is derived again, to the
 * same pages.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { AFFIRMING_NEGATIONS, CUE_LISTS, NEGATIVE_OUTCOME_WORDS } from "../analysis/cue-lists.js";
import { CUE_WORDS } from "../analysis/cues.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { CHOICE_VERDICTS, DOUBTED_VERDICTS } from "../analysis/verdicts.js";
import type { Fact } from "../retain/types.js";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { derivingCode } from "./code-fingerprint.js";
import { FACETS, factFacet } from "./facets.js";
import { type KeyedMemoFile, readKeyedMemo } from "./keyed-memo.js";
import { CHANGE_CUES, carriesChange } from "./proposals.js";
import { contentTokens } from "./text.js";

/**
 * Bump when what an entry holds, or how it is derived, changes in a way the fingerprint
 * cannot see (a regex literal inside src/analysis/cues.ts, say).
 */
const MEMO_VERSION = 3;

export const factMemoPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "render-memo.json");

/** Per fact: content length (see stamp); change cue (0 not derived yet, 1 none, else its content words); facet (0, 1 none, [rule, stems]). */
type Entry = [length: number, change: 0 | 1 | string, facet: 0 | 1 | [rule: number, stems: string]];

/** Ids and entries as two lists: an object of 20k keys parses into a slow dictionary. */
type MemoFile = KeyedMemoFile<unknown>;

/**
 * What an entry is checked against besides the fact's id. The id is a hash of the date and
 * the content up to case and spaces, and every derivation here ignores case and spaces; the
 * length is a cheap guard for a text that changed under a kept id all the same.
 */
const stamp = (fact: Fact): number => fact.content.length;

const toSet = (joined: string) => new Set(joined === "" ? [] : joined.split(" "));
const validEntry = (e: unknown): e is Entry =>
  Array.isArray(e) &&
  e.length === 3 &&
  typeof e[0] === "number" &&
  (e[1] === 0 || e[1] === 1 || typeof e[1] === "string") &&
  (e[2] === 0 || e[2] === 1 || (Array.isArray(e[2]) && typeof e[2][0] === "number" && typeof e[2][1] === "string"));

/**
 * The word lists the entries are derived with. The functions' code is in the fingerprint
 * (code-fingerprint.ts hashes their modules' source), not here as `String(fn)`: esbuild and
 * tsc print a function differently, so its text would give the bundled CLI another code than
 * the library build of the same source, and each would throw away the other's memo.
 */
const SEEN_CODE = [
  MEMO_VERSION,
  CHANGE_CUES.source,
  JSON.stringify([CUE_LISTS, NEGATIVE_OUTCOME_WORDS, AFFIRMING_NEGATIONS, DOUBTED_VERDICTS, CHOICE_VERDICTS, FACETS]),
  [...STOP_WORDS, "|", ...CUE_WORDS].join(" "),
].join("\n");

/** The fingerprint: the above plus the text of the code itself (code-fingerprint.ts). */
let codeOnce: Promise<string> | undefined;
export const MEMO_CODE = (): Promise<string> => {
  codeOnce ??= derivingCode().then((code) =>
    createHash("sha256").update(SEEN_CODE).update(code).digest("hex").slice(0, 16),
  );
  return codeOnce;
};

export interface FactMemo {
  /** The fact's content words when it carries a change cue, undefined when it does not. */
  changeTokens(fact: Fact): Set<string> | undefined;
  /** The fact's facet rule (index in FACETS) and stems, undefined when it is on no facet. */
  facet(fact: Fact): { rule: number; tokens: Set<string> } | undefined;
  /** Entries added, changed or dropped since the file was read. */
  readonly dirty: boolean;
  /** The file's content: entries of the memo's facts only (a deleted fact's entry goes), by id. */
  serialise(): string;
}

/**
 * Entries of facts the file has no entry for, derived in this run, that do not make the file
 * be written again on their own: a nightly adds a handful of facts, and rewriting ten years of
 * entries (~0.4 MB) for them costs more than deriving them again the next night. Once there
 * are more, the file is rewritten with them all.
 */
export const NEW_ENTRIES_UNSAVED = 256;

/** A memo for `facts`, starting from the stored entries (none: everything is derived). */
export function factMemo(facts: readonly Fact[], code: string, stored?: ReadonlyMap<string, unknown>): FactMemo {
  // Stored entries are checked when first asked for (a nightly asks for a few thousand of 20k).
  const kept: ReadonlyMap<string, unknown> = stored ?? new Map();
  const entries = new Map<string, Entry>();
  let changed = stored === undefined;
  // Facts without a stored entry: their entries are new, so only their number counts (above).
  const fresh = new Set<string>();
  const entryOf = (fact: Fact): Entry => {
    let e = entries.get(fact.id);
    if (e === undefined) {
      const old = kept.get(fact.id);
      e = validEntry(old) && old[0] === stamp(fact) ? old : [stamp(fact), 0, 0];
      if (old === undefined) fresh.add(fact.id);
      else if (e !== old) changed = true;
      entries.set(fact.id, e);
    }
    return e;
  };
  const derived = (fact: Fact) => {
    if (!fresh.has(fact.id)) changed = true;
  };
  const changeSets = new Map<string, Set<string> | undefined>();
  const facetSets = new Map<string, { rule: number; tokens: Set<string> } | undefined>();
  return {
    changeTokens(fact) {
      // Most facts carry no change cue, and proposals ask for every fact of each entity MEMORY.md names: a kept
      // "none" answers at once (serialise writes a kept entry as it is, so nothing needs recording).
      if (!entries.has(fact.id)) {
        const old = kept.get(fact.id);
        if (old !== undefined && validEntry(old) && old[0] === stamp(fact) && old[1] === 1) return undefined;
      }
      if (changeSets.has(fact.id)) return changeSets.get(fact.id);
      const e = entryOf(fact);
      if (e[1] === 0) {
        e[1] = carriesChange(fact.content) ? [...contentTokens(fact.content)].join(" ") : 1;
        derived(fact);
      }
      const out = e[1] === 1 ? undefined : toSet(e[1]);
      changeSets.set(fact.id, out);
      return out;
    },
    facet(fact) {
      if (facetSets.has(fact.id)) return facetSets.get(fact.id);
      const e = entryOf(fact);
      if (e[2] === 0) {
        const found = factFacet(fact.content);
        e[2] = found === undefined ? 1 : [found.rule, [...found.tokens].join(" ")];
        derived(fact);
      }
      const out = e[2] === 1 ? undefined : { rule: e[2][0], tokens: toSet(e[2][1]) };
      facetSets.set(fact.id, out);
      return out;
    },
    get dirty() {
      if (changed || fresh.size > NEW_ENTRIES_UNSAVED) return true;
      // Entries of facts that are gone are dropped: a rewrite when there are any.
      const live = new Set(facts.map((f) => f.id));
      for (const id of kept.keys()) if (!live.has(id)) return true;
      return false;
    },
    serialise() {
      const ids: string[] = [];
      const out: unknown[] = [];
      const seen = new Set<string>();
      // In the facts' order (the logs' order): the same facts and entries give the same bytes.
      for (const f of facts) {
        if (seen.has(f.id)) continue;
        seen.add(f.id);
        const e = entries.get(f.id) ?? kept.get(f.id);
        if (e === undefined || !validEntry(e)) continue;
        ids.push(f.id);
        out.push(e);
      }
      return JSON.stringify({ version: MEMO_VERSION, code, ids, entries: out } satisfies MemoFile);
    },
  };
}

/** The memo in the workspace, or an empty one when the file is missing, of another version or code, or corrupt. */
export async function loadFactMemo(ws: Workspace, facts: readonly Fact[]): Promise<FactMemo> {
  const code = await MEMO_CODE();
  const kept = await readKeyedMemo<unknown>(factMemoPath(ws), MEMO_VERSION, code);
  if (kept !== undefined) return factMemo(facts, code, kept);
  return factMemo(facts, code);
}

/** Write the memo when it changed (atomically: a crash leaves the old file or the new one). */
export async function saveFactMemo(ws: Workspace, memo: FactMemo | undefined): Promise<void> {
  if (memo === undefined || !memo.dirty) return;
  await writeFileAtomic(factMemoPath(ws), memo.serialise());
}
