import { entityKey } from "../retain/entities.js";
import { cmp } from "./format.js";
import type { ProseLine } from "./prose.js";
import { digestLines, type ProseDigest } from "./prose-digest.js";

/**
 * Two people who share a first name (gap 1 of the prose names): "Sam Whitlock" the keeper and
 * "Sam Okoro" the physio, or "my sister Jo" and "Jo Fairley". When the logs or MEMORY.md tell
 * them apart, by two surnames or by a surname and a kin word on the bare name, each gets a page
 * ("Sam-Whitlock", "Sam-Okoro"; "Jo" and "Jo-Fairley"). With no surname, where the writer knows
 * one from tells them apart too: "Jess from netball" on two lines, beside "Idris's girlfriend
 * Jess", makes "Jess" and "Jess-from-netball", whose lines say "from netball", "at the netball" or
 * write the word ("Netball: first match with Jess back"). A line naming the bare first name
 * goes to the one its own log names:
 *  1. the line writes a full name, a surname's initial ("Sam O") or the surname alone: that one;
 *  2. a kin word makes one of them the bare first name ("my sister Jo"): the writer calls
 *     that one by the first name and writes the other in full, so a bare line is hers;
 *  3. else the line or paragraph right above it names one of them: that one ("John Pryce came
 *     at four ... John said foam lagging"); a name further up the log is too far to say
 *     ("Chris Adair's last Saturday is the 30th ... [Mo's baby] ... Chris rang re: the
 *     replacement" is the area manager);
 *  4. else no page: the line is unclear, and the run says so once instead of guessing.
 * Pure: digests (and MEMORY.md's scanned lines) in, people and line owners out.
 */

export interface Person {
  /** Entity key of the page. */
  key: string;
  /** The page's name: "Sam-Whitlock", or the first name alone for the one a kin word names. */
  name: string;
  /** Entity key of the surname; undefined for the one named by first name alone. */
  surname?: string;
  /** Where the writer knows them from ("netball" of "Jess from netball"): "Jess-from-netball". */
  from?: string;
}

export interface SharedFirst {
  /** Entity key of the first name. */
  key: string;
  persons: Person[];
  /** Global (log, line) of the first name's lines -> the people they name (empty: unclear). */
  owners: Map<string, string[]>;
}

const at = (log: number, line: number) => `${log}.${line}`;

/**
 * The first names two people share, with who each of their lines names. `keyOf` keys a name
 * as the run does; `eligible` says which first-name keys may be split (a name with a page
 * from the prose, and no facts: a tagged entity is the one the facts say); `spelling` is the
 * first name's page spelling.
 */
export function sharedFirstNames(
  digests: readonly ProseDigest[],
  offsets: readonly number[],
  core: readonly ProseLine[],
  keyOf: (raw: string) => string,
  eligible: (key: string) => boolean,
  spelling: (key: string) => string,
): Map<string, SharedFirst> {
  // First-name key -> surname key -> spellings; and the first names a kin word names.
  const surnames = new Map<string, Map<string, Set<string>>>();
  const kin = new Set<string>();
  const addFull = (first: string, second: string) => {
    const key = keyOf(first);
    if (second.length < 2 || !eligible(key) || entityKey(second) === key) return;
    let bySurname = surnames.get(key);
    if (bySurname === undefined) {
      bySurname = new Map();
      surnames.set(key, bySurname);
    }
    const spellings = bySurname.get(entityKey(second)) ?? new Set<string>();
    spellings.add(second);
    bySurname.set(entityKey(second), spellings);
  };
  const addKin = (name: string) => {
    if (eligible(keyOf(name))) kin.add(keyOf(name));
  };
  // First-name key -> descriptor -> the lines saying it ("Jess from netball"), and the
  // descriptors a line also gives a kin word or a surname ("my sister Jess from netball"): those
  // tell no second person apart.
  const froms = new Map<string, Map<string, Set<string>>>();
  const mixed = new Set<string>();
  // "Pat at the allotment" only confirms a descriptor: "met Sam at the pub" tells no Sam apart.
  const fromLines = new Set<string>();
  const addFrom = (name: string, tag: string, via: string, line: string, alsoKin: boolean) => {
    const key = keyOf(name);
    if (!eligible(key)) return;
    if (alsoKin) mixed.add(`${key}\n${tag}`);
    if (via === "from") fromLines.add(`${key}\n${tag}`);
    let byTag = froms.get(key);
    if (byTag === undefined) {
      byTag = new Map();
      froms.set(key, byTag);
    }
    byTag.set(tag, (byTag.get(tag) ?? new Set<string>()).add(line));
  };
  const told = (l: ProseLine, name: string) =>
    (l.b ?? []).includes(name) || (l.f ?? []).some(([first, second]) => first === name && second.length > 1);
  for (const l of core) {
    for (const [first, second] of l.f ?? []) addFull(first, second);
    for (const name of l.b ?? []) addKin(name);
    for (const [name, tag, via] of l.g ?? []) addFrom(name, tag, via, `m${l.line}`, told(l, name));
  }
  for (const d of digests) {
    for (const pair of Object.keys(d.full)) {
      const cut = pair.indexOf("\n");
      addFull(pair.slice(0, cut), pair.slice(cut + 1));
    }
    for (const name of Object.keys(d.kin)) addKin(name);
  }
  digests.forEach((d, i) => {
    const kinAt = new Map<string, Set<string>>();
    for (const [name, packed] of Object.entries(d.kin))
      kinAt.set(name, new Set([...digestLines(packed, offsets[i]!)].map(([log, line]) => at(log, line))));
    for (const [pair, packed] of Object.entries(d.full)) {
      const cut = pair.indexOf("\n");
      if (pair.length - cut <= 2) continue; // "Sam O": an initial
      const set = kinAt.get(pair.slice(0, cut)) ?? new Set<string>();
      for (const [log, line] of digestLines(packed, offsets[i]!)) set.add(at(log, line));
      kinAt.set(pair.slice(0, cut), set);
    }
    for (const [pair, packed] of Object.entries(d.from)) {
      const [name, tag, via] = pair.split("\n") as [string, string, string];
      for (const [log, line] of digestLines(packed, offsets[i]!))
        addFrom(name, tag, via, at(log, line), kinAt.get(name)?.has(at(log, line)) ?? false);
    }
  });
  // The one descriptor a first name is told by on two lines or more, never beside its kin word
  // or a surname: "Jess from netball" twice is someone else than "Idris's girlfriend Jess". Two
  // descriptors ("Sam from work", "Sam from the office") may well be one person: neither.
  const descriptor = (key: string): string | undefined => {
    const tags = [...(froms.get(key) ?? [])].filter(
      ([tag, lines]) => lines.size >= 2 && fromLines.has(`${key}\n${tag}`) && !mixed.has(`${key}\n${tag}`),
    );
    return tags.length === 1 ? tags[0]![0] : undefined;
  };
  // A second word that is someone of their own, named without the first name on two days or
  // more ("Subs: Lou Nadia Ellie" beside Nadia's own lines), is no surname: a list without commas.
  const ownLogs = (surname: string, first: string): number => {
    const logs = new Set<number>();
    digests.forEach((d, i) => {
      const withFirst = new Set<string>();
      for (const [pair, packed] of Object.entries(d.full)) {
        const cut = pair.indexOf("\n");
        if (keyOf(pair.slice(0, cut)) === first && entityKey(pair.slice(cut + 1)) === surname)
          for (const [log, line] of digestLines(packed, 0)) withFirst.add(at(log, line));
      }
      for (const [raw, packed] of Object.entries(d.lines))
        if (entityKey(raw) === surname)
          for (const [log, line] of digestLines(packed, 0))
            if (!withFirst.has(at(log, line))) logs.add(offsets[i]! + log);
    });
    return logs.size;
  };
  const out = new Map<string, SharedFirst>();
  const firsts = [...surnames.keys(), ...[...kin, ...froms.keys()].filter((k) => !surnames.has(k)).sort(cmp)];
  for (const key of new Set(firsts)) {
    const bySurname = surnames.get(key) ?? new Map<string, Set<string>>();
    for (const surname of [...bySurname.keys()])
      if (eligible(surname) && ownLogs(surname, key) >= 2) bySurname.delete(surname);
    const first = spelling(key);
    const persons: Person[] = [...bySurname]
      .map(([surname, spellings]) => ({ key: "", name: `${first}-${[...spellings].sort(cmp)[0]}`, surname }))
      .map((p) => ({ ...p, key: entityKey(p.name) }));
    if (kin.has(key)) persons.push({ key, name: first });
    // Someone told by where from, beside someone told by a surname or a kin word.
    const tag = descriptor(key);
    if (tag !== undefined && persons.length > 0) {
      const name = `${first}-from-${tag}`;
      persons.push({ key: entityKey(name), name, from: tag });
    }
    if (persons.length < 2) continue;
    persons.sort((a, b) => cmp(a.key, b.key));
    out.set(key, { key, persons, owners: new Map() });
  }
  if (out.size === 0) return out;
  // Per shared first name: its lines, and the people each line names by itself.
  const lines = new Map<string, [number, number][]>();
  const named = new Map<string, Map<string, Set<string>>>();
  const mark = (key: string, log: number, line: number, person: string) => {
    let byLine = named.get(key);
    if (byLine === undefined) {
      byLine = new Map();
      named.set(key, byLine);
    }
    const set = byLine.get(at(log, line)) ?? new Set<string>();
    set.add(person);
    byLine.set(at(log, line), set);
  };
  // Surname key -> the shared first names and people it names (a surname alone on a line).
  const bySurnameKey = new Map<string, [string, string][]>();
  for (const s of out.values())
    for (const p of s.persons)
      if (p.surname !== undefined)
        bySurnameKey.set(p.surname, [...(bySurnameKey.get(p.surname) ?? []), [s.key, p.key]]);
  // Descriptor -> the shared first names and people it tells: "Jess from netball", and a line
  // writing the word itself ("Netball: first match with Jess back").
  const byFrom = new Map<string, [string, string][]>();
  for (const s of out.values())
    for (const p of s.persons)
      if (p.from !== undefined) byFrom.set(p.from, [...(byFrom.get(p.from) ?? []), [s.key, p.key]]);
  digests.forEach((d, i) => {
    const offset = offsets[i]!;
    for (const [raw, packed] of Object.entries(d.lines)) {
      const key = keyOf(raw);
      if (out.has(key)) lines.set(key, [...(lines.get(key) ?? []), ...digestLines(packed, offset)]);
      for (const [first, person] of [
        ...(bySurnameKey.get(entityKey(raw)) ?? []),
        ...(byFrom.get(entityKey(raw)) ?? []),
      ])
        for (const [log, line] of digestLines(packed, offset)) mark(first, log, line, person);
    }
    for (const [pair, packed] of Object.entries(d.from)) {
      const [name, tag] = pair.split("\n") as [string, string];
      const s = out.get(keyOf(name));
      const person = s?.persons.find((p) => p.from === tag);
      if (s !== undefined && person !== undefined)
        for (const [log, line] of digestLines(packed, offset)) mark(s.key, log, line, person.key);
    }
    for (const [pair, packed] of Object.entries(d.full)) {
      const cut = pair.indexOf("\n");
      const s = out.get(keyOf(pair.slice(0, cut)));
      if (s === undefined) continue;
      const second = pair.slice(cut + 1);
      // "Sam O": the one surname with that initial, when just one has it.
      const match =
        second.length === 1
          ? s.persons.filter((p) => p.surname !== undefined && p.name.slice(p.name.indexOf("-") + 1).startsWith(second))
          : s.persons.filter((p) => p.surname === entityKey(second));
      if (match.length !== 1) continue;
      for (const [log, line] of digestLines(packed, offset)) mark(s.key, log, line, match[0]!.key);
    }
    for (const [raw, packed] of Object.entries(d.kin)) {
      const s = out.get(keyOf(raw));
      if (s !== undefined) for (const [log, line] of digestLines(packed, offset)) mark(s.key, log, line, s.key);
    }
  });
  for (const s of out.values()) {
    const bare = s.persons.find((p) => p.surname === undefined && p.from === undefined);
    const all = (lines.get(s.key) ?? []).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let last: { log: number; line: number; person: string } | undefined;
    for (const [log, line] of all) {
      const here = at(log, line);
      if (s.owners.has(here)) continue;
      const own = [...(named.get(s.key)?.get(here) ?? [])].sort(cmp);
      let owners: string[];
      if (own.length > 0) owners = own;
      else if (bare !== undefined) owners = [bare.key];
      else if (last !== undefined && last.log === log && line - last.line <= 2) owners = [last.person];
      else owners = [];
      s.owners.set(here, owners);
      if (own.length === 1) last = { log, line, person: own[0]! };
      else if (own.length > 1) last = undefined;
    }
  }
  return out;
}
