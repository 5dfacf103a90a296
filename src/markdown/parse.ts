import type { Node, Root } from "mdast";
import remarkParse from "remark-parse";
import remarkStringify from "remark-stringify";
import { unified } from "unified";

const parser = unified().use(remarkParse);
const stringifier = unified().use(remarkStringify, { bullet: "-", emphasis: "_", rule: "-" });

/** Drop a leading byte-order mark; it is not content and must not shift columns. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parse Markdown into an mdast tree; every node carries `position` (1-based lines, 0-based offsets). */
export function parseMarkdown(text: string): Root {
  return parser.parse(stripBom(text));
}

/** Serialise an mdast tree back to Markdown (remark-stringify, `-` bullets). */
export function stringifyMarkdown(tree: Root): string {
  return stringifier.stringify(tree);
}

/** 1-based source line where a node starts (undefined for generated nodes without a position). */
export function nodeLine(node: Node): number | undefined {
  return node.position?.start.line;
}

/** 1-based source line where a node ends. */
export function nodeEndLine(node: Node): number | undefined {
  return node.position?.end.line;
}

/** The exact source text of a node (positions are offsets into the text that was parsed). */
export function nodeSource(text: string, node: Node): string | undefined {
  const pos = node.position;
  if (pos?.start.offset === undefined || pos.end.offset === undefined) return undefined;
  return stripBom(text).slice(pos.start.offset, pos.end.offset);
}

/** Split text into lines on `\r\n`, `\r` or `\n` (the line endings CommonMark knows). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
