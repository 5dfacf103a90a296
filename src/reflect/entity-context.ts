import { entityKey, entitySlug } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import type { EntityContext, LineMention } from "./entity-page.js";
import { nameTokens } from "./entity-page.js";
import { cmp } from "./format.js";
import { accentTies, foldName, initialTies, surnameTies } from "./name-ties.js";
import { nicknameTies } from "./nicknames.js";
import { KIN_NAMES, kinSynonyms } from "./person-words.js";
import { coreNames, coreNamesInSentences, type ProseLine, type ProseLog, scanProse } from "./prose.js";
import type { ProseMemo } from "./prose-memo.js";
import { type FirstSpelling, namesOf, type ProseDigest, type ProseNames, proseNames } from "./prose-names.js";
import { roleTies } from "./role-ties.js";
import type { SnapshotPart } from "./snapshot.js";

/**
 * What entity pages know beyond their facts (issue 10 items 4 and 6): the MEMORY.md lines
 * naming each entity, prose mentions in the logs, entities that exist only in the prose
 * (a workspace of raw chat logs), and alias suggestions. Pure.
 */
export interface EntityWorld {
  /** Entity names that get a page from the prose alone (no fact, no opinion). */
  proseOnly: string[];
  /** Entity key -> the prose spellings whose lines count for it (name-decisions.ts). */
  spellings(): Map<string, string[]>;
  /** Keys of every entity: of facts, opinions, kept pages and the prose alone. */
  knownKeys(): string[];
  /** Entity key -> where the prose first wrote its own name, and how (entitySpellings' `earlier`). */
  firstSpellings(): Map<string, FirstSpelling>;
  /** The context of one entity's page. */
  context(slug: string, facts: readonly Fact[]): EntityContext;
  /** Alias suggestions, one line each ("@Zoe and @Zoë: same name without accents"), sorted. */
  suggestions: string[];
  /** A line per first name two people share, when some of its lines say not which (cited on neither page). */
  notes: string[];
  /** Only these entities' pages will be rendered (an incremental run): index only their mentions. */
  focus(slugs: Iterable<string>): void;
  /** Prose lines naming a key, for incremental scope. */
  proseKeys(logs: readonly ProseLog[]): Set<string>;
}

export interface EntityWorldInput {
  /** Facts, entities already respelled (one spelling per key). */
  facts: readonly Fact[];
  /** Entities of opinions, also entities. */
  otherNames: readonly string[];
  /**
   * Entity pages membank wrote: they stay entities (a page whose log was deleted is re-rendered
   * without what is gone); but one with no fact or opinion does not keep MEMORY.md's nickname
   * ties from being made (a full run, which has no such page, ties "Rachel" to "Rach"; a page
   * an earlier night made before the tie must not block it).
   */
  keptPages?: readonly string[];
  prose: readonly ProseLog[];
  /** MEMORY.md's text and its path. */
  core: { path: string; text: string };
  /** Lower-cased alias -> page slug (front matter `aliases:`). */
  aliases: ReadonlyMap<string, string>;
  today: string;
  /** Kept digests of the prose (prose-memo.ts): without it every log's names are counted again. */
  proseMemo?: ProseMemo;
  /** Old years whose prose `prose` lacks (not read: the memo has their digests). */
  unread?: readonly SnapshotPart[];
}

/**
 * Thrown when `prose` lacks unread years and the memo cannot stand for them (a kept digest that
 * does not read back): the caller reads their prose (loadOldProse) and asks again.
 */
export class IncompleteProse extends Error {}

/** Alias statements in MEMORY.md: "Jonas (Jo)", "Jo, short for Jonas", "aka", "goes by". */
const ALIAS_CUE = /\b(?:aka|a\.k\.a\.?|also known as|short for|goes by|nicknamed|nickname|alias|calls|called)\b/iu;
/**
 * An alias cue between two names of a line, in one sentence: "Derek Hume, everyone calls him
 * Doc" ties Derek and Doc, not Doc and the next sentence's "the lab manager is Mrs Abernethy".
 * A name the line spells otherwise (an alias, an accent) is not found: the whole line decides.
 */
function cueBetween(text: string, a: string, b: string): boolean {
  const find = (name: string) =>
    text.search(cached(`w\u0000${name}`, () => `(?<![\\p{L}\\p{N}])${escapeRe(name)}(?![\\p{L}\\p{N}])`));
  const [i, j] = [find(a), find(b)];
  if (i < 0 || j < 0) return ALIAS_CUE.test(text);
  const [from, to] = i < j ? [i + a.length, j] : [j + b.length, i];
  const between = text.slice(from, to);
  return ALIAS_CUE.test(between) && !/[.;!?](?:\s|$)/u.test(between);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Compiled `iu` patterns by key: a Unicode-class regex costs far more to compile than to run, and
 * a MEMORY.md line of seven names asks for each name in every pair. (search and test without `g`
 * keep no state.)
 */
const PATTERNS = new Map<string, RegExp>();
function cached(key: string, source: () => string): RegExp {
  let re = PATTERNS.get(key);
  if (re === undefined) {
    if (PATTERNS.size >= 10_000) PATTERNS.clear();
    re = new RegExp(source(), "iu");
    PATTERNS.set(key, re);
  }
  return re;
}

/**
 * Nicknames MEMORY.md ties to a name ("Rachel Stein (Rach)"), for names of the prose only:
 * key of the spelling the logs use less -> the one they use more (ties: the earlier), so
 * Rach and Rachel are one page. Entities with facts are never merged: they get a suggestion.
 */
function proseTies(
  input: EntityWorldInput,
  known: ReadonlyMap<string, string>,
  unread: readonly ProseDigest[],
  core: readonly ProseLine[],
): Map<string, string> {
  const pairs = input.core.text.split(/\r?\n/).flatMap((l) => nicknameTies(l));
  const out = new Map<string, string>();
  const uses = new Map<string, { name: string; count: number }>();
  const use = (n: string, count: number) => {
    const key = entityKey(n);
    const u = uses.get(key);
    if (u === undefined) uses.set(key, { name: n, count });
    else {
      u.count += count;
      if (cmp(n, u.name) < 0) u.name = n; // one spelling per key whatever order the logs come in
    }
  };
  const titled = new Set<string>();
  // Names the logs use on their own, not only as the first word of a longer one ("Fell Garage").
  const alone = new Set<string>();
  for (const log of input.prose)
    for (const l of log.lines) {
      // As the digest reads it: not a run's first word, nor a word after an opener ("Rang Fell Garage").
      const heads = new Set([...(l.r ?? []).map((r) => r[0]), ...(l.p ?? []).map(([, second]) => second)]);
      for (const n of [...(l.k ?? []), ...(l.a ?? []), ...(l.n ?? []), ...(l.s ?? [])]) {
        use(n, 1);
        if (!heads.has(n)) alone.add(entityKey(n));
      }
      for (const n of l.t ?? []) titled.add(entityKey(n));
    }
  // Years not read: their digests count every use of each spelling (the same names as the lines above).
  for (const d of unread) {
    for (const [n, count] of Object.entries(d.spell)) {
      if (typeof count !== "number") throw new IncompleteProse(`a kept digest's count of ${n} is not a number`);
      use(n, count);
    }
    for (const n of d.titled) titled.add(entityKey(n));
    for (const n of d.alone) alone.add(entityKey(n));
  }
  const count = (key: string) => uses.get(key)?.count ?? 0;
  // "Mum (Rita)", "my dad is Colin": the writer's mum is Rita however a log writes the word
  // ("mum", "my mother", "Mom"), and her page is named as MEMORY.md names her, not "Mum".
  for (const [role, name] of roleTies(input.core.text)) {
    if (!KIN_NAMES.includes(role)) continue;
    for (const word of kinSynonyms(role)) {
      const key = entityKey(word);
      if (!known.has(key) && !input.aliases.has(word) && !out.has(key)) out.set(key, name);
    }
  }
  for (const [nearest, nick, first] of pairs) {
    // "- Rebecca Shaw (Bex)": the logs write "Rebecca" and never "Shaw", so Rebecca is Bex (and
    // Shaw follows her below); "- Daughter Lucía (Lulu)": the logs write "Lucía", so she is; "Fell
    // Garage (Kev)": "Fell" is only ever the garage's first word, so Kev is no one's nickname here.
    const name =
      first !== undefined && count(entityKey(nearest)) === 0 && alone.has(entityKey(first)) ? first : nearest;
    const [a, b] = [entityKey(name), entityKey(nick)];
    if (a === b || known.has(a) || known.has(b) || input.aliases.has(name.toLowerCase())) continue;
    if (input.aliases.has(nick.toLowerCase()) || out.has(a) || out.has(b)) continue;
    const [from, to] = count(b) > count(a) ? [a, nick] : [b, name];
    out.set(from, to);
  }
  // "Zoe" for "Zoë"; "Prof. Halvorsen" for MEMORY.md's "Prof. Ingrid Halvorsen" (after the
  // nicknames, so a surname follows its first name to the nickname page: Thorne -> Rebecca -> Bex).
  const free = (key: string) => !out.has(key) && !input.aliases.has(key);
  for (const [key, name] of accentTies(uses, known)) if (free(key)) out.set(key, name);
  for (const [key, first] of surnameTies(core, titled))
    if (free(key) && !known.has(key)) out.set(key, out.get(entityKey(first)) ?? first);
  // "Mr K", "Dr N": the one titled surname with that initial, and on to its first name as above.
  for (const [key, surname] of initialTies(titled))
    if (free(key)) out.set(key, out.get(surname) ?? known.get(surname) ?? uses.get(surname)?.name ?? surname);
  return out;
}

export function entityWorld(input: EntityWorldInput): EntityWorld {
  const known = new Map<string, string>();
  const seen = new Set<string>();
  for (const e of [...input.facts.flatMap((f) => f.entities), ...input.otherNames, ...(input.keptPages ?? [])]) {
    if (seen.has(e)) continue;
    seen.add(e);
    if (!known.has(entityKey(e))) known.set(entityKey(e), e);
  }
  const unread = input.unread ?? [];
  let digests: ProseDigest[] | undefined;
  if (input.proseMemo) {
    try {
      digests = input.proseMemo.digests(input.prose, unread);
    } catch {
      digests = undefined; // a kept digest that does not read back: count every log again
    }
  }
  if (digests === undefined && unread.length > 0) throw new IncompleteProse("no digest of the unread prose");
  const named = new Set([...input.facts.flatMap((f) => f.entities), ...input.otherNames].map(entityKey));
  const kept = new Set((input.keptPages ?? []).map(entityKey).filter((k) => !named.has(k)));
  const tieKnown = kept.size === 0 ? known : new Map([...known].filter(([k]) => !kept.has(k)));
  const coreScan = scanProse(input.core.text);
  const ties = proseTies(input, tieKnown, unread.length > 0 ? input.proseMemo!.unreadDigests() : [], coreScan);
  // An alias is its page's name in the prose too. (Memoised: years of logs repeat a few names.)
  const resolved = new Map<string, string>();
  const resolve = (name: string) => {
    let key = resolved.get(name);
    if (key === undefined) {
      const page = input.aliases.get(name.toLowerCase()) ?? ties.get(entityKey(name));
      key = page === undefined ? entityKey(name) : entityKey(page);
      resolved.set(name, key);
    }
    return key;
  };
  // Any capitalised word of MEMORY.md ("- Ines is my sister"): it still needs a use as a name in a log.
  const coreKeys = new Set(coreNames(coreScan).map(resolve));
  // Keyed as written, not through ties or aliases: a name MEMORY.md ties to another ("I call
  // him Tom") is the other's, and which spelling names its page is the ties' decision.
  const coreInSentences = new Set(
    coreNamesInSentences(coreScan)
      .filter((n) => resolve(n) === entityKey(n))
      .map(entityKey),
  );
  // Prose names keyed through the aliases, so `Jo` in a chat counts for Jonas.md when it says so.
  const canon = (x: string) => known.get(resolve(x)) ?? ties.get(entityKey(x)) ?? x;
  const split = { core: coreScan, fixed: named };
  let found: ProseNames | undefined;
  if (digests !== undefined) {
    try {
      found = namesOf(digests, known, coreKeys, canon, coreInSentences, split);
    } catch {
      found = undefined; // a kept digest that does not read back: count every log again
    }
  }
  if (found === undefined && unread.length > 0) throw new IncompleteProse("a kept digest does not read back");
  found ??= proseNames(input.prose, known, coreKeys, canon, coreInSentences, split);
  const all = new Map(known);
  const proseOnly: string[] = [];
  for (const [key, name] of found.names) {
    if (all.has(key)) continue;
    if (entitySlug(name) !== name) continue; // not a name the grammar could tag: no page
    all.set(key, name);
    proseOnly.push(name);
  }
  proseOnly.sort(cmp);

  // MEMORY.md lines by entity key.
  const coreLines = new Map<string, LineMention[]>();
  const lines = input.core.text.split(/\r?\n/);
  const scannedAt = new Map(coreScan.map((l) => [l.line, l]));
  for (let i = 0; i < lines.length; i++) {
    // "Ash" of "Ash Grove" counts for the run's page.
    const keys = new Set(nameTokens(lines[i]!).flatMap((n) => [resolve(n), found.keyOf(n)]));
    // A first name two people share: the line is theirs whose full name or kin word it writes.
    for (const key of [...keys]) {
      const people = found.split(key);
      if (people === undefined) continue;
      keys.delete(key);
      const l = scannedAt.get(i + 1);
      for (const [first, second] of l?.f ?? [])
        if (found.keyOf(first) === key && people.includes(entityKey(`${first}-${second}`)))
          keys.add(entityKey(`${first}-${second}`));
      if (people.includes(key) && (l?.b ?? []).some((n) => found.keyOf(n) === key)) keys.add(key);
    }
    for (const key of keys) {
      if (!all.has(key)) continue;
      const list = coreLines.get(key) ?? [];
      list.push({ path: input.core.path, line: i + 1, text: lines[i]!.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "") });
      coreLines.set(key, list);
    }
  }

  // Alias suggestions: same name without accents, or MEMORY.md says one is the other.
  const maybe = new Map<string, { name: string; why: string }[]>();
  const suggest = (a: string, b: string, why: string) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const list = maybe.get(entityKey(x)) ?? [];
      if (!list.some((m) => m.name === y)) list.push({ name: y, why });
      maybe.set(entityKey(x), list);
    }
  };
  const byFold = new Map<string, string[]>();
  for (const name of all.values()) byFold.set(foldName(name), [...(byFold.get(foldName(name)) ?? []), name]);
  for (const group of byFold.values()) {
    const names = [...group].sort(cmp);
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) suggest(names[i]!, names[j]!, "the same name but for accents");
  }
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const names = [...new Set(nameTokens(text).map(resolve))].filter((k) => all.has(k)).map((k) => all.get(k)!);
    if (names.length < 2) continue;
    for (const a of names) {
      for (const b of names) {
        if (cmp(a, b) >= 0) continue;
        const paren = (x: string, y: string) =>
          cached(
            `p\u0000${x}\u0000${y}`,
            () => `${escapeRe(x)}\\s*\\(\\s*["“'‘]?@?${escapeRe(y)}(?![\\p{L}\\p{N}])`,
          ).test(text);
        if (cueBetween(text, a, b) || (text.includes("(") && (paren(a, b) || paren(b, a)))) {
          suggest(
            a,
            b,
            `${input.core.path}:${i + 1} says so ("${text
              .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")
              .trim()
              .slice(0, 80)}")`,
          );
        }
      }
    }
  }
  for (const list of maybe.values()) list.sort((x, y) => cmp(x.name, y.name));
  const suggestions = [...maybe]
    .flatMap(([key, list]) => list.map((m) => ({ a: all.get(key)!, ...m })))
    .filter((s) => cmp(s.a, s.name) < 0)
    .map((s) => `@${s.a} and @${s.name} may be one entity (${s.why}): add an alias to merge their pages`)
    .sort(cmp);

  let focus: Set<string> | undefined;
  return {
    proseOnly,
    spellings: () => found.spellings(),
    knownKeys: () => [...all.keys()],
    firstSpellings: () => found.firstSpellings(),
    suggestions,
    notes: found
      .unclear()
      .flatMap(({ people, lines }) =>
        lines.length === 0
          ? []
          : [
              `${lines.length} line(s) name ${people.join(" or ")} by first name without saying which; cited on neither page: ${lines.slice(0, 3).join(", ")}${lines.length > 3 ? ", ..." : ""}`,
            ],
      ),
    context(slug, facts) {
      const key = entityKey(slug);
      const withFacts = new Set<string>();
      for (const f of facts) withFacts.add(f.source.path);
      // One loop, fresh objects (a page fills in the text of the ones it lists): thousands per 10-year entity.
      const mentions: LineMention[] = [];
      for (const m of found.linesOf(key, focus))
        if (!withFacts.has(m.path)) mentions.push({ path: m.path, line: m.line, date: m.date, text: "" });
      return {
        today: input.today,
        core: coreLines.get(key) ?? [],
        mentions,
        maybeSame: maybe.get(key) ?? [],
        known: all,
      };
    },
    focus(slugs) {
      focus = new Set([...slugs].map(resolve));
    },
    proseKeys(logs) {
      const keys = new Set<string>();
      for (const log of logs)
        for (const l of log.lines)
          for (const n of [...(l.k ?? []), ...(l.a ?? []), ...(l.n ?? []), ...(l.s ?? [])]) {
            keys.add(resolve(n));
            keys.add(found.keyOf(n)); // "Ash" of "Ash Grove" is the run's page
            for (const person of found.split(found.keyOf(n)) ?? []) keys.add(person);
          }
      return keys;
    },
  };
}
