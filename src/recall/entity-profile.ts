/**
 * Who is who, from the core memory (MEMORY.md) and the entity pages: which lines are about
 * which entity, the other names MEMORY.md gives them ("Jonas (everyone calls him Jo)",
 * "Elin Moreau"), and the words that describe them ("QA tester", "architect"), so that an
 * entity question can be answered from its best lines and a description ("the tester from
 * France") can name the entity it means. Pure functions over lines of text.
 */
import { porterStem } from "../analysis/stem.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { fold } from "../analysis/tokens.js";
import { type EntityName, entityMatcher } from "./intent.js";

/** A line of a file (1-based line number). */
export interface TextLine {
  line: number;
  text: string;
}

/** A core-memory line about an entity. */
export interface ProfileLine extends TextLine {
  /** The entity is what the line is about (its first name, or the heading it sits under). */
  subject: boolean;
}

export interface EntityProfile {
  slug: string;
  lines: ProfileLine[];
  /** Other names the core memory gives the entity: a full name, a nickname. */
  aliases: string[];
  /** Stemmed words that describe the entity (its clauses of the core memory). */
  words: Set<string>;
}

interface Word {
  /** Folded, possessive dropped: the form entity names are matched in. */
  norm: string;
  /** As written (a surname is a capitalised word after a name). */
  raw: string;
  clause: number;
  /** Index of the name mention whose parentheses hold the word, or -1. */
  paren: number;
}

interface Mention {
  slug: string;
  start: number;
  end: number;
}

/** "calls him Jo", "signs his messages "Jo"", "aka Jo", "goes by Jo": a nickname. */
const NICKNAME =
  /\b(?:calls? (?:him|her|them)|call (?:him|her|them)|signs(?: (?:his|her|their) (?:messages|mails|emails))?|a\.?k\.?a\.?|goes by|known as|nicknamed)\s+["“'‘]?(\p{Lu}[\p{L}\p{N}-]*)/gu;

/** Words of a line with their clause (split at `. ; ! ?`) and the parenthesis they sit in. */
function splitWords(text: string): Word[] {
  const out: Word[] = [];
  let clause = 0;
  const parens: number[] = []; // for each open "(", the word index before it
  const re = /([\p{L}\p{N}]+(?:['’][\p{L}]+)?)|([.;!?](?=\s|$))|(\()|(\))/gu;
  for (const m of text.matchAll(re)) {
    if (m[2]) clause++;
    else if (m[3]) parens.push(out.length - 1);
    else if (m[4]) parens.pop();
    else if (m[1]) {
      const norm = fold(m[1]).replace(/['’]s$/, "");
      for (const part of norm.split(/['’]/)) {
        if (part) out.push({ norm: part, raw: m[1], clause, paren: parens.length > 0 ? parens.at(-1)! : -2 });
      }
    }
  }
  return out;
}

function findMentions(words: readonly Word[], entries: ReturnType<typeof entityMatcher>): Mention[] {
  const taken = new Array<boolean>(words.length).fill(false);
  const found: Mention[] = [];
  for (const entry of entries) {
    const n = entry.words.length;
    for (let i = 0; i + n <= words.length; i++) {
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = !taken[i + j] && words[i + j]!.norm === entry.words[j];
      if (!ok) continue;
      for (let j = 0; j < n; j++) taken[i + j] = true;
      found.push({ slug: entry.slug, start: i, end: i + n - 1 });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Which entity each word of a line describes: a word in parentheses after a name is that
 * name's ("Priya Raman (staff engineer)"); other words go to the nearest name of their
 * clause, the earlier one on a tie ("Elin Moreau: QA tester"); a clause without a name
 * describes the line's subject ("Based in Malmö" after "Mara Lindqvist — engineering lead").
 */
function attribute(
  words: readonly Word[],
  mentions: readonly Mention[],
  subject: string | undefined,
): Map<number, string> {
  const owner = new Map<number, string>();
  const mentionAt = new Map<number, Mention>();
  for (const m of mentions) for (let i = m.start; i <= m.end; i++) mentionAt.set(i, m);
  words.forEach((w, i) => {
    if (mentionAt.has(i)) return;
    // The name right before the "(", or a word after it ("Priya Raman (staff engineer)").
    const before = w.paren >= 0 ? mentions.findLast((m) => m.end <= w.paren && w.paren - m.end <= 1) : undefined;
    if (before) {
      owner.set(i, before.slug);
      return;
    }
    let best: Mention | undefined;
    let bestDist = Number.POSITIVE_INFINITY;
    for (const m of mentions) {
      // A name in an aside ("Jonas (everyone calls him Jo) runs support") owns only the aside.
      if (words[m.start]!.clause !== w.clause || words[m.start]!.paren !== -2) continue;
      const d = i < m.start ? m.start - i : i - m.end;
      if (d < bestDist) {
        best = m;
        bestDist = d;
      }
    }
    const slug = best?.slug ?? subject;
    if (slug) owner.set(i, slug);
  });
  return owner;
}

/** A retrieval form of a word: folded and Porter-stemmed (the line store's form). */
export function describeWord(word: string): string {
  return porterStem(fold(word));
}

/**
 * Profiles of the entities from the core memory's lines: the lines about each (subject
 * lines first, in file order), the nicknames and full names it gives them, their words.
 */
export function readCoreMemory(
  lines: readonly TextLine[],
  entities: readonly EntityName[],
): Map<string, EntityProfile> {
  const entries = entityMatcher(entities);
  const known = new Set(entries.flatMap((e) => e.words));
  const profiles = new Map<string, EntityProfile>();
  const profile = (slug: string) => {
    let p = profiles.get(slug);
    if (!p) {
      p = { slug, lines: [], aliases: [], words: new Set() };
      profiles.set(slug, p);
    }
    return p;
  };
  let heading: string | undefined;
  for (const l of lines) {
    const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(l.text);
    if (h) {
      heading = findMentions(splitWords(h[1]!), entries)[0]?.slug;
      continue;
    }
    const text = l.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "");
    const words = splitWords(text);
    if (words.length === 0) continue;
    const mentions = findMentions(words, entries);
    const subject = mentions[0]?.slug ?? heading;
    const about = new Set<string>(mentions.map((m) => m.slug));
    if (heading) about.add(heading);
    for (const slug of about) {
      profile(slug).lines.push({ line: l.line, text: l.text, subject: slug === subject || slug === heading });
    }
    const owner = attribute(words, mentions, subject);
    for (const [i, slug] of owner) {
      const w = words[i]!;
      if (w.norm.length < 2 || STOP_WORDS.has(w.norm)) continue;
      profile(slug).words.add(describeWord(w.norm));
    }
    // A capitalised word right after a name that names nothing else: a surname ("Mara Lindqvist").
    for (const m of mentions) {
      const next = words[m.end + 1];
      if (!next || next.clause !== words[m.end]!.clause || next.paren !== words[m.end]!.paren) continue;
      if (!/^\p{Lu}\p{Ll}/u.test(next.raw) || known.has(next.norm)) continue;
      const name = words
        .slice(m.start, m.end + 1)
        .map((w) => w.raw)
        .join(" ");
      addAlias(profile(m.slug), `${name} ${next.raw}`);
      addAlias(profile(m.slug), next.raw);
    }
    for (const n of text.matchAll(NICKNAME)) {
      const at = words.findIndex((w, i) => w.raw === n[1] && i > 0);
      const before = mentions.filter((m) => m.start < at && m.slug.toLowerCase() !== n[1]!.toLowerCase()).at(-1);
      const slug = before?.slug ?? subject;
      if (slug) addAlias(profile(slug), n[1]!);
    }
  }
  dropSharedAliases(profiles);
  return profiles;
}

function addAlias(p: EntityProfile, alias: string): void {
  if (!p.aliases.includes(alias) && fold(alias) !== fold(p.slug)) p.aliases.push(alias);
}

/** A surname two entities share ("Moreau") names neither. */
function dropSharedAliases(profiles: Map<string, EntityProfile>): void {
  const owners = new Map<string, Set<string>>();
  for (const p of profiles.values()) {
    for (const a of p.aliases) owners.set(fold(a), (owners.get(fold(a)) ?? new Set()).add(p.slug));
  }
  for (const p of profiles.values()) p.aliases = p.aliases.filter((a) => owners.get(fold(a))!.size === 1);
}

/**
 * The entity a description means ("the tester from France", "our architect"): the one whose
 * profile words cover most of the description's words, each word weighted by how few
 * entities it describes. Undefined when nothing matches or two entities tie.
 */
export function describedEntity(
  terms: readonly string[],
  profiles: ReadonlyMap<string, { words: ReadonlySet<string> }>,
  opts: { strict?: boolean } = {},
): string | undefined {
  const stems = [...new Set(terms.map(describeWord))].filter((s) => s.length > 1);
  if (stems.length === 0) return undefined;
  const scored: { slug: string; score: number }[] = [];
  for (const [slug, p] of profiles) {
    let score = 0;
    let matched = 0;
    for (const s of stems) {
      if (!p.words.has(s)) continue;
      const df = [...profiles.values()].filter((q) => q.words.has(s)).length;
      score += 1 / df;
      matched++;
    }
    // Strict (no "who" asked): a topic that shares one word with someone's role is still a
    // topic ("the reconciliation report" is not Priya): at least two words, all but one of them.
    if (opts.strict && (matched < 2 || matched < stems.length - 1)) continue;
    if (score > 0) scored.push({ slug, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : 1));
  const [best, second] = scored;
  if (!best || (second && second.score >= best.score)) return undefined;
  return best.slug;
}

/** The "Current state:" list of an entity page: its items, as page lines. */
export function currentStateLines(page: readonly TextLine[]): TextLine[] {
  const out: TextLine[] = [];
  let inside = false;
  for (const l of page) {
    if (/^\s*(?:#{1,6}\s*)?current state:?\s*$/i.test(l.text)) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (/^\s*[-*+]\s+/.test(l.text)) out.push(l);
    else if (l.text.trim() !== "") break;
  }
  return out;
}

/** Edit distance (adjacent swaps count one), stopping early past `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
