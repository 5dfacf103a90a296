/**
 * Entity matching by name for query understanding and ranking; words and folding come
 * from the one analyzer (src/analysis/tokens.ts).
 */
import { nameWords } from "../analysis/tokens.js";
import { entityKey } from "../retain/entities.js";

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
