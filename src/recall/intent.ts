import { NOUN_STOP_WORDS, STOP_WORDS } from "../analysis/stopwords.js";
import { isExactToken, joinedCompound, nameWords, rawTokens, splitCompound } from "../analysis/tokens.js";
import { eventWindow, parseEventAnchor } from "./event-time.js";
import { parseTimeWindow, type TimeWindow } from "./timewindow.js";

/** An entity recall can recognise: its slug (`The-Castle`) and any other names or aliases. */
export interface EntityName {
  slug: string;
  names?: string[];
}

/** The kinds of question of DESIGN.md 3; a query may be several at once. */
export type QuestionKind = "lexical" | "entity" | "time" | "opinion";

export interface LexicalTerm {
  /** Lower-cased word, or an exact token as written (FJD-482, LEDGER_SYNC_BATCH=500). */
  text: string;
  exact: boolean;
  /**
   * The token a joined or split form stands for ("ledgersync" for "ledger-sync", "check-in"
   * for "checkin"): the same word, not another.
   */
  joinedFrom?: string;
}

export interface Intent {
  /** Entity slugs named in the query, in order of appearance. */
  entities: string[];
  window?: TimeWindow;
  kinds: QuestionKind[];
  /** Retrieval words: stop words and time phrases removed. */
  terms: LexicalTerm[];
  /** The terms that are not part of a named entity ("ramp" in "will Noor ramp up?"). */
  contentTerms: LexicalTerm[];
  /** The opinion cue that matched ("prefer", "still think"), when any. */
  opinionCue?: string;
}

/** Words that mark a question about opinions, preferences and beliefs. */
const OPINION_CUE =
  /\b(still (?:think|thinks|believe|believes|prefer|prefers|like|likes)|prefers?|preferred|preferences?|thinks?|thought|believes?|beliefs?|opinions?|feels? about|views? on|stance|likes?|dislikes?|favou?rite|rather|confiden(?:t|ce)|trusts?|recommends?)\b/i;

/**
 * "When did I last see Frank?", "the last time I spoke to Ana": the latest line naming the
 * person answers, whatever it says; the verb of meeting is no topic to search for.
 */
export const LAST_MET =
  /\b(?:last\s+(?:time\s+(?:i|we)\s+)?|(?:i|we)\s+last\s+)(?:see|saw|seen|meet|met|visit|visited|speak|spoke|spoken|talk|talked|chat|chatted|hear|heard|catch|caught|call|called|ring|rang|phoned?|text|texted|went)\b/i;
const MEETING_WORDS = new Set(
  "last time see saw seen meet met visit visited speak spoke spoken talk talked chat chatted hear heard catch caught call called ring rang phone phoned text texted went go".split(
    " ",
  ),
);

/**
 * A question after the latest state: "last" before a verb ("did I last see", "was last
 * there", "did we last do the laundry"), not before a unit or a day ("last week", "last Tuesday": a window, timewindow.ts).
 */
export const LATEST_QUESTION =
  /\b(?:last\s+time|latest|most\s+recent(?:ly)?|last\s+(?:do|go))\b|\blast\s+(?!(?:week|month|year|night|weekend|time|spring|summer|autumn|fall|winter|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b)[a-z]+(?:ed|ing|s|w|t|n|d|e)\b/i;

/**
 * A question after the earliest: "first" before a verb ("did I first meet") or a thing
 * ("the first swarm", "my first lesson"), "earliest", "first time"; not "first" before a
 * unit ("the first week of May": a window, timewindow.ts) or "first of all".
 */
export const EARLIEST_QUESTION =
  /\b(?:earliest|first\s+time|(?:i|we|you|he|she|they|it)\s+first\s+[a-z]+|(?:the|my|our|your|his|her|their)\s+(?:very\s+)?first\s+(?!(?:week|month|year|weekend|day|night|quarter|half|of|thing)s?\b)[a-z]+)/i;

interface NameEntry {
  slug: string;
  words: string[];
}

/** Entity names as word sequences, longest first, so "ledger sync" wins over "ledger". */
export function entityMatcher(entities: readonly EntityName[]): NameEntry[] {
  const entries: NameEntry[] = [];
  const seen = new Set<string>();
  for (const e of entities) {
    for (const name of [e.slug, ...(e.names ?? [])]) {
      const words = nameWords(name);
      const key = `${e.slug}\u0000${words.join(" ")}`;
      if (words.length === 0 || seen.has(key)) continue;
      seen.add(key);
      entries.push({ slug: e.slug, words });
    }
  }
  entries.sort((a, b) => b.words.length - a.words.length || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return entries;
}

/**
 * Entities named in the query: case-, accent- and slug-insensitive (`ledger-sync` =
 * `Ledger Sync` = `@ledger-sync`), possessives allowed (`Priya's`), whole words only.
 */
export function matchEntities(query: string, entities: readonly EntityName[] | NameEntry[]): string[] {
  return findEntities(query, entities).slugs;
}

function findEntities(
  query: string,
  entities: readonly EntityName[] | NameEntry[],
): { slugs: string[]; words: Set<string> } {
  const entries =
    entities.length > 0 && "words" in (entities[0] as object)
      ? (entities as NameEntry[])
      : entityMatcher(entities as EntityName[]);
  // An exact token with digits or `=` (LEDGER_SYNC_BATCH=500, a91f3c2) names a value, not an entity.
  const words = nameWords(
    rawTokens(query)
      .filter((t) => !(isExactToken(t) && /[\p{N}=]/u.test(t)))
      .join(" "),
  );
  const taken = new Array<boolean>(words.length).fill(false);
  const found: { slug: string; at: number }[] = [];
  for (const entry of entries) {
    const n = entry.words.length;
    for (let i = 0; i + n <= words.length; i++) {
      let ok = true;
      for (let j = 0; j < n; j++) {
        if (taken[i + j] || words[i + j] !== entry.words[j]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      for (let j = 0; j < n; j++) taken[i + j] = true;
      found.push({ slug: entry.slug, at: i });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const slugs: string[] = [];
  for (const f of found) if (!slugs.includes(f.slug)) slugs.push(f.slug);
  const matched = new Set<string>();
  words.forEach((w, i) => {
    if (taken[i]) matched.add(w);
  });
  return { slugs, words: matched };
}

/** "show me", "can you show", "please show": a request; "the flower show", "when is the show": a thing. */
const REQUEST_BEFORE = new Set(["you", "please", "and", "then"]);
const OBJECT_AFTER = new Set(["me", "us", "you", "him", "her", "them", "all", "every", "everything"]);

/** A stop word that is a noun here (NOUN_STOP_WORDS): not opening a request nor before its object. */
function isNounUse(word: string, before: string | undefined, after: string | undefined): boolean {
  if (!NOUN_STOP_WORDS.has(word) || before === undefined) return false;
  return !REQUEST_BEFORE.has(before.toLowerCase()) && !OBJECT_AFTER.has((after ?? "").toLowerCase());
}

/** Retrieval terms: exact tokens kept whole, other words lower-cased, stop words dropped. */
export function lexicalTerms(query: string): LexicalTerm[] {
  const out: LexicalTerm[] = [];
  const seen = new Set<string>();
  const tokens = rawTokens(query);
  for (const [i, raw] of tokens.entries()) {
    const token = raw.replace(/^@+/, "").replace(/['’]s$/i, "");
    if (token.length === 0) continue;
    if (isExactToken(token)) {
      if (!seen.has(token)) out.push({ text: token, exact: true });
      seen.add(token);
      // "de-stress" also asks for "destress" (the index holds the parts of a hyphenated word)
      const joined = joinedCompound(token)?.toLowerCase();
      if (joined && !seen.has(joined) && !STOP_WORDS.has(joined))
        out.push({ text: joined, exact: false, joinedFrom: token });
      if (joined) seen.add(joined);
      continue;
    }
    for (const w of nameWords(token)) {
      if ((STOP_WORDS.has(w) && !isNounUse(w, tokens[i - 1], tokens[i + 1])) || seen.has(w)) continue;
      seen.add(w);
      out.push({ text: w, exact: false });
      // "checkin" also asks for "check-in" (indexed as the phrase "check in"), "email" for "e-mail".
      const split = splitCompound(w);
      if (split && !seen.has(split)) {
        seen.add(split);
        out.push({ text: split, exact: true, joinedFrom: w });
      }
    }
  }
  return out;
}

export interface IntentOptions {
  asOf: Date;
  /** Known entities (slugs with names and aliases) to match in the query. */
  entities?: readonly EntityName[];
  /**
   * The day of an event the question is anchored to ("the day after the flood"), from its
   * words: event-time.ts findEventDay over the logs. Without it such anchors name no time.
   */
  eventDay?: (words: readonly string[]) => string | undefined;
}

/**
 * The question's time window (a date it names, or an event the logs date: "the day after the
 * flood") and the question without it. Such an anchor is read first: chrono would read "the
 * day after" as tomorrow.
 */
function timeWindow(query: string, opts: IntentOptions): { window?: TimeWindow; rest: string } {
  const anchor = opts.eventDay ? parseEventAnchor(query) : undefined;
  const without = (text: string) => query.replace(text, " ".repeat(text.length));
  if (!anchor) {
    const window = parseTimeWindow(query, opts.asOf);
    return window ? { window, rest: without(window.text) } : { rest: query };
  }
  const day = opts.eventDay!(anchor.words);
  if (day) return { window: eventWindow(anchor, day), rest: without(anchor.text) };
  // An event the logs do not date: its name stays search words, the words before it
  // ("the day after the") are no time (chrono would read "tomorrow") and no search words.
  const rest = without(anchor.lead);
  const window = parseTimeWindow(rest, opts.asOf);
  return window ? { window, rest: rest.replace(window.text, " ") } : { rest };
}

/** Understand a recall query: which entities, which time window, which kinds of question, which words. */
export function understandQuery(query: string, opts: IntentOptions): Intent {
  // The time phrase is structure, not words to search for.
  const { window, rest } = timeWindow(query, opts);
  const { slugs: entities, words: entityWords } = findEntities(query, opts.entities ?? []);
  const allTerms = lexicalTerms(rest);
  const cue = OPINION_CUE.exec(query);
  const kinds: QuestionKind[] = [];
  if (entities.length > 0) kinds.push("entity");
  if (window) kinds.push("time");
  if (cue) kinds.push("opinion");
  // "Tell me about Priya" is an entity question; it is lexical too when other words remain.
  const lastMet = entities.length > 0 && LAST_MET.test(query);
  const terms = lastMet ? allTerms.filter((t) => !MEETING_WORDS.has(t.text)) : allTerms;
  const contentTerms = terms.filter((t) => !nameWords(t.joinedFrom ?? t.text).every((w) => entityWords.has(w)));
  if (contentTerms.length > 0) kinds.push("lexical");
  const intent: Intent = { entities, kinds, terms, contentTerms };
  if (window) intent.window = window;
  if (cue) intent.opinionCue = cue[1]!.toLowerCase();
  return intent;
}
