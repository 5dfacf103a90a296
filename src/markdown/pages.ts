import path from "node:path";

/**
 * Where the bank's pages live (DESIGN.md 1), one home for reflect (which writes them),
 * the index (which reads them) and recall (which cites them).
 */
export const ENTITY_DIR = "bank/entities";
export const OPINIONS_PAGE = "bank/opinions.md";
export const PROPOSALS_PAGE = "bank/proposals.md";
/**
 * The headline reflect writes on an entity page with mentions but no facts (reflect/pages.ts
 * entitySummary: "@Ben: no facts yet; named on 3 lines of 2 logs, ..."): a count, which
 * recall must not offer as an answer.
 */
export const NO_FACTS_HEADLINE = /^@\S+: no facts yet; named on \d+ lines?\b/u;

/**
 * `bank/entities/The-Castle.md` -> "The-Castle"; undefined for other paths (sub-folders included).
 * Composed (NFC), as retain spells the names of facts: a name an old Mac's sync left decomposed
 * on disk (`Zoë.md` as e + U+0308) is the same entity as the facts' @Zoë.
 */
export function entitySlugFromPagePath(rel: string): string | undefined {
  if (!rel.startsWith(`${ENTITY_DIR}/`) || !rel.toLowerCase().endsWith(".md")) return undefined;
  const rest = rel.slice(ENTITY_DIR.length + 1);
  if (rest.includes("/")) return undefined;
  return path.posix.basename(rest, path.posix.extname(rest)).normalize("NFC");
}

/** The version of how a page's file name becomes its name, in the index's fingerprint: a change rebuilds existing indexes once. */
export const PAGE_NAME_RULES = 1;
