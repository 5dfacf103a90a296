import { dropInvalidMentions } from "../retain/entities.js";
import { LETTER_BY_KIND } from "../retain/types.js";
import type { ExtractedFact } from "./types.js";

/**
 * An entity name as a Retain `@Name` token the retain parser reads back whole: letters,
 * digits, marks and underscores with single inner dashes. Spaces and other characters
 * become dashes ("Priya Sharma" -> "Priya-Sharma", "Node.js" -> "Node-js"), as in the slug
 * convention of DESIGN.md 1.1. Empty when nothing is left.
 */
export function entityToken(name: string): string {
  return name
    .normalize("NFC")
    .trim()
    .replace(/^@+/, "")
    .replace(/[^\p{L}\p{N}\p{M}_]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** Text on one line: newlines and runs of whitespace become single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * One grammar-correct Retain line for a fact (DESIGN.md 1.1), without a line ending:
 * `- O(c=0.70) @Priya: Prefers ...`, `- W @Jonas: ...`, `- S: ...`. A citation becomes a
 * ` (session abc123#L42)` suffix of the content. Pure: same fact, same bytes.
 */
export function formatRetainLine(fact: ExtractedFact): string {
  const content = dropInvalidMentions(oneLine(fact.content));
  if (content === "") throw new Error("formatRetainLine: a fact needs content");
  const letter = LETTER_BY_KIND[fact.kind];
  let confidence = "";
  if (fact.kind === "opinion" && fact.confidence !== undefined && Number.isFinite(fact.confidence)) {
    confidence = `(c=${Math.min(1, Math.max(0, fact.confidence)).toFixed(2)})`;
  }
  const tokens: string[] = [];
  for (const entity of fact.entities) {
    const token = entityToken(entity);
    if (token !== "" && !tokens.includes(token)) tokens.push(token);
  }
  const who = tokens.map((t) => ` @${t}`).join("");
  const citation = fact.citation ? ` (${oneLine(fact.citation)})` : "";
  return `- ${letter}${confidence}${who}: ${content}${citation}`;
}
