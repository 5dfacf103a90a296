import { STOP_WORDS } from "../analysis/stopwords.js";
import { ftsWords, nameWords, phraseOccurrences, stemmedTokens } from "../analysis/tokens.js";
import { countMatchingLines, lineStats } from "../index/lines.js";
import { type ArmContext, windowsToItems } from "./arms.js";
import { entityMatcher, type LexicalTerm, matchEntities } from "./intent.js";
import { byLineScore, type LineHit, searchLines } from "./lines.js";
import type { ArmList } from "./types.js";

/**
 * Multi-hop (issue 14 item 4): "what did Caroline's friend from the support group
 * recommend?" names two things, and no one line may say both. The first hop is the
 * lexical arm's best lines: one says "Caroline introduced me to her friend Dana from the
 * support group" and leaves a word of the question unanswered ("recommend"). The names on
 * that line the question does not use (Dana) are bridges; the second hop is the lines
 * holding a bridge and the words the first hop left out ("Dana recommended ..."), ranked
 * by how good their first hop was. Works on any prose: bridges are entities, `@Names` and
 * capitalised words inside a sentence, not a log format's speaker labels.
 */
type Line = Pick<LineHit, "path" | "line" | "text" | "score">;

const has = (tokens: readonly string[], term: LexicalTerm): boolean =>
  phraseOccurrences(tokens, stemmedTokens(term.text)) > 0;

/**
 * Name-like words of a line the question does not use: known entity names, and capitalised
 * words that do not start a sentence (a sentence's first word is capitalised anyway).
 * Pure; in order of appearance.
 */
export function bridgeNames(
  text: string,
  questionWords: ReadonlySet<string>,
  entityNames: readonly string[],
): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    const words = nameWords(name);
    if (words.length === 0 || words.some((w) => questionWords.has(w))) return;
    const key = words.join(" ");
    if (!out.some((o) => nameWords(o).join(" ") === key)) out.push(name);
  };
  for (const e of entityNames) add(e);
  // Markup, list markers and a leading label ("**Dana** (9:12):", "- W @Dana:") are not prose.
  const plain = text.replace(/[*_`[\]()]/g, " ").replace(/^\s*(?:[-+>]|\d+[.)])\s+/, "");
  const re = /(^|[.!?:;]\s+|\s+)(@?)(\p{Lu}[\p{L}\p{M}'’-]*\p{L}|\p{Lu}{2,})/gu;
  for (const m of plain.matchAll(re)) {
    const sentenceStart = m.index === 0 || /[.!?:;]/.test(m[1]!);
    if (sentenceStart && m[2] === "") continue;
    // "Dana's" is Dana; "I'm" is no name.
    const word = m[3]!.split(/['’]/)[0]!;
    if (word.length >= 2 && !STOP_WORDS.has(word.toLowerCase())) add(`${m[2]}${word}`);
  }
  return out;
}

/**
 * Verbs that ask for what someone found out or settled ("what did the surveyor find?",
 * "what did the panel decide?"): the answer says the finding, seldom the verb, so a
 * second-hop line needs only the bridge when these are all the first hop left out.
 */
const OUTCOME_VERBS: ReadonlySet<string> = new Set(
  "find finds found discover discovered notice noticed spot spotted conclude concluded decide decided report reported".split(
    " ",
  ),
);

/** The second hop's lines for the question's words, from its first-hop lines. */
export function multiHopLines(ctx: ArmContext): LineHit[] {
  const t = ctx.plan.tuning.multiHop;
  const terms = ctx.lexTerms.filter((x) => !x.exact || ftsWords(x.text).length > 0);
  if (terms.length < 2) return [];
  const seeds = ctx.lexicalLines().slice(0, t.seeds);
  const top = seeds[0]?.score ?? 0;
  if (top <= 0) return [];
  const questionWords = new Set(nameWords(ctx.query));
  const matcher = entityMatcher(ctx.entities.map((e) => ({ slug: e.slug, names: [e.name, ...e.aliases] })));
  const nameOf = new Map(ctx.entities.map((e) => [e.slug, e.name]));
  const total = lineStats(ctx.idx).lines ?? 0;
  const common = Math.max(t.minCommonLines, t.commonShare * total);
  const rare = new Map<string, boolean>();
  const isRare = (name: string) => {
    const phrase = `"${ftsWords(name).join(" ")}"`;
    let r = rare.get(phrase);
    if (r === undefined) {
      r = phrase !== '""' && countMatchingLines(ctx.idx, phrase) <= common;
      rare.set(phrase, r);
    }
    return r;
  };

  const rests = (seeds as Line[]).map((seed) => {
    const tokens = stemmedTokens(seed.text);
    return terms.filter((x) => !has(tokens, x));
  });
  // A first-hop line that says all of it answers the question itself: no second hop.
  if (rests.some((r) => r.length === 0)) return [];

  const best = new Map<string, LineHit>();
  for (const [i, seed] of (seeds as Line[]).entries()) {
    const rest = rests[i]!;
    // "what did the bee inspector find?": the finding is the second hop's line, in its own words.
    const outcomeOnly = rest.every((x) => OUTCOME_VERBS.has(x.text));
    // The first hop must say most of the question, or its names are no bridge to trust.
    const held = terms.length - rest.length;
    if (held < t.minSeedTerms || held <= terms.length * t.minSeedShare) continue;
    const known = matchEntities(seed.text, matcher).map((s) => nameOf.get(s) ?? s);
    const bridges = bridgeNames(seed.text, questionWords, known).filter(isRare).slice(0, t.bridgesPerSeed);
    for (const bridge of bridges) {
      const bridgeTerm: LexicalTerm = { text: bridge.replace(/^@/, "").toLowerCase(), exact: false };
      for (const h of searchLines(ctx.idx, [bridgeTerm, ...rest], { limit: t.hopLines * 4 })) {
        if (h.path === seed.path && h.line === seed.line) continue;
        const ht = stemmedTokens(h.text);
        if (!has(ht, bridgeTerm) || !(outcomeOnly || rest.some((x) => has(ht, x)))) continue;
        const score = (seed.score / top) * h.score;
        const key = `${h.path}#${h.line}`;
        if ((best.get(key)?.score ?? 0) < score) best.set(key, { ...h, score });
      }
    }
  }
  return [...best.values()].sort(byLineScore).slice(0, t.hopLines * t.seeds);
}

/** The second-hop lines as an arm (its own weight: plan.ts DEFAULT_WEIGHTS.multihop). */
export function multiHopArm(ctx: ArmContext, weight: number): ArmList {
  return { arm: "multihop", weight, items: windowsToItems(ctx, multiHopLines(ctx), ctx.pool) };
}
