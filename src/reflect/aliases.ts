import { frontMatterAliases, frontMatterBlock } from "../markdown/frontmatter.js";
import { hasManagedRegion, readRegions } from "../markdown/regions.js";
import { entityFileStem, entityKey, entitySlug } from "../retain/entities.js";
import type { Diagnostic } from "../retain/types.js";
import { cmp } from "./format.js";

/** One `aliases:` entry of an entity page. */
interface AliasEntry {
  /** Lower-cased slug of the alias. */
  key: string;
  alias: string;
  /** Slug of the page that declares it. */
  slug: string;
  path: string;
  line: number;
}

export interface AliasTable {
  /** Lower-cased alias -> page slug. */
  aliases: Map<string, string>;
  /** Alias declarations that were ignored, with the page and line that declare them. */
  diagnostics: Diagnostic[];
}

/**
 * The alias table of the entity pages (`pages` sorted by slug; the first page to claim an
 * alias keeps it). Aliases that form a cycle (Mara.md: `aliases: [Jonas]` and Jonas.md:
 * `aliases: [Mara]`, or longer) would swap facts between the pages, so every alias of a
 * cycle is dropped (each page keeps its own facts) and reported with the line that
 * declares it. Pure.
 */
export function aliasTable(pages: readonly { slug: string; path: string; text: string }[]): AliasTable {
  const entries = new Map<string, AliasEntry>();
  for (const page of pages) {
    for (const { alias, line } of frontMatterAliases(page.text)) {
      const key = (entitySlug(alias) || alias).toLowerCase();
      // An alias naming its own page is harmless and is not an alias.
      if (key !== page.slug.toLowerCase() && !entries.has(key)) {
        entries.set(key, { key, alias, slug: page.slug, path: page.path, line });
      }
    }
  }
  // Follow alias -> page -> that page's name as an alias -> ...; a walk back to its start is a cycle.
  const inCycle = new Set<string>();
  const cycles: AliasEntry[][] = [];
  for (const key of [...entries.keys()].sort(cmp)) {
    if (inCycle.has(key)) continue;
    const walk: AliasEntry[] = [];
    let cur = entries.get(key);
    while (cur && walk.length <= entries.size) {
      walk.push(cur);
      const next = cur.slug.toLowerCase();
      if (next === key) {
        for (const e of walk) inCycle.add(e.key);
        cycles.push(walk);
        break;
      }
      cur = entries.get(next);
    }
  }
  const diagnostics: Diagnostic[] = [];
  for (const cycle of cycles) {
    const chain = cycle.map((e) => `${e.path}:${e.line} aliases ${e.alias}`).join(", ");
    for (const e of cycle) {
      diagnostics.push({
        path: e.path,
        line: e.line,
        reason: `alias "${e.alias}" is part of an alias cycle (${chain}); the cycle's aliases are ignored, each page keeps its own facts: remove the alias that is wrong`,
      });
    }
  }
  diagnostics.sort((a, b) => cmp(a.path, b.path) || a.line - b.line);
  const aliases = new Map<string, string>();
  for (const e of entries.values()) if (!inCycle.has(e.key)) aliases.set(e.key, e.slug);
  return { aliases, diagnostics };
}

/** A page a person renamed (`git mv bank/entities/Priya.md bank/entities/Priya-Shah.md`). */
export interface RenamedPage {
  /** The name the page was made for: its title, which membank writes once and never again. */
  from: string;
  slug: string;
  path: string;
  /** The page's summary still names the old name: membank has not written it since the rename. */
  fresh: boolean;
}

/**
 * Pages renamed by hand, followed: a membank page whose title (`# Priya`) names an entity
 * other than its file (`Priya-Shah.md`), when no page of that name exists, files the old
 * name's facts under it, as an alias would (a case-only rename is the same entity anyway; a
 * cut file name like `CON~1143da2bc5.md` is its title's own page). Without this, the next
 * run would make `Priya.md` again and leave the renamed page empty. Pure.
 */
export function renamedPages(
  pages: readonly { slug: string; path: string; text: string }[],
  taken: ReadonlyMap<string, string>,
): RenamedPage[] {
  const keys = new Set(pages.map((p) => entityKey(p.slug)));
  const out: RenamedPage[] = [];
  const claimed = new Set<string>();
  for (const page of pages) {
    if (!hasManagedRegion(page.text)) continue;
    const title = TITLE.exec(page.text.slice(frontMatterBlock(page.text)?.bodyOffset ?? 0))?.[1]?.trim() ?? "";
    if (title === "" || entitySlug(title) !== title) continue;
    const key = entityKey(title);
    if (key === entityKey(page.slug) || entityFileStem(title) === page.slug || keys.has(key)) continue;
    if (taken.has(title.toLowerCase()) || taken.has(page.slug.toLowerCase()) || claimed.has(key)) continue;
    claimed.add(key);
    const summary = readRegions(page.text).find((r) => r.name === "summary")?.body ?? "";
    out.push({ from: title, slug: page.slug, path: page.path, fresh: summary.trimStart().startsWith(`@${title}:`) });
  }
  return out;
}
const TITLE = /^#[ \t]+(.+?)[ \t]*\r?$/m;
