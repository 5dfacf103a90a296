import { scanLine } from "./prose.js";

/**
 * Nicknames a line ties to a name (issue: nicknames and full names of one person): "Rachel
 * Stein (Rach)", `Lucía ("Lulu")`, "Tomás Reyes, I call him Tom", "Ifeoma (everyone calls
 * her Ify)", "Kwabena aka Kobby". The name is the last name of the line before the
 * nickname, in the same clause. Pure: one line in, [name, nickname] pairs out; when that name
 * is the second word of a full name ("- Rebecca Shaw (Bex)": a sentence's first word and the
 * next), the first word as a third item: which of the two is the person's name is for the caller,
 * who knows which one the logs use ("Rebecca" and not "Shaw"; "Lucía" and not "Daughter").
 */
const CUE =
  /(?:(?<paren>\(\s*["“'‘]?)|\b(?:calls?\s+(?:him|her|them)|aka|a\.k\.a\.|goes\s+by|nicknamed|known\s+as)\s+["“'‘]?)(?<nick>\p{Lu}[\p{L}\p{M}'’-]*)(?<close>["”'’]?\s*\))?/gu;

export function nicknameTies(text: string): ([string, string] | [string, string, string])[] {
  const scanned = scanLine(text, 1);
  if (!scanned) return [];
  const names = [...(scanned.k ?? []), ...(scanned.a ?? []), ...(scanned.n ?? []), ...(scanned.s ?? [])];
  const out: ([string, string] | [string, string, string])[] = [];
  for (const m of text.matchAll(CUE)) {
    // "(Rosa Lind)", "(Tuesday)": a parenthesis is a nickname only when it holds one name.
    if (m.groups?.paren !== undefined && m.groups.close === undefined) continue;
    const nick = m.groups!.nick!.replace(/['’]s$/u, "");
    if (!names.includes(nick)) continue;
    // The nearest name before the cue, with no sentence end or other parenthesis between.
    const before = text.slice(0, m.index);
    let best: { name: string; at: number } | undefined;
    for (const name of names) {
      if (name === nick) continue;
      const at = before.lastIndexOf(name);
      if (at >= 0 && (!best || at > best.at)) best = { name, at };
    }
    if (!best) continue;
    const between = before.slice(best.at + best.name.length);
    // "Ifeoma (everyone calls her Ify)" opens a parenthesis on the way; a closed one or a sentence end parts them.
    if (/[.;!?)]/u.test(between)) continue;
    // Right before a parenthesis stands the name itself or its surname: "Rachel Stein (Rach)".
    if (m.groups?.paren !== undefined && !/^(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?\s*$/u.test(between)) continue;
    const full = (scanned.f ?? []).find(
      ([first, second]) => second === best!.name && before.slice(0, best!.at).endsWith(`${first} `),
    );
    out.push(full ? [best.name, nick, full[0]] : [best.name, nick]);
  }
  return out;
}
