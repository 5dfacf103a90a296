import { frontMatterLineCount } from "./frontmatter.js";
import { regionSpans, toLf } from "./regions.js";

/** Paragraphs (blank-line separated blocks), each trimmed, of the text outside any region. */
function boilerplate(template: string): Set<string> {
  const text = toLf(template);
  let outside = text;
  try {
    // Region bodies of a template are empty or placeholders; only the text around them is boilerplate.
    for (const span of regionSpans(text).reverse()) outside = outside.slice(0, span.start) + outside.slice(span.end);
  } catch {
    // A template with broken markers: treat all of it as boilerplate text.
  }
  const lines = outside.split("\n");
  const body = lines.slice(frontMatterLineCount(outside)).join("\n");
  return new Set(
    body
      .split(/\n[ \t]*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== "" && !/^#{1,6}\s/.test(p)),
  );
}

const HEADING = /^(#{1,6})\s/;

/**
 * The lines of a template's own help text (its paragraphs outside the regions, headings
 * aside), each trimmed: how a bank page is kept, never what it says. Pure.
 */
export function templateHelpLines(template: string): Set<string> {
  const out = new Set<string>();
  for (const p of boilerplate(template)) for (const line of p.split("\n")) if (line.trim() !== "") out.add(line.trim());
  return out;
}

/**
 * What a reader wants of a bank page, for an agent's context: the page without its front
 * matter, without the managed-region marker lines, without the template's own help text
 * (paragraphs the page shares with its template outside the regions), and without
 * headings left with nothing under them; `placeholders` are what a region says when it
 * has nothing ("No opinions yet."), dropped too. A person's own notes stay. Pure.
 */
export function pageContent(page: string, template = "", placeholders: readonly string[] = []): string {
  const text = toLf(page);
  const lines = text.split("\n");
  const drop = new Set<number>();
  for (let i = 0; i < frontMatterLineCount(text); i++) drop.add(i);
  try {
    for (const span of regionSpans(text)) {
      drop.add(span.startLine - 1);
      drop.add(span.endLine - 1);
    }
  } catch {
    // Unbalanced markers (a person is mid-edit): show the page as it is.
  }
  const kept = lines.filter((_, i) => !drop.has(i)).join("\n");
  const help = boilerplate(template);
  for (const p of placeholders) help.add(p.trim());
  const paragraphs = kept.split(/\n[ \t]*\n/).filter((p) => p.trim() !== "" && !help.has(p.trim()));
  // A heading with nothing under it (before the next heading of its level or higher) says
  // nothing: walk backwards, knowing the level of the nearest kept paragraph after this one.
  const out: string[] = [];
  let nextLevel = 0; // 0: the end of the page; 7: text
  for (let i = paragraphs.length - 1; i >= 0; i--) {
    const p = paragraphs[i]!.replace(/^\n+|\n+$/g, "");
    const m = p.includes("\n") ? null : HEADING.exec(p);
    if (!m) {
      out.push(p);
      nextLevel = 7;
      continue;
    }
    const level = m[1]!.length;
    if (level > 1 && nextLevel <= level) continue;
    out.push(p);
    nextLevel = level;
  }
  return out.reverse().join("\n\n").trim();
}
