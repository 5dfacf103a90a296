import type { Root } from "mdast";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse);

/** Drop a leading byte-order mark; it is not content and must not shift columns. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parse Markdown into an mdast tree; every node carries `position` (1-based lines, 0-based offsets). */
export function parseMarkdown(text: string): Root {
  return parser.parse(stripBom(text));
}

/** Split text into lines on `\r\n`, `\r` or `\n` (the line endings CommonMark knows). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
