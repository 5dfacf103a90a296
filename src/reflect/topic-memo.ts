/**
 * What each opinion's topic is made of, kept between runs (derived, in
 * .memory/reflect/topic-memo.json). Evolve reads every opinion's statement every night (its
 * holder, cues, words: topic.ts statementCore), and on a night with few facts that is most of
 * its time: V8 compiles the analyzer's patterns on their first use in a process. The parts
 * that depend on which names are known (plain-text mentions) are read again each run.
 *
 * A cache, never truth: keyed by the statement's entities, text and MEMORY.md's role ties,
 * under the code fingerprint; another version or code, a corrupt or missing file or entry
 * means the statement is read again, to the same topic.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";
import { derivingCode } from "./code-fingerprint.js";
import { dropsStored, readKeyedMemo, serialiseKeyedMemo } from "./keyed-memo.js";
import { type KnownNames, type StatementCore, type StatementTopic, statementCore, withKnownNames } from "./topic.js";

/** Bump when what an entry means changes in a way the code fingerprint cannot see. */
const MEMO_VERSION = 1;

export const topicMemoPath = (ws: Workspace) => path.join(stateDir(ws), "reflect", "topic-memo.json");

export interface TopicMemo {
  /** statementTopic(entities, content, known), its core from the memo when it has the statement. */
  topic(entities: readonly string[], content: string, known?: KnownNames): StatementTopic;
  /** Entries differ from the file read. */
  readonly dirty: boolean;
  serialise(): string;
}

/** A core as JSON text: its sets as `{"$set": [...]}`, in their order. */
const encode = (core: StatementCore) =>
  JSON.stringify(core, (_k, v: unknown) => (v instanceof Set ? { $set: [...v] } : v));

const SETS = ["words", "subject", "reporters", "judgedWords", "answers"] as const;
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((w) => typeof w === "string");
const isSet = (x: unknown) => x instanceof Set && [...x].every((w) => typeof w === "string");

/** The core an entry holds, or undefined when it is not one (corrupt, edited by hand). */
function decode(text: unknown): StatementCore | undefined {
  if (typeof text !== "string") return undefined;
  let core: Record<string, unknown>;
  try {
    core = JSON.parse(text, (_k, v: unknown) =>
      v !== null && typeof v === "object" && "$set" in v && isStrings((v as { $set: unknown }).$set)
        ? new Set((v as { $set: string[] }).$set)
        : v,
    );
  } catch {
    return undefined;
  }
  if (core === null || typeof core !== "object" || !isStrings(core.keys) || !(core.words instanceof Set))
    return undefined;
  if (typeof core.cued !== "boolean") return undefined;
  for (const k of SETS) if (core[k] !== undefined && !isSet(core[k])) return undefined;
  const names = core.names as { mid?: unknown; lead?: unknown } | undefined;
  if (names !== undefined && (!isSet(names?.mid) || !isSet(names?.lead))) return undefined;
  const scaled = core.scaled as { scale?: unknown; words?: unknown } | undefined;
  if (scaled !== undefined && (typeof scaled?.scale !== "string" || !isSet(scaled.words))) return undefined;
  for (const k of ["holder", "judged", "lost"])
    if (core[k] !== undefined && typeof core[k] !== "string") return undefined;
  return core as unknown as StatementCore;
}

const keyOf = (entities: readonly string[], content: string, roles: ReadonlyMap<string, string> | undefined) =>
  createHash("sha256")
    .update(JSON.stringify([entities, content, roles === undefined ? null : [...roles]]))
    .digest("hex")
    .slice(0, 24);

/** A memo starting from stored entries (none: every statement is read). */
export function topicMemo(code: string, stored?: ReadonlyMap<string, unknown>): TopicMemo {
  const entries = new Map<string, string>();
  let changed = stored === undefined;
  return {
    topic(entities, content, known) {
      const key = keyOf(entities, content, known?.roles);
      const text = entries.get(key) ?? stored?.get(key);
      let core = decode(text);
      if (core === undefined) {
        core = statementCore(entities, content, known?.roles);
        entries.set(key, encode(core));
        changed = true;
      } else entries.set(key, text as string);
      return withKnownNames(core, entities, content, known);
    },
    get dirty() {
      // A statement no longer asked for (its opinion gone): its entry goes.
      return changed || dropsStored(stored, entries);
    },
    serialise() {
      return serialiseKeyedMemo(MEMO_VERSION, code, entries);
    },
  };
}

/** The memo in the workspace, or an empty one when missing, of another version or code, or corrupt. */
export async function loadTopicMemo(ws: Workspace): Promise<TopicMemo> {
  const code = await derivingCode();
  return topicMemo(code, await readKeyedMemo<string>(topicMemoPath(ws), MEMO_VERSION, code));
}

/** Write the memo when it changed (atomically). */
export async function saveTopicMemo(ws: Workspace, memo: TopicMemo | undefined): Promise<void> {
  if (memo === undefined || !memo.dirty) return;
  await writeFileAtomic(topicMemoPath(ws), memo.serialise());
}
