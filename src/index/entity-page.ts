import { frontMatterAliases, frontMatterName, readFrontMatter } from "../markdown/frontmatter.js";

/** What the index keeps from an entity page `bank/entities/<Slug>.md`. */
export interface EntityPageInfo {
  slug: string;
  name: string;
  aliases: string[];
}

/**
 * Name and aliases of an entity page: front matter (markdown/frontmatter.ts) `name` or
 * `title` and `aliases`, else the first `# H1` after it, else the slug. Pure.
 */
export function parseEntityPage(slug: string, text: string): EntityPageInfo {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const fm = readFrontMatter(text);
  let name = frontMatterName(fm.data);
  const aliases = frontMatterAliases(text).map((a) => a.alias);
  const body = fm.lines;
  if (name === undefined) {
    for (let i = body; i < lines.length; i++) {
      const h = /^#\s+(.+?)\s*#*\s*$/.exec(lines[i]!);
      if (h) {
        name = h[1]!;
        break;
      }
    }
  }
  // Composed (NFC), as the facts' names are: a title or alias typed on an old Mac is the same name.
  const nfcAliases = aliases.map((a) => a.normalize("NFC"));
  return { slug, name: (name ?? slug).normalize("NFC"), aliases: [...new Set(nfcAliases)] };
}
