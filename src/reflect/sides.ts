/**
 * Which side a comparison takes (pure): "R is better than Python" favours R, "Python might be
 * less painful than R" favours Python, "Vite beats Webpack" favours Vite. judge.ts reads two
 * comparisons of the same things as agreeing or not by the side each favours, since both
 * praise something and neither says "not".
 */
import { praisedInHindsight, switchSides } from "../analysis/cues.js";
import { evaluation } from "../analysis/valence.js";
import { contentTokens } from "./text.js";
import { writtenNames } from "./topic.js";

export interface Sides {
  /** Names (as writtenNames gives them) of the side the text favours. */
  won: Set<string>;
  /** Names of the side it ranks lower. */
  lost: Set<string>;
}

/** Where a comparison turns from the side it judges to the other: "than", "over", "beats". */
const TURN = /\s(than|over|instead of|rather than|beats?|trumps?|outperforms?)\s/iu;
/** "less painful than", "fewer bugs than": the judgement is turned round. */
const LESS = /\b(?:less|fewer)(?:\s+\S+){1,3}\s*$/iu;

const namesIn = (text: string): Set<string> => {
  const n = writtenNames(text);
  return new Set([...n.mid, ...n.lead]);
};

/** The sides a comparison favours and ranks lower, when it names both and says which way it goes. */
export function favouredSide(text: string): Sides | undefined {
  const m = TURN.exec(text);
  if (!m) return undefined;
  const left = text.slice(0, m.index);
  const right = text.slice(m.index + m[0].length);
  const a = namesIn(left);
  const b = namesIn(right);
  if (a.size === 0 || b.size === 0) return undefined;
  let sign = 1;
  if (/^than$/iu.test(m[1]!)) {
    const said = evaluation(left).sign;
    if (said === 0) return undefined;
    sign = LESS.test(left) ? -said : said;
  }
  return sign > 0 ? { won: a, lost: b } : { won: b, lost: a };
}

const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].some((x) => b.has(x));

/**
 * Whether a comparison turns the other way round from the claim's: it favours what the claim
 * ranks lower ("Python might be less painful than R" against "R is better than Python"). True:
 * turned; false: the same side; undefined: not two comparisons of the same things.
 */
export function turnsRound(claim: string, fact: string): boolean | undefined {
  if (setsAside(claim, fact)) return true;
  const c = favouredSide(claim);
  const f = favouredSide(fact);
  if (!c || !f) return undefined;
  if (meets(f.won, c.lost) && !meets(f.won, c.won)) return true;
  if (meets(f.won, c.won) && !meets(f.won, c.lost)) return false;
  return undefined;
}

/** "..., not the fixture teardown", "..., rather than the cache": what a statement sets aside, at its end. */
const ASIDE_AT_END = /(?:,\s*not|,?\s(?:rather than|instead of))\s+([^,.;:!?]+?)\s*[.!]*\s*$/iu;

/**
 * The statement puts something else in place of what the claim says: "the flakes are DNS
 * timeouts, not the fixture teardown" against "the flakes are a race in the fixture teardown".
 * What it sets aside is words of the claim its own answer does not use.
 */
export function setsAside(claim: string, fact: string): boolean {
  const m = ASIDE_AT_END.exec(fact);
  if (!m) return false;
  const claimed = contentTokens(claim);
  const answer = contentTokens(fact.slice(0, m.index));
  const rejected = [...contentTokens(m[1]!)];
  const ofClaim = rejected.filter((w) => claimed.has(w) && !answer.has(w));
  return ofClaim.length > 0 && ofClaim.length * 2 >= rejected.length && [...answer].some((w) => !claimed.has(w));
}

/** A clause that says the side a claim favours wins ("R wins for my models", "back to Vite, much nicer"). */
const WINS = /\b(?:wins?|won|rules|beats?|ahead|the winner)\b/iu;

/**
 * A take-back of a turn to the rival, back to the claim's side: "scratch that about Python, R
 * wins for my models" against "R is better than Python". The clause that takes back names only
 * the side the claim ranks lower, another clause favours the claim's side: the belief holds.
 * Returns the clause that goes back to it.
 */
export function backToClaim(claim: string, clauses: readonly string[], recants: (clause: string) => boolean) {
  const c = favouredSide(claim);
  if (!c) return undefined;
  let tookBack = false;
  let back: string | undefined;
  for (const clause of clauses) {
    const names = namesIn(clause);
    if (recants(clause)) {
      if (meets(names, c.won) || !meets(names, c.lost)) return undefined;
      tookBack = true;
    } else if (meets(names, c.won) && !meets(names, c.lost)) {
      if (evaluation(clause).sign > 0 || WINS.test(clause)) back = clause.trim();
      else if (evaluation(clause).sign < 0) return undefined;
    }
  }
  return tookBack ? back : undefined;
}

/** The side of a switch the fact gives up, when it is what the opinion is about (and the side taken is not). */
export function gaveUp(statement: string, content: string): string | undefined {
  const sides = switchSides(content);
  if (!sides) return undefined;
  // An opinion that is itself a preference ("Datadog over Grafana") is about the side it takes.
  const taken = switchSides(statement)?.kept;
  const words = taken === undefined ? contentTokens(statement) : contentTokens(taken);
  const about = (text: string) => [...contentTokens(text)].some((t) => words.has(t));
  return about(sides.lost) && !(sides.kept !== undefined && about(sides.kept)) ? sides.lost : undefined;
}

/** Where a preference turns to what it does not take: "Svelte is a better fit | than React", "Vite | beats Webpack". */
const TAKEN_SIDE = /\s(?:than|over|instead of|rather than|beats?|trumps?|outperforms?)\s.*$/iu;

/**
 * The thing a fact praises in hindsight when it is not what the opinion takes ("rewriting the
 * parser in Go would have been faster" against "Rust is the right choice for the parser";
 * "React would have been the safer pick" against "Svelte is a better fit than React"):
 * the holder now prefers the other option. Undefined when the fact praises the opinion's own choice.
 */
export function hindsightRival(statement: string, content: string): string | undefined {
  const praisedText = praisedInHindsight(content);
  if (praisedText === undefined) return undefined;
  const takenText = statement.replace(TAKEN_SIDE, "");
  const taken = writtenNames(takenText);
  const praised = writtenNames(praisedText);
  const names = [...praised.mid, ...praised.lead];
  if (names.some((n) => taken.mid.has(n) || taken.lead.has(n))) return undefined;
  const said = praisedText
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, "")
    .slice(-60);
  if (names.length > 0) return said;
  // Unnamed options: the praised words are those of the side the opinion ranked lower
  // ("one senior would have been the better hire" against "two juniors beat one senior").
  const words = contentTokens(praisedText);
  const takenWords = contentTokens(takenText);
  if ([...words].some((w) => takenWords.has(w))) return undefined;
  const lostWords = contentTokens(statement.slice(takenText.length));
  return [...words].some((w) => lostWords.has(w)) ? said : undefined;
}
