/**
 * Small text helpers shared by query understanding and ranking: normalisation for
 * entity matching, tokenisation that keeps exact tokens (ids, env keys), stop words.
 */
import { entityKey } from "../retain/entities.js";

/** Lower-case, strip accents, so `Zoë` = `zoe`. */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/**
 * Words of a name or query for entity matching: accents folded, `@`, `-`, `_` and
 * punctuation become separators, possessives (`Priya's`) lose their `'s`.
 */
export function nameWords(text: string): string[] {
  return fold(text)
    .replace(/['’]s\b/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The slug-insensitive key of a name: `@ledger-sync`, `Ledger Sync` and `ledger_sync` share it. */
export function nameKey(text: string): string {
  return nameWords(text).join(" ");
}

/**
 * The entity a name means. A name that is exactly an entity's in any case (`PETER`, `C#`)
 * wins over the looser word match (`c` for both C# and C++); within each, its slug, then
 * its display name, then an alias, so another page's alias never hides a page of that name
 * (Jonas.md listing `Mara` as an alias while Mara.md exists: "Mara" is Mara). Case variants
 * are one entity: the row with a page (then the most facts) speaks for them.
 */
export function findEntityByName<
  T extends { slug: string; name: string; aliases: readonly string[]; page?: string | null; facts?: number },
>(rows: readonly T[], name: string): T | undefined {
  const exact = entityKey(name.replace(/^@/, ""));
  const loose = nameKey(name);
  const tiers: ((e: T) => boolean)[] = [
    (e) => entityKey(e.slug) === exact,
    (e) => entityKey(e.name) === exact,
    (e) => e.aliases.some((a) => entityKey(a) === exact),
    (e) => nameKey(e.slug) === loose,
    (e) => nameKey(e.name) === loose,
    (e) => e.aliases.some((a) => nameKey(a) === loose),
  ];
  const speaker = (a: T, b: T) =>
    Number((b.page ?? null) !== null) - Number((a.page ?? null) !== null) || (b.facts ?? 0) - (a.facts ?? 0);
  for (const tier of tiers) {
    const hits = rows.filter(tier);
    if (hits.length > 0) return [...hits].sort(speaker)[0];
  }
  return undefined;
}

/**
 * A token that must be matched exactly: it mixes letters and digits (a91f3c2, v2),
 * or joins word parts with `-`, `_`, `=`, `.`, `:` or `/` (FJD-482, LEDGER_SYNC_BATCH=500).
 */
export function isExactToken(token: string): boolean {
  if (/[-_=.:/]/.test(token) && /^[\p{L}\p{N}]+(?:[-_=.:/]+[\p{L}\p{N}]+)+$/u.test(token)) return true;
  return /\p{L}/u.test(token) && /\p{N}/u.test(token);
}

/** Split a query into raw tokens, keeping exact tokens whole and dropping surrounding punctuation. */
export function rawTokens(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/[\s,;!?()[\]{}"“”`<>|]+/u)) {
    const t = piece.replace(/^[^\p{L}\p{N}@]+|[^\p{L}\p{N}]+$/gu, "");
    if (t.length > 0) out.push(t);
  }
  return out;
}

/** English stop words plus question fillers that carry no retrieval signal. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few " +
    "for from further get got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers " +
    "herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more " +
    "most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own same " +
    "shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves " +
    "then there there's these they they'd they'll they're they've this those through to too under until up very was " +
    "wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom " +
    "why why's will with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves " +
    "tell know anything something thing things please show give us recall remember say said ever much many lot " +
    "happen happened happening going go went kind sort way recently lately"
  ).split(" "),
);

/** First YYYY-MM-DD of a path (`memory/2025-11-27.md`, `memory/2025-11-27-sessions.md`). */
export function dateOfPath(p: string): string | undefined {
  const m = /(?:^|\/)(\d{4}-\d{2}-\d{2})(?:-[^/]*)?\.md$/i.exec(p);
  return m?.[1];
}
