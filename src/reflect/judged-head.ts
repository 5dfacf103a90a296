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

/**
 * The head word of what a statement judges: the last content word of its evaluated subject,
 * leaving out versions and numbers ("design system v2" -> "design") and empty heads ("the new
 * till system" -> "till"), so "the on-call rota is unfair" and "the rota is fine now" judge one
 * thing and "the office coffee" is not "the office".
 */
export function judgedHead(content: string): string | undefined {
  const subject = evaluatedSubject(content);
  if (subject === undefined) return undefined;
  const words = [...contentTokens(subject)].filter((t) => !/\d/.test(t));
  while (words.length > 1 && EMPTY_HEADS.has(words[words.length - 1]!)) words.pop();
  return words.pop();
}
