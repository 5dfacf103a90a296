/**
 * The few front-matter keys reflect reads from a bank page: `aliases`, in either YAML
 * form (`aliases: [Jo, "J. B."]` or a block list of `- Jo` lines). Pure.
 */
export function parseAliases(text: string): string[] {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return [];
  const lines = m[1]!.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const head = /^aliases:\s*(.*)$/.exec(line);
    if (!head) continue;
    const inline = head[1]!.trim();
    if (inline.startsWith("[")) {
      const inner = inline.replace(/^\[/, "").replace(/\]\s*$/, "");
      for (const part of inner.split(",")) out.push(unquote(part));
    } else if (inline !== "") {
      out.push(unquote(inline));
    } else {
      for (let j = i + 1; j < lines.length; j++) {
        const item = /^\s+-\s+(.*)$/.exec(lines[j]!);
        if (!item) break;
        out.push(unquote(item[1]!));
      }
    }
  }
  return out.map((a) => a.replace(/^@/, "").trim()).filter((a) => a.length > 0);
}

function unquote(s: string): string {
  const t = s.trim();
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  return t;
}
