import { porterStem } from "../analysis/stem.js";

/**
 * Turning user text into FTS5 MATCH expressions. User text never reaches MATCH raw:
 * every term is a quoted FTS5 string (`"` doubled), so `"`, `-`, `:`, `*`, `(`, `NEAR`
 * and `OR` in a query are plain text, never syntax.
 */

/** Common English function words: they match almost every chunk and only add noise to BM25. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my of on or our she so than that the their them then there these they this to was we were what when where " +
    "which who whom why will with would you your about any all also am just more most not no only other some such " +
    "up out over very s t don"
  ).split(" "),
);

const WORDISH = /[\p{L}\p{N}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
// Punctuation that wraps a term in prose ("(see FJD-482)," or "`a91f3c2`") but is not part of it.
const EDGE_PUNCT = /^[\s"'`“”‘’«»()[\]{}<>,.;:!?¡¿…]+|[\s"'`“”‘’«»()[\]{}<>,.;:!?¡¿…]+$/gu;

export const MAX_TERMS = 32;

/** The words FTS5's unicode61 tokenizer sees in a text (letters and digits; everything else separates). */
export function ftsWords(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/**
 * The tokens the line store's `porter unicode61 remove_diacritics 2` tokenizer indexes:
 * the words, case-folded, marks removed, Porter-stemmed. Used to count how often a term
 * occurs on a line FTS5 already found it on.
 */
export function stemmedTokens(text: string): string[] {
  const plain = /^[\p{ASCII}]*$/u.test(text) ? text : text.normalize("NFD").replace(/\p{M}+/gu, "");
  return ftsWords(plain.toLowerCase()).map(stem);
}

// Stemming is the cost of counting (~10 us a word); a corpus repeats its words, so remember them.
const stems = new Map<string, string>();
const STEMS_KEPT = 50_000;

function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    s = porterStem(word);
    stems.set(word, s);
  }
  return s;
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

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

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

/** Quote one term as an FTS5 string literal. */
export function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** OR of quoted terms for the unicode61 tables (BM25 over chunks or facts); null when nothing is searchable. */
export function buildMatchQuery(query: string): string | null {
  const terms = queryTerms(query);
  return terms.length > 0 ? terms.map(quoteTerm).join(" OR ") : null;
}

/**
 * CJK runs of the query, for the trigram table: unicode61 sees a run of CJK characters
 * as one token, so `数据库` inside `我们的数据库很慢` is only found by substring search.
 * Runs of at least 3 characters go to trigram MATCH; shorter ones (`short`) need LIKE.
 */
export function cjkTerms(query: string): { trigram: string | null; short: string[] } {
  const runs = [...new Set(query.match(CJK_RUN) ?? [])];
  const long = runs.filter((r) => [...r].length >= 3);
  const short = runs.filter((r) => [...r].length < 3);
  return { trigram: long.length > 0 ? long.map(quoteTerm).join(" OR ") : null, short };
}

/** Map FTS5 bm25() values (negative; more negative is better) to 0..1 relative to the best hit. */
export function bm25ToScores(ranks: number[]): number[] {
  const strengths = ranks.map((r) => (Number.isFinite(r) ? Math.max(0, -r) : 0));
  const best = Math.max(0, ...strengths);
  return strengths.map((s) => (best > 0 ? s / best : strengths.length > 0 ? 1 : 0));
}
