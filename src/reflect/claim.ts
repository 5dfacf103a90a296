/**
 * An opinion's claim as judge.ts reads it (pure): its clauses, the clauses that bear on the
 * claim (not on a rival it names), and the cues of those. Memoised: opinions are few and judged
 * against many facts.
 */
import { type CueHit, findCues } from "../analysis/cues.js";
import { reportedClaim } from "./holder.js";
import { contentTokens } from "./text.js";
import { writtenNames } from "./topic.js";

// Opinions are few and judged against many facts: their cues and tokens are computed once.
export function memo<T>(cache: Map<string, T>, key: string, make: (k: string) => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size > 5000) cache.clear();
    v = make(key);
    cache.set(key, v);
  }
  return v;
}

/**
 * Where a sentence splits into clauses that can each take their own stance. A consequence
 * dictated without its comma starts at "so" before a subject or a "no" ("it'll rain so no point
 * putting the tables out"); "so slow", "so much better" are degree, not a clause.
 */
export const CLAUSE_BREAK =
  /[,;:()]|\s[—–-]\s|\s(?:but|and|though|although|while|whereas)\s|\sso\s(?=(?:no|there|we|i|you|they|he|she|it|that|now)\s)/iu;

/** A text's first clause with words in it. */
export const firstClause = (text: string) => text.split(CLAUSE_BREAK).find((c) => c.trim() !== "") ?? text;

/** A text's content words and written names: what a clause must share to be about it. */
function aboutWords(text: string): Set<string> {
  const names = writtenNames(text);
  return new Set([...contentTokens(text), ...names.mid, ...names.lead]);
}

/**
 * The cues of a text that bear on a claim. A clause whose stance is about a rival the
 * claim never names ("I was wrong about Go, sticking with Rust was right"; "Postgres FTS
 * is fine, not worth adding Elasticsearch"; an opinion's own "no need for Kafka yet")
 * shares no word with the claim and names something else: its cues are about that
 * other thing, so they are left out. Returns the cues and the text they were read from.
 */
export function cuesAbout(claim: Set<string>, content: string): { cues: CueHit[]; text: string } {
  const clauses = content.split(CLAUSE_BREAK).filter((c) => c.trim() !== "");
  if (clauses.length < 2) return { cues: findCues(content), text: content };
  const kept = clauses.filter((clause) => {
    if (![...writtenNames(clause).mid].some((n) => !claim.has(n))) return true;
    for (const w of contentTokens(clause)) if (claim.has(w)) return true;
    return false;
  });
  if (kept.length === clauses.length || kept.length === 0) return { cues: findCues(content), text: content };
  const text = kept.join(". ");
  return { cues: findCues(text), text };
}

/**
 * The clause a claim starts with: the first, unless that only says whose it is ("per Sofia, the
 * nodes will be in by March", "according to Jonas, ..."): then the first of what was reported.
 */
export function leadClause(statement: string): string {
  const first = firstClause(statement);
  const said = reportedClaim([], statement);
  if (said === undefined || said.includes(first.trim()) || !statement.trimEnd().endsWith(said.trim())) return first;
  return firstClause(said);
}

/** An opinion's claim (its first clause, and every clause not about a rival) and the cues of that claim. */
const opinionClaimCache = new Map<string, { cues: CueHit[]; words: Set<string>; text: string }>();
export const opinionClaim = (statement: string) =>
  memo(opinionClaimCache, statement, (s) => {
    const { cues, text } = cuesAbout(aboutWords(leadClause(s)), s);
    return { cues, words: aboutWords(text), text };
  });
