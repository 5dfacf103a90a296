/**
 * Query expansion (issue 14 item 2): the question's topic words' WordNet synonyms as a
 * separate lexical pass, weighted below the words themselves, so "holiday" finds a line
 * about a "vacation" without outranking the lines that use the question's own words.
 */
import { DEFAULT_SYNONYMS, type SynonymOptions, synonyms } from "../analysis/synonyms.js";
import { type ArmContext, windowsToItems } from "./arms.js";
import type { LexicalTerm } from "./intent.js";
import { rescoreLines } from "./linerank.js";
import { searchLines } from "./lines.js";
import type { SynonymMode } from "./plan.js";
import type { ArmList } from "./types.js";

export interface SynonymArmOptions extends SynonymOptions {
  mode: SynonymMode;
}

/** Chosen by bench/locomo.bench.mjs and the hand evaluations: see bench/README.md. */
export const DEFAULT_SYNONYM_ARM: SynonymArmOptions = { ...DEFAULT_SYNONYMS, mode: "paraphrase" };

/** The synonyms of the topic words (not names, not exact tokens), none of them a word already asked. */
export function synonymTerms(terms: readonly LexicalTerm[], opts: SynonymOptions = DEFAULT_SYNONYMS): LexicalTerm[] {
  const asked = new Set(terms.map((t) => t.text.toLowerCase()));
  const out: LexicalTerm[] = [];
  for (const t of terms) {
    if (t.exact || t.text.length < 3) continue;
    for (const s of synonyms(t.text, opts)) {
      if (asked.has(s) || out.some((o) => o.text === s)) continue;
      out.push({ text: s, exact: false });
    }
  }
  return out;
}

/** Did the lexical arm find a line with at least half of the question's topic words? */
export function wordsFoundEnough(ctx: ArmContext): boolean {
  const hits = ctx.lexicalLines();
  const n = ctx.lexTerms.length;
  if (!hits[0]?.coverage || n === 0) return false;
  return hits.slice(0, 20).some((h) => (h.coverage?.matched.length ?? 0) * 2 >= n);
}

/** The synonym pass: lines with the synonyms, ranked like the lexical arm, as windows. */
export function synonymArm(ctx: ArmContext, weight: number, opts: SynonymArmOptions = DEFAULT_SYNONYM_ARM): ArmList {
  const arm: ArmList = { arm: "synonyms", weight, items: [] };
  if (opts.mode === "off" || (opts.mode === "paraphrase" && wordsFoundEnough(ctx))) return arm;
  const topic = ctx.lexTerms.filter((t) => ctx.intent.contentTerms.some((c) => c.text === t.text));
  const terms = synonymTerms(topic, opts);
  if (terms.length === 0) return arm;
  const range = { ...(ctx.since ? { since: ctx.since } : {}), ...(ctx.until ? { until: ctx.until } : {}) };
  const hits = searchLines(ctx.idx, terms, { limit: Math.max(100, ctx.pool * 5), ...range });
  arm.items = windowsToItems(ctx, rescoreLines(hits, ctx.query, ctx.lineRank), ctx.pool);
  return arm;
}
