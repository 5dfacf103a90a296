/**
 * Turning user text into FTS5 MATCH expressions. User text never reaches MATCH raw:
 * every term is a quoted FTS5 string (`"` doubled), so `"`, `-`, `:`, `*`, `(`, `NEAR`
 * and `OR` in a query are plain text, never syntax. Tokens, stop words and CJK words
 * come from the one analyzer (src/analysis/tokens.ts).
 */
import { cjkWords, joinedCompound, queryTerms } from "../analysis/tokens.js";

/** Quote one term as an FTS5 string literal. */
export function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * OR of quoted terms for the unicode61 tables (BM25 over chunks or facts); null when
 * nothing is searchable. A hyphenated word also asks for its joined form, so
 * `de-stress` finds "destress" as well as "de-stress" and "de stress".
 */
export function buildMatchQuery(query: string): string | null {
  const forms: string[] = [];
  for (const t of queryTerms(query)) {
    const joined = joinedCompound(t);
    for (const f of joined ? [t, joined] : [t]) if (!forms.includes(f)) forms.push(f);
  }
  return forms.length > 0 ? forms.map(quoteTerm).join(" OR ") : null;
}

/**
 * CJK words of the query (analysis cjkWords), for the trigram table: unicode61 sees a run
 * of CJK characters as one token, so `数据库` inside `我们的数据库很慢` is only found by
 * substring search. Words of at least 3 characters go to trigram MATCH; shorter ones
 * (`short`) need LIKE.
 */
export function cjkTerms(query: string): { trigram: string | null; short: string[] } {
  const words = cjkWords(query);
  const long = words.filter((r) => [...r].length >= 3);
  const short = words.filter((r) => [...r].length < 3);
  return { trigram: long.length > 0 ? long.map(quoteTerm).join(" OR ") : null, short };
}

/** Map FTS5 bm25() values (negative; more negative is better) to 0..1 relative to the best hit. */
export function bm25ToScores(ranks: number[]): number[] {
  const strengths = ranks.map((r) => (Number.isFinite(r) ? Math.max(0, -r) : 0));
  const best = Math.max(0, ...strengths);
  return strengths.map((s) => (best > 0 ? s / best : strengths.length > 0 ? 1 : 0));
}
