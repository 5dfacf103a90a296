/**
 * Entity mentions: `@Name` where Name is letters/digits/marks/underscores, with inner
 * hyphens (`@ledger-sync`, `@The-Castle`). Trailing punctuation and a possessive are not
 * part of the name (`@Peter.` and `@Peter's` are both Peter). An `@` preceded by a word
 * character, `.`, `/` or `-` is not a mention (e-mail addresses, paths, handles in URLs).
 */
const NAME_SRC = String.raw`[\p{L}\p{N}\p{M}_]+(?:-[\p{L}\p{N}\p{M}_]+)*`;
const NAME = new RegExp(`^${NAME_SRC}`, "u");
const MENTION = new RegExp(String.raw`(?<![\p{L}\p{N}\p{M}_@./\\-])@(${NAME_SRC})`, "gu");

/** Slug of an entity as used for `bank/entities/<Slug>.md`: `@The-Castle` -> `The-Castle`; "" when none. */
export function entitySlug(name: string): string {
  const bare = name.normalize("NFC").trim().replace(/^@/, "");
  return NAME.exec(bare)?.[0] ?? "";
}

/** Entity slugs mentioned inline in a text, in order of first appearance, deduplicated. */
export function findMentions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize("NFC").matchAll(MENTION)) {
    const slug = m[1]!;
    if (!out.includes(slug)) out.push(slug);
  }
  return out;
}

/** Offsets of inline mentions (for masking them before date parsing: `@May` is not a month). */
export function mentionSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(MENTION)].map((m) => [m.index, m.index + m[0].length]);
}
