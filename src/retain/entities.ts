import { createHash } from "node:crypto";

/**
 * The entity grammar (README "The Retain grammar"), its one home.
 *
 * A name is runs of letters, digits, marks and `_`, joined by single inner `-`, `.` or
 * an apostrophe (`@ledger-sync`, `@Node.js`, `@O'Brien`), optionally ending in `+`, `++`
 * or `#` (`@C++`, `@C#`). A final `.` ends the sentence, not the name (`@Peter.`), and a
 * possessive `'s` is not part of it (`@Peter's` is Peter).
 *
 * Inline, an `@` preceded by a word character, `.`, `/`, `\` or `-` is not a mention
 * (e-mail addresses, paths), nor is a name followed by `/` or `@` (`@types/node`,
 * `@foo@bar`: package names and handles). A name glued to anything else (`@Peter&Mara`,
 * `@C#2`) is an error the parser reports, never a silent cut.
 */
const NC = String.raw`\p{L}\p{N}\p{M}_`;
const NAME_SRC = String.raw`[${NC}]+(?:(?:[-.]|['’](?!s(?![${NC}])))[${NC}]+)*(?:\+\+|\+|#)?`;
const NAME = new RegExp(`^${NAME_SRC}`, "u");
const MENTION = new RegExp(String.raw`(?<![${NC}@./\\-])@(${NAME_SRC})`, "gu");
const NAME_CHAR = new RegExp(`[${NC}]`, "u");
/** Characters that glue a name to more text: the token is neither the name nor a clean end. */
const GLUE = /[&=%$^|\\+#]/;

const GRAMMAR = "letters, digits, _ and inner - . ' ; a final +, ++ or #";

/** Slug of an entity token (`@The-Castle` -> `The-Castle`): the name it starts with; "" when none. */
export function entitySlug(name: string): string {
  const bare = name.normalize("NFC").trim().replace(/^@/, "");
  return NAME.exec(bare)?.[0] ?? "";
}

/**
 * Check a whole token written before the colon (`@Name`): the name, or why it is not one.
 * Unlike inline mentions nothing may follow the name: `@a/b` and `@foo@bar` are errors.
 */
export function checkEntityToken(token: string): { name: string } | { reason: string } {
  const bare = token.normalize("NFC").replace(/^@/, "");
  const name = NAME.exec(bare)?.[0] ?? "";
  if (name !== "" && name === bare) return { name };
  const bad = [...bare.slice(name.length)][0] ?? "";
  const what = name === "" ? `an entity name must start with a letter, digit or _` : `"${bad}" is not allowed here`;
  return { reason: `invalid entity "${token}" before the colon: ${what} (${GRAMMAR})` };
}

/** Entities mentioned inline, in order of first appearance, deduplicated; or the first malformed mention. */
export function scanMentions(
  text: string,
  opts: { skipInvalid?: boolean } = {},
): { names: string[]; invalid?: string } {
  const names: string[] = [];
  const s = text.normalize("NFC");
  for (const m of s.matchAll(MENTION)) {
    const name = m[1]!;
    const next = s.slice(m.index + m[0].length);
    const c = [...next][0] ?? "";
    if (c === "/" || c === "@") continue; // a package (@types/node) or a handle, not an entity
    if (NAME_CHAR.test(c) || GLUE.test(c)) {
      if (opts.skipInvalid) continue;
      const token = `@${name}${/^\S*/u.exec(next)![0]}`.replace(/[.,;:!?)\]}"'”’]+$/u, "");
      return {
        names,
        invalid: `invalid entity "${token}": "${c}" is not allowed in an entity name (${GRAMMAR}); write the name alone or drop the @`,
      };
    }
    if (!names.includes(name)) names.push(name);
  }
  return { names };
}

/**
 * The text with the `@` of every malformed inline mention dropped (`@Peter&Mara` ->
 * `Peter&Mara`), as the parser's diagnostic advises: what membank writes itself (facts an
 * LLM extracted) must read back as the fact, not as an error. Unchanged when all is well.
 */
export function dropInvalidMentions(text: string): string {
  let s = text;
  for (let guard = 0; guard < 1000 && scanMentions(s).invalid !== undefined; guard++) {
    s = s.normalize("NFC");
    for (const m of s.matchAll(MENTION)) {
      const next = s.slice(m.index + m[0].length);
      const c = [...next][0] ?? "";
      if (c === "/" || c === "@") continue;
      if (NAME_CHAR.test(c) || GLUE.test(c)) {
        s = s.slice(0, m.index) + s.slice(m.index + 1);
        break;
      }
    }
  }
  return s;
}

/**
 * Entity names mentioned inline in a text (NFC), in order of first appearance,
 * deduplicated. Any text, not only Retain facts: a malformed mention is passed over.
 */
export function findMentions(text: string): string[] {
  return scanMentions(text, { skipInvalid: true }).names;
}

/** Offsets of inline mentions (for masking them before date parsing: `@May` is not a month). */
export function mentionSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(MENTION)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * The case-insensitive identity of an entity: `@Peter`, `@peter` and `@PETER` share it
 * (and so share one page: they would collide as files on macOS and Windows anyway).
 */
export function entityKey(name: string): string {
  let key = KEYS.get(name);
  if (key === undefined) {
    if (KEYS.size >= KEYS_MAX) KEYS.clear();
    key = name.normalize("NFC").toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
    KEYS.set(name, key);
  }
  return key;
}
// Reflect keys every name-like word of every fact and prose line (ten years: millions of
// calls over a few thousand spellings): remember keys, bounded for long-running processes.
const KEYS = new Map<string, string>();
const KEYS_MAX = 100_000;

/** Longest page file name stem, in UTF-8 bytes (file systems allow 255; paths get long). */
export const MAX_ENTITY_STEM_BYTES = 120;
const HASH_CHARS = 10;
const SAFE_CHAR = /[\p{L}\p{N}\p{M}_\-.'’+#~]/u;
// Windows reserves these device names, with or without an extension, in any case.
const RESERVED = /^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(?:\..*)?$/iu;

function cutToBytes(s: string, max: number): string {
  let out = "";
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch, "utf8");
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/**
 * The file name stem of an entity's page (`bank/entities/<stem>.md`): the name itself when
 * it is a portable file name; else (too long, a Windows device name like `CON`, unsafe
 * characters) a cut, cleaned name plus `~` and a short hash of the entity's key, so it is
 * stable and distinct. A stem is its own stem (`~` is no name character), and case
 * variants of a name get stems that differ only in case.
 */
export function entityFileStem(name: string): string {
  const s = name.normalize("NFC");
  const plain =
    s.length > 0 &&
    [...s].every((c) => SAFE_CHAR.test(c)) &&
    Buffer.byteLength(s, "utf8") <= MAX_ENTITY_STEM_BYTES &&
    !RESERVED.test(s) &&
    !s.startsWith(".") &&
    !s.endsWith(".");
  if (plain) return s;
  const hash = createHash("sha256").update(entityKey(s)).digest("hex").slice(0, HASH_CHARS);
  // Dots go too: a cut stem must not end in one, nor keep a device name before its first one.
  const clean = [...s].map((c) => (SAFE_CHAR.test(c) && c !== "." ? c : "_")).join("");
  return `${cutToBytes(clean, MAX_ENTITY_STEM_BYTES - HASH_CHARS - 1)}~${hash}`;
}

/** Anything with entity names. */
interface HasEntities {
  entities: string[];
  date?: string;
}

/**
 * One spelling per entity key, so case variants are one entity with one page: the
 * spelling of an existing page (`preferred` holds page stems) if any, else the first one
 * written: `earlier` (key -> a spelling the prose wrote before any of these items, e.g.
 * "Priya came by" before `@priya`), else the first one seen in `items`. First, not most
 * frequent: the night a page is made, it is named as one full run over all the logs names
 * it later. `items` must come in a stable order (facts by date, path, line).
 */
export function entitySpellings(
  items: readonly HasEntities[],
  preferred: Iterable<string> = [],
  earlier: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  const add = (e: string) => {
    const key = entityKey(e);
    let byName = counts.get(key);
    if (byName === undefined) {
      byName = new Map<string, number>();
      counts.set(key, byName);
    }
    byName.set(e, (byName.get(e) ?? 0) + 1);
  };
  for (const item of items) {
    // Most facts name one entity: no Set for them (ten years are 20k facts on every nightly).
    if (item.entities.length === 1) add(item.entities[0]!);
    else for (const e of new Set(item.entities)) add(e);
  }
  // Pages by key: a page named `Peter.md` is the spelling of @peter too. A cut name's page
  // (`CON~1143da2bc5.md`) is no spelling; it is matched through the spellings' own stems.
  const stems = new Set(preferred);
  const pageNames = new Map<string, string[]>();
  for (const stem of stems) {
    if (stem.includes("~") || entityFileStem(stem) !== stem) continue;
    const key = entityKey(stem);
    pageNames.set(key, [...(pageNames.get(key) ?? []), stem]);
  }
  const out = new Map<string, string>();
  for (const [key, byName] of counts) {
    const count = (name: string) => byName.get(name) ?? 0;
    const pages = [...(pageNames.get(key) ?? []), ...[...byName.keys()].filter((n) => stems.has(entityFileStem(n)))];
    // The page used most (then the first); else the first written.
    if (pages.length === 0) {
      const before = earlier.get(key);
      out.set(key, before !== undefined && entityKey(before) === key ? before : byName.keys().next().value!);
      continue;
    }
    let best = pages[0]!;
    for (const name of pages) if (count(name) > count(best)) best = name;
    out.set(key, best);
  }
  return out;
}

/** Entity names respelled through `entitySpellings` (deduplicated, order kept). */
export function respell(entities: readonly string[], spellings: Map<string, string>): string[] {
  return [...new Set(entities.map((e) => spellings.get(entityKey(e)) ?? e))];
}

/** Items with their entities respelled; unchanged items are returned as they are. */
export function respellAll<T extends HasEntities>(items: readonly T[], spellings: Map<string, string>): T[] {
  return items.map((item) => {
    // Already in its spellings, each name once (nearly every fact): the item as it is, nothing allocated.
    const { entities } = item;
    if (
      entities.every((e) => spellings.get(entityKey(e)) === e) &&
      (entities.length < 2 || new Set(entities).size === entities.length)
    )
      return item;
    const mapped = respell(item.entities, spellings);
    return mapped.length === item.entities.length && mapped.every((e, i) => e === item.entities[i])
      ? item
      : { ...item, entities: mapped };
  });
}
