import path from "node:path";

/** What the index keeps from an entity page `bank/entities/<Slug>.md`. */
export interface EntityPageInfo {
  slug: string;
  name: string;
  aliases: string[];
}

/** `bank/entities/The-Castle.md` -> "The-Castle"; undefined for other paths. */
export function entitySlugFromPagePath(rel: string): string | undefined {
  if (!rel.startsWith("bank/entities/") || !rel.toLowerCase().endsWith(".md")) return undefined;
  const rest = rel.slice("bank/entities/".length);
  if (rest.includes("/")) return undefined;
  return path.posix.basename(rest, path.posix.extname(rest));
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    return t.slice(1, -1);
  }
  return t;
}

/**
 * Name and aliases of an entity page: YAML-style front matter keys `name`/`title` and
 * `aliases` (inline `[a, b]`, comma list, or `- a` block list), else the first `# H1`,
 * else the slug. Only this small subset of YAML is read; anything else is ignored. Pure.
 */
export function parseEntityPage(slug: string, text: string): EntityPageInfo {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let name: string | undefined;
  const aliases: string[] = [];
  let body = 0;
  if (lines[0]?.trim() === "---") {
    const close = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
    if (close > 0) {
      body = close + 1;
      for (let i = 1; i < close; i++) {
        const m = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(lines[i]!);
        if (!m) continue;
        const key = m[1]!.toLowerCase();
        const value = m[2]!.trim();
        if ((key === "name" || key === "title") && value && name === undefined) name = unquote(value);
        if (key === "aliases") {
          if (value) {
            const inner = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
            for (const a of inner.split(",")) if (unquote(a)) aliases.push(unquote(a));
          } else {
            for (let j = i + 1; j < close; j++) {
              const item = /^\s*-\s+(.*)$/.exec(lines[j]!);
              if (!item) break;
              if (unquote(item[1]!)) aliases.push(unquote(item[1]!));
            }
          }
        }
      }
    }
  }
  if (name === undefined) {
    for (let i = body; i < lines.length; i++) {
      const h = /^#\s+(.+?)\s*#*\s*$/.exec(lines[i]!);
      if (h) {
        name = h[1]!;
        break;
      }
    }
  }
  return { slug, name: name ?? slug, aliases: [...new Set(aliases)] };
}
