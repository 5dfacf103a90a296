import { entityKey } from "../retain/entities.js";
import { cmp } from "./format.js";
import type { ProseLine } from "./prose.js";

/**
 * Two more ways one person gets two names in prose-only logs, besides a nickname MEMORY.md
 * gives (nicknames.ts). Pure: names and counts in, key -> name ties out.
 */

/** A name without accents or case: Zoë and zoe are the same fold. */
export function foldName(name: string): string {
  return entityKey(name).normalize("NFD").replace(/\p{M}/gu, "");
}

/**
 * Spellings that differ only by accents ("Zoë" and "Zoe", "José" and "Jose"): people type a
 * name without its accent on a phone or in a hurry, and it is still the same person. The key
 * of each other spelling -> the spelling that wins: an entity with facts (`known`, when just
 * one of the group has facts: two with facts are two entities someone made, and only get a
 * suggestion), else the one used most (ties: the first by code point).
 */
export function accentTies(
  uses: ReadonlyMap<string, { name: string; count: number }>,
  known: ReadonlyMap<string, string>,
): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const key of new Set([...uses.keys(), ...known.keys()])) {
    const f = foldName(key);
    const list = groups.get(f);
    if (list === undefined) groups.set(f, [key]);
    else list.push(key);
  }
  const out = new Map<string, string>();
  for (const keys of groups.values()) {
    if (keys.length < 2) continue;
    const withFacts = keys.filter((k) => known.has(k));
    if (withFacts.length > 1) continue;
    let win = withFacts[0];
    if (win === undefined) {
      const count = (k: string) => uses.get(k)?.count ?? 0;
      win = [...keys].sort((a, b) => count(b) - count(a) || cmp(a, b))[0]!;
    }
    const name = known.get(win) ?? uses.get(win)!.name;
    for (const k of keys) if (k !== win) out.set(k, name);
  }
  return out;
}

/**
 * Surnames MEMORY.md gives a first name ("Prof. Ingrid Halvorsen", "Alasdair Duguid") that the
 * logs use after a title ("Prof. Halvorsen stopped by", "Mr Duguid asked"): key of the surname
 * -> the first name, so the person has one page. Only a surname seen after a title: "New York"
 * names no one York. A surname two first names share ("Tomás Reyes", "Lucía Reyes") is neither's.
 */
export function surnameTies(core: readonly ProseLine[], titled: ReadonlySet<string>): Map<string, string> {
  const firsts = new Map<string, Set<string>>();
  for (const l of core)
    for (const run of l.r ?? []) {
      if (run.length !== 2) continue;
      const [first, last] = run as [string, string];
      const key = entityKey(last);
      if (!titled.has(key) || key === entityKey(first)) continue;
      const set = firsts.get(key) ?? new Set<string>();
      set.add(first);
      firsts.set(key, set);
    }
  const out = new Map<string, string>();
  for (const [key, set] of firsts) if (set.size === 1) out.set(key, [...set][0]!);
  return out;
}

/**
 * A title and an initial ("Mr K", "Dr N", as scanLine writes them) for the one surname the logs
 * write after a title with that initial ("Mr Kowalski", "Dr Nwosu"): key of the initial form ->
 * key of the surname. Two such surnames ("Mr Kowalski", "Mrs Kaur") make "Mr K" neither's.
 * `titled` are keys of names seen after a title.
 */
export function initialTies(titled: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const form of titled) {
    const m = /^\p{L}+ (\p{Ll})$/u.exec(form);
    if (!m) continue;
    const surnames = [...titled].filter((k) => k.length > 1 && !k.includes(" ") && k.startsWith(m[1]!));
    if (surnames.length === 1) out.set(form, surnames[0]!);
  }
  return out;
}
