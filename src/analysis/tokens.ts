import { porterStem } from "./stem.js";
import { STOP_WORDS } from "./stopwords.js";

/**
 * The one tokenizer (issue 12), written to agree with the FTS5 tables of the index
 * (src/index/schema.ts): `unicode61 remove_diacritics 2` over chunks, facts and opinions,
 * `porter unicode61 remove_diacritics 2` over lines (stemming: ./stem.ts), `trigram` over
 * chunks for CJK. unicode61 keeps letters and digits and separates on everything else,
 * so an exact token (`FJD-482`, `LEDGER_SYNC_BATCH=500`) is indexed as its parts and is
 * found exactly as the phrase of those parts; a hyphenated word (`de-stress`) is indexed
 * as its parts, and a query for it also asks for the joined word (`destress`).
 */

/** Lower-case, accents stripped (as remove_diacritics does), so `Zoë` = `zoe`. */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The words FTS5's unicode61 tokenizer sees in a text (letters and digits; everything else separates). */
export function ftsWords(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
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

/**
 * The joined form of a word hyphenated between letters (`de-stress` -> `destress`,
 * `e-mail` -> `email`), else undefined. Ids with digits (`FJD-482`) have none: they are
 * matched only as written.
 */
export function joinedCompound(token: string): string | undefined {
  return /^\p{L}+(?:-\p{L}+)+$/u.test(token) ? token.replace(/-/g, "") : undefined;
}

// Particles that close an English compound written joined, hyphenated or apart ("checkin",
// "check-in", "check in"; "signup", "takeaway", "handover"), after a head of 4+ letters
// ("begin", "cabin" stay whole). "on" is left out: too many
// words end in it ("lesson", "reason") to split them.
const PARTICLE = /^(\p{Ll}{4,}?)(in|out|up|off|over|away|down|back)$/u;

/**
 * The hyphenated form of a word that may be a joined compound, so a query for it also
 * asks for the parts as a phrase (the index holds `check-in` and `e-mail` as their
 * parts): a word ending in a particle (`checkin` -> `check-in`) or an `e-` word
 * (`email` -> `e-mail`); else undefined. A wrong split ("cab-in") is a phrase that
 * rarely occurs, so it costs a lookup, not a false match.
 */
export function splitCompound(word: string): string | undefined {
  const w = word.toLowerCase();
  const p = PARTICLE.exec(w);
  if (p) return `${p[1]}-${p[2]}`;
  if (/^e\p{Ll}{4,}$/u.test(w)) return `e-${w.slice(1)}`;
  return undefined;
}

const WORDISH = /[\p{L}\p{N}]/u;
// Punctuation that wraps a term in prose ("(see FJD-482)," or "`a91f3c2`") but is not part of it.
const EDGE_PUNCT = /^[\s"'`“”‘’«»()[\]{}<>,.;:!?¡¿…]+|[\s"'`“”‘’«»()[\]{}<>,.;:!?¡¿…]+$/gu;

/** At most this many search terms per query. */
export const MAX_TERMS = 32;

/**
 * The search terms of a query: whitespace-separated tokens with wrapping punctuation
 * removed, kept whole (so `FJD-482` and `LEDGER_SYNC_BATCH=500` stay one term, which
 * FTS5 matches as a phrase of its parts, i.e. exactly), stop words dropped, deduplicated
 * case-insensitively, at most MAX_TERMS. If only stop words remain, they are kept.
 */
export function queryTerms(query: string): string[] {
  const raw: string[] = [];
  const seen = new Set<string>();
  for (const token of query.split(/\s+/u)) {
    const term = token.replace(EDGE_PUNCT, "");
    if (!term || !WORDISH.test(term)) continue;
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    raw.push(term);
  }
  const content = raw.filter((t) => !STOP_WORDS.has(t.toLowerCase()));
  return (content.length > 0 ? content : raw).slice(0, MAX_TERMS);
}

// The long-vowel mark ー and the iteration mark 々 are script Common, but inside a word (データベース, 人々).
const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々`;
const CJK = new RegExp(`[${CJK_CLASS}]`, "u");
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, "gu");

/** Does the text hold Chinese, Japanese or Korean script? */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Runs of CJK characters, in order, deduplicated. */
export function cjkRuns(text: string): string[] {
  return [...new Set(text.match(CJK_RUN) ?? [])];
}

let segmenter: Intl.Segmenter | undefined;

/** A run longer than this is read as a phrase or sentence and also split into its words. */
export const CJK_WORD_RUN = 4;

/**
 * The CJK search words of a text. unicode61 sees a CJK run as one token, so a word
 * inside `我们的数据库很慢` is only found by substring (trigram or LIKE). A short run
 * (up to CJK_WORD_RUN characters) is taken as one word, as written; a longer run is
 * kept and also split into words by `Intl.Segmenter` (ICU's dictionary), words of one
 * character left out (particles like `的`, `の` would match everything).
 */
export function cjkWords(text: string): string[] {
  const out: string[] = [];
  for (const run of cjkRuns(text)) {
    if (!out.includes(run)) out.push(run);
    if ([...run].length <= CJK_WORD_RUN) continue;
    segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
    for (const s of segmenter.segment(run)) {
      if (s.isWordLike && [...s.segment].length >= 2 && !out.includes(s.segment)) out.push(s.segment);
    }
  }
  return out;
}

/**
 * The tokens the line store's `porter unicode61 remove_diacritics 2` tokenizer indexes:
 * the words, case-folded, marks removed, Porter-stemmed. Used to count how often a term
 * occurs on a line FTS5 already found it on.
 */
export function stemmedTokens(text: string): string[] {
  const plain = /^[\p{ASCII}]*$/u.test(text) ? text : text.normalize("NFD").replace(/\p{M}+/gu, "");
  return ftsWords(plain.toLowerCase()).map(porterStem);
}

/** How often the phrase `words` (stemmedTokens of a query term) occurs in `tokens`. */
export function phraseOccurrences(tokens: readonly string[], words: readonly string[]): number {
  if (words.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, j) => tokens[i + j] === w)) n++;
  }
  return n;
}
