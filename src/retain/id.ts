import { createHash } from "node:crypto";

/**
 * Normalised content for ids: Unicode NFC, lower case, whitespace collapsed, trimmed.
 * Cosmetic edits (case, spacing) therefore keep a fact's id.
 */
export function normaliseContent(content: string): string {
  return content.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * A fact's stable id: the first 12 hex digits of sha256(date + "\n" + normalised content).
 * It never depends on the file or line, so moving a line keeps the id. parseRetain passes
 * the type letter and the entities before the colon as part of `content`
 * (`"W @Peter: text"`), but not an opinion's confidence: a person editing `c=` must not
 * break evidence links.
 */
export function factId(date: string, content: string): string {
  return createHash("sha256")
    .update(`${date}\n${normaliseContent(content)}`)
    .digest("hex")
    .slice(0, 12);
}
