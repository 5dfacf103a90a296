/**
 * The few front-matter keys reflect reads from a bank page: `aliases`, in either YAML
 * form (`aliases: [Jo, "J. B."]` or a block list of `- Jo` lines). Pure.
 */
export function parseAliases(text: string): string[] {
  return parseAliasLines(text).map((a) => a.alias);
}

/** The aliases with the 1-based line of the page that declares each (for diagnostics). */
export function parseAliasLines(text: string): { alias: string; line: number }[] {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return [];
  const lines = m[1]!.split(/\r?\n/);
  // Front-matter line i is page line i + 2 (the opening `---` is line 1).
  const out: { alias: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const head = /^aliases:\s*(.*)$/.exec(line);
    if (!head) continue;
    const inline = head[1]!.trim();
    if (inline.startsWith("[")) {
      const inner = inline.replace(/^\[/, "").replace(/\]\s*$/, "");
      for (const part of inner.split(",")) out.push({ alias: unquote(part), line: i + 2 });
    } else if (inline !== "") {
      out.push({ alias: unquote(inline), line: i + 2 });
    } else {
      for (let j = i + 1; j < lines.length; j++) {
        const item = /^\s+-\s+(.*)$/.exec(lines[j]!);
        if (!item) break;
        out.push({ alias: unquote(item[1]!), line: j + 2 });
      }
    }
  }
  return out.map((a) => ({ alias: a.alias.replace(/^@/, "").trim(), line: a.line })).filter((a) => a.alias.length > 0);
}

function unquote(s: string): string {
  const t = s.trim();
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  return t;
}
