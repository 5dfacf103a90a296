import { evaluatedSubject } from "../analysis/valence.js";
import { contentTokens } from "./text.js";

/**
 * Head nouns that add nothing to what their modifier names: "the till system" is the till, "the
 * parking situation" the parking, "the rota setup" the rota, "the staging env" staging ("thing" and "stuff" are stop words
 * already). "machine", "app" or "coffee" are things of their own ("the coffee machine" is not
 * "the coffee").
 */
const EMPTY_HEADS = contentTokens(
  "system systems setup set-up situation business arrangement arrangements env environment environments",
);

/** A preposition that starts a modifier after the head noun: "the walk AT the park", "going solar ON the roof". */
const MODIFIER = /\s(?:of|on|in|at|by|for|from|with|near|around|across|during|under|over)\s/iu;

/**
 * The part of a subject up to its head noun: a noun phrase's head comes before the phrase that
 * modifies it ("the morning walk at the park" is a walk, "going solar on the terrace" is solar,
 * "the service in our area" the service), when content words come before the preposition.
 */
function headPhrase(subject: string): string {
  const m = MODIFIER.exec(subject);
  if (m === null) return subject;
  const before = subject.slice(0, m.index);
  return [...contentTokens(before)].some((t) => !/\d/.test(t)) ? before : subject;
}

/**
 * The head word of what a statement judges: the last content word of its evaluated subject,
 * leaving out versions and numbers ("design system v2" -> "design") and empty heads ("the new
 * till system" -> "till"), so "the on-call rota is unfair" and "the rota is fine now" judge one
 * thing and "the office coffee" is not "the office".
 */
export function judgedHead(content: string): string | undefined {
  const subject = evaluatedSubject(content);
  if (subject === undefined) return undefined;
  const words = [...contentTokens(headPhrase(subject))].filter((t) => !/\d/.test(t));
  while (words.length > 1 && EMPTY_HEADS.has(words[words.length - 1]!)) words.pop();
  return words.pop();
}
